package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Loops whose contract is "the same bits in every implementation": the one in use (the Vector API
 * when present) against plain Java, on random rows with the edge values (NaN, ±0, ±∞, subnormals).
 */
class BulkMathAgreementTest {
    private static final BulkMath SCALAR = new ScalarBulkMath();
    private static final float[] EDGES = {Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
        Float.MIN_VALUE, -Float.MIN_VALUE, 1e-40f, -3.5f, 2.25f};

    static Stream<Arguments> channelCounts() {
        return IntStream.of(1, 2, 3, 7, 8, 15, 16, 17, 31, 64, 100, 257).mapToObj(Arguments::of);
    }

    @ParameterizedTest(name = "{0} channels")
    @MethodSource("channelCounts")
    void preluChannelRowsAgree(int channels) {
        SplittableRandom r = new SplittableRandom(channels);
        int rows = 1 + 4096 / channels;
        int n = rows * channels;
        float[] x = values(r, n);
        float[] g = values(r, n);
        float[] w = values(r, channels);
        float[] xScalar = x.clone();
        double[] acc = new double[channels];
        double[] accScalar = new double[channels];
        BulkMath.fastest().preluChannelRows(x, g, 0, n, w, channels, acc);
        SCALAR.preluChannelRows(xScalar, g, 0, n, w, channels, accScalar);
        assertArrayEquals(xScalar, x, BulkMath.fastest().name() + ": gradInput");
        assertArrayEquals(accScalar, acc, BulkMath.fastest().name() + ": channel sums");
    }

    @ParameterizedTest(name = "{0} channels")
    @MethodSource("channelCounts")
    void preluForwardAgrees(int channels) {
        SplittableRandom r = new SplittableRandom(-channels);
        int rows = 1 + 4096 / channels;
        int n = rows * channels;
        float[] x = values(r, n);
        float[] w = values(r, channels);
        float[] single = x.clone();
        float[] singleScalar = x.clone();
        BulkMath.fastest().prelu(single, 1, n - 1, w[0]);
        SCALAR.prelu(singleScalar, 1, n - 1, w[0]);
        assertArrayEquals(singleScalar, single, BulkMath.fastest().name() + ": one weight");
        float[] weights = values(r, n);
        float[] each = x.clone();
        float[] eachScalar = x.clone();
        BulkMath.fastest().preluWeighted(each, weights, 1, n);
        SCALAR.preluWeighted(eachScalar, weights, 1, n);
        assertArrayEquals(eachScalar, each, BulkMath.fastest().name() + ": a weight per element");
    }

    /**
     * The fp32 BCE losses of every implementation: the plain-Java ones the Vector API's bits
     * ({@link Fp32Math}), all within 4 fp32 ulps of losses computed in double with the JDK's log,
     * for probabilities across every binade, subnormals, the ends of the log1p series' range, 0, 1,
     * values outside [0, 1], NaN and infinities (the special results exactly).
     */
    @org.junit.jupiter.api.Test
    void binaryCrossEntropyLossesAreTheVectorBitsAndNearDouble() {
        SplittableRandom r = new SplittableRandom(42);
        float[] special = {0f, -0f, 1f, Float.MIN_VALUE, 1e-40f, 1e-30f, 0x1p-126f, 0.2929f, 0.29289f, 0.2929001f,
            0.41421f, 0.5f, 1 - 0x1p-24f, 0.9999f, -0.25f, 1.5f, 7f, Float.NaN, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY};
        int n = 4096 + 7;
        float[] x = new float[n];
        float[] y = new float[n];
        float[] w = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i < special.length * 3 ? special[i % special.length]
                    : Math.scalb((float) r.nextDouble(0.5, 1), -r.nextInt(150));
            y[i] = i < special.length * 3 ? (i / special.length) * 0.5f : (float) r.nextDouble();
            w[i] = 1 + (i % 3);
        }
        float[] vector = x.clone();
        float[] scalar = x.clone();
        double vectorSum = BulkMath.fastest().binaryCrossEntropy(vector, y, w, n);
        double scalarSum = SCALAR.binaryCrossEntropy(scalar, y, w, n);
        assertArrayEquals(vector, scalar, BulkMath.fastest().name() + " against plain Java: the losses' bits");
        for (int i = 0; i < n; i++) {
            double xi = x[i];
            double logX = Math.max(StrictMath.log(xi), -100);
            double log1mX = Math.max(StrictMath.log1p(-xi), -100);
            float exact = (float) (-(y[i] * logX + (1 - y[i]) * log1mX) * w[i]);
            float v = vector[i];
            String what = "loss of x " + x[i] + ", y " + y[i] + ": " + v + " vs " + exact + " (double)";
            if (Float.isNaN(exact) || Float.isInfinite(exact)) {
                org.junit.jupiter.api.Assertions.assertEquals(exact, v, what);
            } else {
                org.junit.jupiter.api.Assertions.assertEquals(exact, v, 4 * Math.ulp(exact) + Float.MIN_VALUE, what);
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(Double.isNaN(scalarSum) && Double.isNaN(vectorSum));
    }

    static IntStream lossSumLengths() {
        // within a step of 16 lanes, at and around a step and a chunk of 128, and many chunks with a tail
        return IntStream.of(1, 15, 16, 17, 127, 128, 129, 4096 + 7);
    }

    /**
     * The sums of BCE's and BCE with logits' losses in plain Java have the Vector API's bits: both
     * add in {@link SumOrder#chunkedSum}'s order. Finite losses only, so that a sum compares by its
     * bits (with a NaN among them, both sums are NaN whatever their order).
     */
    @ParameterizedTest(name = "{0} elements")
    @MethodSource("lossSumLengths")
    void lossSumsAreTheVectorBits(int n) {
        SplittableRandom r = new SplittableRandom(n);
        float[] x = new float[n];
        float[] p = new float[n];
        float[] y = new float[n];
        float[] w = new float[n];
        float[] pw = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextDouble(-20, 20);
            p[i] = (float) r.nextDouble(0.001, 0.999);
            y[i] = (float) r.nextDouble();
            w[i] = (float) r.nextDouble(0, 2);
            pw[i] = (float) r.nextDouble(0, 3);
        }
        double vector = BulkMath.fastest().bceWithLogits(x.clone(), y, w, pw, n);
        double scalar = SCALAR.bceWithLogits(x.clone(), y, w, pw, n);
        org.junit.jupiter.api.Assertions.assertEquals(Double.doubleToRawLongBits(vector),
                Double.doubleToRawLongBits(scalar), "BCE with logits: sum " + vector + " against plain Java's " + scalar);
        vector = BulkMath.fastest().binaryCrossEntropy(p.clone(), y, w, n);
        scalar = SCALAR.binaryCrossEntropy(p.clone(), y, w, n);
        org.junit.jupiter.api.Assertions.assertEquals(Double.doubleToRawLongBits(vector),
                Double.doubleToRawLongBits(scalar), "BCE: sum " + vector + " against plain Java's " + scalar);
    }

    /**
     * BCE with logits' fp32 losses and gradients: the plain-Java ones the Vector API's bits, for
     * logits across the range (beyond ±104, where exp(−|x|) is clamped), signed zeros, NaN and
     * infinities, targets in and at the ends of [0, 1], posWeights 0 to 3.
     */
    @org.junit.jupiter.api.Test
    void bceWithLogitsLossesAndGradientsAreTheVectorBits() {
        SplittableRandom r = new SplittableRandom(43);
        float[] special = {0f, -0f, 1e-30f, -1e-30f, 0.5f, -0.5f, 20f, -20f, 103.9f, -104.1f, 200f, -200f, Float.NaN,
            Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        int n = 4096 + 5;
        float[] x = new float[n];
        float[] y = new float[n];
        float[] w = new float[n];
        float[] pw = new float[n];
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i < special.length * 3 ? special[i % special.length] : (float) r.nextDouble(-30, 30);
            y[i] = i < special.length * 3 ? (i / special.length) * 0.5f : (float) r.nextDouble();
            w[i] = (float) r.nextDouble(0, 2);
            pw[i] = (float) r.nextDouble(0, 3);
            g[i] = (float) r.nextDouble(-1, 1);
        }
        float[] vector = x.clone();
        float[] scalar = x.clone();
        BulkMath.fastest().bceWithLogits(vector, y, w, pw, n);
        SCALAR.bceWithLogits(scalar, y, w, pw, n);
        assertArrayEquals(vector, scalar, BulkMath.fastest().name() + " against plain Java: the losses' bits");
        vector = x.clone();
        scalar = x.clone();
        BulkMath.fastest().bceWithLogitsBackward(vector, y, g, w, pw, 0.25f, n);
        SCALAR.bceWithLogitsBackward(scalar, y, g, w, pw, 0.25f, n);
        assertArrayEquals(vector, scalar, BulkMath.fastest().name() + " against plain Java: the gradients' bits");
    }

    static Stream<Arguments> rowShapes() {
        return Stream.of(Arguments.of(16, 49), Arguments.of(8, 196), Arguments.of(3, 1), Arguments.of(5, 17),
                Arguments.of(1, 1024), Arguments.of(64, 7));
    }

    /** The row-batched GroupNorm loops give, row for row, the bits of their one-row forms. */
    @ParameterizedTest(name = "{0} rows of {1}")
    @MethodSource("rowShapes")
    void rowBatchesMatchSingleRows(int rows, int length) {
        SplittableRandom r = new SplittableRandom(31L * rows + length);
        int n = rows * length;
        float[] a = values(r, n);
        float[] b = values(r, n);
        double[] scales = new double[rows];
        float[] floatScales = new float[rows];
        for (int i = 0; i < rows; i++) {
            scales[i] = r.nextGaussian();
            floatScales[i] = (float) r.nextGaussian();
        }
        for (BulkMath math : new BulkMath[] {BulkMath.fastest(), SCALAR}) {
            double[] batched = new double[2 * rows];
            double[] single = new double[2 * rows];
            double[] pair = new double[2];
            math.sumAndDotRows(a, b, rows, length, batched);
            float[] affineBatched = a.clone();
            float[] affineSingle = a.clone();
            float[] updateBatched = a.clone();
            float[] updateSingle = a.clone();
            math.affineRows(affineBatched, b, rows, length, scales, 0.75, -0.5);
            math.groupNormUpdateRows(updateBatched, b, rows, length, floatScales, 0.3f, 0.1f, -0.2f);
            for (int i = 0; i < rows; i++) {
                math.sumAndDot(a, b, i * length, (i + 1) * length, pair);
                single[2 * i] = pair[0];
                single[2 * i + 1] = pair[1];
                math.affine(affineSingle, b, i * length, (i + 1) * length, scales[i], 0.75, -0.5);
                math.groupNormUpdate(updateSingle, b, i * length, (i + 1) * length, floatScales[i], 0.3f, 0.1f, -0.2f);
            }
            assertArrayEquals(single, batched, math.name() + ": sumAndDotRows");
            assertArrayEquals(affineSingle, affineBatched, math.name() + ": affineRows");
            assertArrayEquals(updateSingle, updateBatched, math.name() + ": groupNormUpdateRows");
        }
    }

    /**
     * GroupNorm's second pass: every implementation within a few double roundings of the sum
     * computed term by term, over rows whose length is and is not a multiple of the lanes.
     */
    @ParameterizedTest(name = "{0} channels")
    @MethodSource("channelCounts")
    void squaredDeviationsAgree(int length) {
        SplittableRandom r = new SplittableRandom(length);
        float[] a = new float[length + 2];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) (100 + r.nextGaussian());
        }
        double shift = 100.25;
        double exact = 0;
        for (int i = 1; i <= length; i++) {
            exact += (a[i] - shift) * (a[i] - shift);
        }
        for (BulkMath math : new BulkMath[] {BulkMath.fastest(), SCALAR}) {
            org.junit.jupiter.api.Assertions.assertEquals(exact, math.squaredDeviations(a, 1, length + 1, shift),
                    1e-13 * exact, math.name());
        }
    }

    /** The channels-last GroupNorm loops: the same bits in every implementation, for any channel count. */
    @ParameterizedTest(name = "{0} channels")
    @MethodSource("channelCounts")
    void channelRowsAgree(int channels) {
        SplittableRandom r = new SplittableRandom(channels * 31L);
        int rows = 1 + 2048 / channels;
        float[] a = values(r, rows * channels);
        float[] b = values(r, rows * channels);
        double[] shift = new double[channels];
        double[] k = new double[channels];
        double[] bias = new double[channels];
        for (int c = 0; c < channels; c++) {
            shift[c] = r.nextGaussian();
            k[c] = r.nextGaussian();
            bias[c] = r.nextGaussian();
        }
        double[][] sums = new double[2][];
        double[][] sumsOnly = new double[2][];
        double[][] dots = new double[2][];
        double[][] squares = new double[2][];
        float[][] updated = new float[2][];
        BulkMath[] maths = {BulkMath.fastest(), SCALAR};
        for (int m = 0; m < 2; m++) {
            sums[m] = new double[channels];
            dots[m] = new double[channels];
            squares[m] = new double[channels];
            maths[m].addChannelRows(a, b, rows, channels, sums[m], dots[m]);
            sumsOnly[m] = new double[channels];
            maths[m].addChannelSums(a, rows, channels, sumsOnly[m]);
            maths[m].addChannelSquaredDeviations(a, rows, channels, shift, squares[m]);
            updated[m] = a.clone();
            maths[m].affineChannelRows(updated[m], rows, channels, k, bias);
        }
        assertArrayEquals(sums[1], sums[0], "addChannelRows sums");
        assertArrayEquals(dots[1], dots[0], "addChannelRows dots");
        assertArrayEquals(sums[1], sumsOnly[1], "addChannelSums: addChannelRows' sums");
        assertArrayEquals(sumsOnly[1], sumsOnly[0], "addChannelSums");
        assertArrayEquals(squares[1], squares[0], "addChannelSquaredDeviations");
        assertArrayEquals(updated[1], updated[0], "affineChannelRows");
        double expected = 0;
        for (int i = 0; i < rows; i++) {
            expected += a[i * channels + channels - 1];
        }
        org.junit.jupiter.api.Assertions.assertEquals(expected, sums[1][channels - 1], "the last channel's sum, row by row");
    }

    static Stream<Arguments> panelShapes() {
        return Stream.of(Arguments.of(16, 256), Arguments.of(8, 64), Arguments.of(17, 5), Arguments.of(3, 64),
                Arguments.of(32, 128), Arguments.of(1, 1), Arguments.of(64, 100), Arguments.of(256, 20),
                Arguments.of(24, 19), Arguments.of(9, 8));
    }

    /**
     * Panels land where their index says, in every implementation: each row element at its memory
     * column, the gaps between columns untouched, and loading gives the rows back.
     */
    @ParameterizedTest(name = "{0} rows of {1}")
    @MethodSource("panelShapes")
    void panelsMoveEveryElementToItsPlace(int rows, int cols) {
        SplittableRandom r = new SplittableRandom(7L * rows + cols);
        int at = 3;
        float[] buf = values(r, at + rows * cols);
        long colStride = 4L * (rows + 5);
        for (BulkMath math : new BulkMath[] {BulkMath.fastest(), SCALAR}) {
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment seg = arena.allocate(8 + colStride * cols);
                seg.fill((byte) 0x7F);
                math.storePanel(buf, at, rows, cols, seg, 8, colStride, new float[Blocks.SIZE]);
                for (int j = 0; j < cols; j++) {
                    for (int i = 0; i < rows + 5; i++) {
                        int raw = seg.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 8 + j * colStride + 4L * i);
                        int expected = i < rows ? Float.floatToRawIntBits(buf[at + i * cols + j]) : 0x7F7F7F7F;
                        org.junit.jupiter.api.Assertions.assertEquals(expected, raw,
                                math.name() + ": column " + j + " row " + i);
                    }
                }
                float[] back = new float[at + rows * cols];
                math.loadPanel(seg, 8, colStride, back, at, rows, cols, new float[Blocks.SIZE]);
                assertArrayEquals(java.util.Arrays.copyOfRange(buf, at, buf.length),
                        java.util.Arrays.copyOfRange(back, at, back.length), math.name() + ": load");
            }
        }
    }

    /** Raw 16-bit panels: every value at its memory column, unchanged, the gaps between columns untouched. */
    @ParameterizedTest(name = "{0} rows of {1}")
    @MethodSource("panelShapes")
    void halfPanelsMoveEveryValueToItsPlace(int rows, int cols) {
        SplittableRandom r = new SplittableRandom(13L * rows + cols);
        short[] panel = new short[rows * cols];
        for (int i = 0; i < panel.length; i++) {
            panel[i] = (short) r.nextInt(1 << 16);
        }
        long colStride = 2L * (rows + 3);
        for (BulkMath math : new BulkMath[] {BulkMath.fastest(), SCALAR}) {
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment seg = arena.allocate(6 + colStride * cols);
                seg.fill((byte) 0x7E);
                math.storeHalfPanel(panel, rows, cols, seg, 6, colStride);
                for (int j = 0; j < cols; j++) {
                    for (int i = 0; i < rows + 3; i++) {
                        short raw = seg.get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 6 + j * colStride + 2L * i);
                        short expected = i < rows ? panel[i * cols + j] : (short) 0x7E7E;
                        org.junit.jupiter.api.Assertions.assertEquals(expected, raw,
                                math.name() + ": column " + j + " row " + i);
                    }
                }
            }
        }
    }

    /**
     * 16-bit values and FLOATs transposed from memory to memory: every value at its place, unchanged
     * (compared as raw bytes), the gaps between destination columns untouched, the source unchanged.
     */
    @ParameterizedTest(name = "{0} rows of {1}")
    @MethodSource("panelShapes")
    void valuesMoveFromMemoryToTheirPlace(int rows, int cols) {
        SplittableRandom r = new SplittableRandom(17L * rows + cols);
        for (int bytes : new int[] {2, 4}) {
            long rowStride = bytes * (cols + 5L);
            long colStride = bytes * (rows + 3L);
            for (BulkMath math : new BulkMath[] {BulkMath.fastest(), SCALAR}) {
                try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                    java.lang.foreign.MemorySegment src = arena.allocate(4 + rowStride * rows);
                    for (long i = 0; i < src.byteSize(); i++) {
                        src.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) r.nextInt(256));
                    }
                    java.lang.foreign.MemorySegment before = arena.allocate(src.byteSize()).copyFrom(src);
                    java.lang.foreign.MemorySegment dst = arena.allocate(6 + colStride * cols);
                    dst.fill((byte) 0x7E);
                    if (bytes == 2) {
                        math.transposeHalves(src, 4, rowStride, rows, cols, dst, 6, colStride);
                    } else {
                        math.transposeFloats(src, 4, rowStride, rows, cols, dst, 6, colStride);
                    }
                    for (int j = 0; j < cols; j++) {
                        for (int i = 0; i < rows + 3; i++) {
                            for (int b = 0; b < bytes; b++) {
                                byte raw = dst.get(java.lang.foreign.ValueLayout.JAVA_BYTE,
                                        6 + j * colStride + (long) bytes * i + b);
                                byte expected = i < rows ? src.get(java.lang.foreign.ValueLayout.JAVA_BYTE,
                                        4 + i * rowStride + (long) bytes * j + b) : (byte) 0x7E;
                                org.junit.jupiter.api.Assertions.assertEquals(expected, raw,
                                        math.name() + ", " + bytes + "-byte values: column " + j + " row " + i);
                            }
                        }
                    }
                    org.junit.jupiter.api.Assertions.assertEquals(-1L, src.mismatch(before), math.name() + ": source");
                }
            }
        }
    }

    /**
     * BFLOAT16 panels as FLOAT ones: each element rounded as {@code HalfFloats.toBf16} rounds it (NaN,
     * ties, subnormals, overflow to infinity among the values) at its memory column, the gaps between
     * columns untouched, and loading gives the rounded rows back.
     */
    @ParameterizedTest(name = "{0} rows of {1}")
    @MethodSource("panelShapes")
    void bf16PanelsRoundEveryElementIntoItsPlace(int rows, int cols) {
        SplittableRandom r = new SplittableRandom(11L * rows + cols);
        int at = 5;
        float[] buf = values(r, at + rows * cols);
        for (int i = at; i < buf.length; i += 7) { // ties, which round to even, and a value that rounds to infinity
            buf[i] = Float.intBitsToFloat(0x3F808000 | (i & 1) << 16);
        }
        buf[buf.length - 1] = Float.MAX_VALUE;
        long colStride = 2L * (rows + 3);
        for (BulkMath math : new BulkMath[] {BulkMath.fastest(), SCALAR}) {
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment seg = arena.allocate(6 + colStride * cols);
                seg.fill((byte) 0x7E);
                math.storeBf16Panel(buf, at, rows, cols, seg, 6, colStride, new float[Blocks.SIZE]);
                float[] rounded = new float[at + rows * cols];
                for (int j = 0; j < cols; j++) {
                    for (int i = 0; i < rows + 3; i++) {
                        short raw = seg.get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 6 + j * colStride + 2L * i);
                        short expected = i < rows ? io.github.aclnn4j.tensor.HalfFloats.toBf16(buf[at + i * cols + j])
                                : (short) 0x7E7E;
                        org.junit.jupiter.api.Assertions.assertEquals(expected, raw,
                                math.name() + ": column " + j + " row " + i);
                        if (i < rows) {
                            rounded[at + i * cols + j] = io.github.aclnn4j.tensor.HalfFloats.fromBf16(raw);
                        }
                    }
                }
                float[] back = new float[at + rows * cols];
                math.loadBf16Panel(seg, 6, colStride, back, at, rows, cols, new float[Blocks.SIZE]);
                assertArrayEquals(rounded, back, math.name() + ": load");
            }
        }
    }

    @ParameterizedTest(name = "{0} rows of {1}")
    @MethodSource("panelShapes")
    void transposeMovesEveryElement(int rows, int cols) {
        float[] src = values(new SplittableRandom(rows - 3L * cols), 2 + rows * cols);
        for (BulkMath math : new BulkMath[] {BulkMath.fastest(), SCALAR}) {
            float[] dst = new float[1 + rows * cols];
            math.transpose(src, 2, rows, cols, dst, 1);
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    org.junit.jupiter.api.Assertions.assertEquals(Float.floatToRawIntBits(src[2 + i * cols + j]),
                            Float.floatToRawIntBits(dst[1 + j * rows + i]), math.name() + ": " + i + ", " + j);
                }
            }
        }
    }

    /**
     * Every other float, in every implementation (the Vector API's with masked stores and without),
     * loaded and stored: the even ones of the memory,
     * the odd ones never written, NaN payloads and signed zeros kept, at odd offsets, with the last element the segment's last float (its pair's
     * second half lies outside) and on a heap segment as well as a native one.
     */
    @ParameterizedTest(name = "{0} elements")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2, 7, 8, 9, 15, 16, 17, 33, 100, 4096})
    void everyOtherFloatIsTheEvenOne(int n) {
        SplittableRandom r = new SplittableRandom(n);
        float[] memory = values(r, 2 * n + 1);
        memory[0] = Float.intBitsToFloat(0x7FC01234); // a NaN with a payload
        for (BulkMath math : withBothStores()) {
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                // n even floats from byte 4, the last one ending the segment
                java.lang.foreign.MemorySegment nativeSeg = arena.allocate(4 + 4L * Math.max(0, 2 * n - 1));
                java.lang.foreign.MemorySegment heapSeg = java.lang.foreign.MemorySegment.ofArray(
                        new float[1 + Math.max(0, 2 * n - 1)]);
                for (java.lang.foreign.MemorySegment seg : new java.lang.foreign.MemorySegment[] {nativeSeg, heapSeg}) {
                    java.lang.foreign.MemorySegment.copy(memory, 0, seg,
                            java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, 4, Math.max(0, 2 * n - 1));
                    float[] got = new float[n + 3];
                    math.loadEveryOther(seg, 4, got, 3, n);
                    for (int i = 0; i < n; i++) {
                        org.junit.jupiter.api.Assertions.assertEquals(Float.floatToRawIntBits(memory[2 * i]),
                                Float.floatToRawIntBits(got[3 + i]), math.name() + " element " + i);
                    }
                    float[] stored = values(r, n + 3); // back into the even floats, the odd ones kept
                    math.storeEveryOther(stored, 3, n, seg, 4);
                    for (int i = 0; i < 2 * n - 1; i++) {
                        float want = i % 2 == 0 ? stored[3 + i / 2] : memory[i];
                        org.junit.jupiter.api.Assertions.assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(
                                seg.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, 4 + 4L * i)),
                                math.name() + " stored float " + i);
                    }
                }
            }
        }
    }

    /** The implementation in use and plain Java; on the Vector API, with masked stores and without. */
    private static BulkMath[] withBothStores() {
        return BulkMath.fastest() instanceof VectorBulkMath
                ? new BulkMath[] {new VectorBulkMath(true), new VectorBulkMath(false), SCALAR}
                : new BulkMath[] {BulkMath.fastest(), SCALAR};
    }

    private static float[] values(SplittableRandom r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(16) == 0 ? EDGES[r.nextInt(EDGES.length)] : (float) r.nextGaussian();
        }
        return v;
    }
}
