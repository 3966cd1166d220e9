package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The direct loops against the row loops they stand in for: element-wise results bit for bit
 * (FLOAT and the BFLOAT16 rounding, ties and NaNs included), sums to within the rounding of a
 * differently grouped double sum. Operands sit at odd byte offsets, values include ±0, ±∞, NaN,
 * subnormals and BFLOAT16 rounding ties.
 */
class DirectMathTest {
    private static final int N = 2 * 4096;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private static DirectMath math;

    @BeforeAll
    static void requireVectorApi() {
        math = DirectMath.INSTANCE;
        assumeTrue(math != null, "the Vector API is not present: no direct loops to test");
    }

    static Stream<Arguments> cases() {
        return Stream.of(DType.FLOAT, DType.BF16, DType.FLOAT16)
                .flatMap(dt -> Stream.of(1L, 2L, 3L, 4L, 5L).map(seed -> Arguments.of(dt, seed)));
    }

    /**
     * BCE with logits' cases: for the 16-bit types with the softplus gathered and with it looked up
     * by a plain loop (see {@link Gathers}), whichever this processor uses.
     */
    static Stream<Arguments> bceWithLogitsCases() {
        return cases().flatMap(c -> {
            Object[] a = c.get();
            return a[0] == DType.FLOAT
                    ? Stream.of(Arguments.of(a[0], a[1], Gathers.FAST))
                    : Stream.of(true, false).map(gather -> Arguments.of(a[0], a[1], gather));
        });
    }

    /** The cases of the 16-bit types, the ones that look their softplus up (FLOAT computes it). */
    static Stream<Arguments> halfCases() {
        return cases().filter(c -> c.get()[0] != DType.FLOAT);
    }

    /** The direct loops with the 16-bit softplus gathered or looked up by a plain loop. */
    private static DirectMath lookup(boolean gather) {
        return new VectorDirectMath(gather);
    }

    /** Values as stored in {@code dt}: mostly ordinary, with special values and rounding ties mixed in. */
    private static float[] values(SplittableRandom rng, DType dt, double lo, double hi) {
        float[] v = new float[N];
        float[] special = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE,
            -1e-39f, 1f, 0x1.02p0f, 0x1.03p0f, 0x1.004p0f, 6e-8f, -3e-5f, 65504f, 70000f};
        for (int i = 0; i < N; i++) {
            float x = rng.nextInt(16) == 0 ? special[rng.nextInt(special.length)] : (float) rng.nextDouble(lo, hi);
            v[i] = switch (dt) {
                case BF16 -> HalfFloats.fromBf16(HalfFloats.toBf16(x));
                case FLOAT16 -> HalfFloats.fromHalf(HalfFloats.toHalf(x));
                default -> x;
            };
        }
        return v;
    }

    /** {@code v} stored in {@code dt} at byte {@code at} of a fresh segment. */
    private static MemorySegment store(Arena arena, DType dt, float[] v, long at) {
        MemorySegment s = arena.allocate(at + (long) v.length * dt.byteSize + 64);
        for (int i = 0; i < v.length; i++) {
            switch (dt) {
                case BF16 -> s.set(I16, at + 2L * i, HalfFloats.toBf16(v[i]));
                case FLOAT16 -> s.set(I16, at + 2L * i, HalfFloats.toHalf(v[i]));
                default -> s.set(F32, at + 4L * i, v[i]);
            }
        }
        return s;
    }

    private static int bitsAt(DType dt, MemorySegment s, long at, int i) {
        return dt == DType.FLOAT ? Float.floatToRawIntBits(s.get(F32, at + 4L * i)) : s.get(I16, at + 2L * i) & 0xFFFF;
    }

    /** The bits a row loop stores for {@code v}. */
    private static int rowBits(DType dt, float v) {
        return switch (dt) {
            case BF16 -> HalfFloats.toBf16(v) & 0xFFFF;
            case FLOAT16 -> HalfFloats.toHalf(v) & 0xFFFF;
            default -> Float.floatToRawIntBits(v);
        };
    }

    private static boolean isNaN(DType dt, int bits) {
        return switch (dt) {
            case BF16 -> bits == 0x7FC0;
            case FLOAT16 -> (bits & 0x7C00) == 0x7C00 && (bits & 0x3FF) != 0;
            default -> Float.isNaN(Float.intBitsToFloat(bits));
        };
    }

    private static void assertElementwise(DType dt, float[] expected, MemorySegment out, long at, String what) {
        for (int i = 0; i < N; i++) {
            int want = rowBits(dt, expected[i]);
            int got = bitsAt(dt, out, at, i);
            boolean bothNaN = Float.isNaN(expected[i]) && isNaN(dt, got);
            if (want != got && !bothNaN) {
                assertEquals(Integer.toHexString(want), Integer.toHexString(got), what + " " + dt + " element " + i);
            }
        }
    }

    /** Σ|v|: the scale a sum of {@code v}'s terms is compared at. */
    private static double magnitude(float[] v) {
        double magnitude = 0;
        for (float term : v) {
            magnitude += Math.abs(term);
        }
        return magnitude;
    }

    private static void assertSum(double expected, double actual, double magnitude, String what) {
        if (Double.isNaN(expected)) {
            assertEquals(expected, actual, what);
            return;
        }
        assertWithin(expected, actual, 1e-12 * magnitude, what);
    }

    private static void assertWithin(double expected, double actual, double tolerance, String what) {
        if (Double.isNaN(expected) || Double.isInfinite(expected)) {
            assertEquals(expected, actual, what);
            return;
        }
        assertEquals(expected, actual, tolerance + 1e-300, what);
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void preluMatchesRows(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] x = values(rng, dt, -2, 2);
        float[] g = values(rng, dt, -3, 3);
        float w = seed % 2 == 0 ? 1.5f : 0.25f; // 1.5 makes BFLOAT16 rounding ties out of odd significands
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, dt, x, 2);
            MemorySegment gs = store(arena, dt, g, 6);
            MemorySegment out = arena.allocate(2L * N * 4 + 64);
            double sum = math.prelu(dt, xs, 2, gs, 6, w, out, 10, N);
            float[] rows = x.clone();
            double rowSum = BulkMath.fastest().preluRow(rows, g, 0, N, w);
            assertElementwise(dt, rows, out, 10, "prelu gradInput");
            double magnitude = 0;
            for (int i = 0; i < N; i++) {
                magnitude += Math.abs((double) Math.min(x[i], 0f) * g[i]);
            }
            // FLOAT sums in double; the 16-bit types in fp32 chunks of 2048 terms, 64 per lane
            assertWithin(rowSum, sum, (dt == DType.FLOAT ? 1e-12 : 0x1p-17) * magnitude, "prelu Σ min(x, 0)·g");
        }
    }

    static Stream<Arguments> channelsLastPreluCases() {
        return Stream.of(32, 37, 64, 96, 130).flatMap(c -> Stream.of(1L, 2L).map(seed -> Arguments.of(c, seed)));
    }

    /**
     * BFLOAT16 PReLU backward over channels-last rows, stored transposed: each channel's sum and
     * gradient have exactly the bits of {@link DirectMath#prelu} over a channels-first copy of that
     * channel's run (2144 positions: a whole fp32 chunk and part of the next), gradient runs apart
     * by more than their length. Values include a few ±∞, NaN, subnormals and ties (most channels'
     * sums stay finite), also where x > 0, and span magnitudes enough that the fp32 lanes round (so
     * that a term added to another lane shows).
     */
    @ParameterizedTest(name = "{0} channels, seed {1}")
    @MethodSource("channelsLastPreluCases")
    void preluBackwardChannelsLastMatchesChannelRuns(int channels, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int positions = 2048 + 96;
        float[] special = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1e-40f, 0x1.02p0f};
        float[] x = new float[positions * channels];
        float[] g = new float[positions * channels];
        for (int i = 0; i < x.length; i++) { // magnitudes 2^-12 to 2^12, so that the fp32 lanes round
            x[i] = rng.nextInt(4096) == 0 ? special[rng.nextInt(special.length)]
                    : (float) Math.scalb(rng.nextDouble(-2, 2), rng.nextInt(-12, 13));
            g[i] = rng.nextInt(1024) == 0 ? special[rng.nextInt(special.length)]
                    : (float) Math.scalb(rng.nextDouble(-2, 2), rng.nextInt(-12, 13));
        }
        float[] w = new float[channels];
        for (int c = 0; c < channels; c++) {
            w[c] = HalfFloats.fromBf16(HalfFloats.toBf16((float) rng.nextDouble(-1, 1)));
        }
        long colStride = 2L * positions + 8;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, DType.BF16, x, 2);
            MemorySegment gs = store(arena, DType.BF16, g, 6);
            MemorySegment gi = arena.allocate(10 + colStride * channels);
            double[] sums = new double[channels];
            math.preluBackwardChannelsLast(xs, 2, gs, 6, positions, channels, w, gi, 10, colStride, sums);
            for (int c = 0; c < channels; c++) {
                float[] xc = new float[positions];
                float[] gc = new float[positions];
                for (int p = 0; p < positions; p++) {
                    xc[p] = x[p * channels + c];
                    gc[p] = g[p * channels + c];
                }
                MemorySegment run = arena.allocate(2L * positions + 64);
                double want = math.prelu(DType.BF16, store(arena, DType.BF16, xc, 2), 2,
                        store(arena, DType.BF16, gc, 2), 2, w[c], run, 4, positions);
                assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(sums[c]), // any NaN as one
                        "channel " + c + ": " + sums[c] + " against " + want);
                for (int p = 0; p < positions; p++) {
                    assertEquals(run.get(I16, 4 + 2L * p), gi.get(I16, 10 + c * colStride + 2L * p),
                            "gradient of channel " + c + " at position " + p);
                }
            }
        }
    }

    static Stream<Arguments> transposedPreluCases() {
        return Stream.of(31, 32, 37, 64).flatMap(c -> Stream.of(63, 64).map(rows -> Arguments.of(c, rows)));
    }

    /**
     * BFLOAT16 PReLU forward over a panel of channels-last rows, stored transposed (pairs of rows
     * packed into 32-bit values, the last row of an odd count and the channels past the last group
     * one by one): every value has the bits {@link DirectMath#preluForward} gives for its channel's
     * run, with ±∞, NaN, subnormals and rounding ties among the inputs.
     */
    @ParameterizedTest(name = "{0} channels, {1} rows")
    @MethodSource("transposedPreluCases")
    void preluTransposedBf16MatchesChannelRuns(int channels, int rows) {
        SplittableRandom rng = new SplittableRandom(channels * 100L + rows);
        float[] x = values(rng, DType.BF16, -3, 3);
        float[] w = new float[channels + 3];
        for (int c = 0; c < w.length; c++) {
            w[c] = HalfFloats.fromBf16(HalfFloats.toBf16(c % 5 == 0 ? 1.5f : (float) rng.nextDouble(-1, 1)));
        }
        long rowStride = 2L * channels + 6; // rows of a wider panel
        long colStride = 2L * rows + 10;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = arena.allocate(2 + rowStride * rows);
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < channels; c++) {
                    xs.set(I16, 2 + r * rowStride + 2L * c, HalfFloats.toBf16(x[r * channels + c]));
                }
            }
            MemorySegment out = arena.allocate(4 + colStride * channels);
            math.preluTransposed(DType.BF16, xs, 2, rowStride, rows, channels, w, 3, out, 4, colStride);
            for (int c = 0; c < channels; c++) {
                float[] run = new float[rows];
                for (int r = 0; r < rows; r++) {
                    run[r] = x[r * channels + c];
                }
                MemorySegment want = arena.allocate(2L * rows + 64);
                math.preluForward(DType.BF16, store(arena, DType.BF16, run, 2), 2, w[3 + c], want, 6, rows - rows % 32);
                for (int r = 0; r < rows - rows % 32; r++) {
                    assertEquals(want.get(I16, 6 + 2L * r), out.get(I16, 4 + c * colStride + 2L * r),
                            "channel " + c + ", row " + r);
                }
                for (int r = rows - rows % 32; r < rows; r++) { // past the loop's whole steps: the row formula
                    float v = run[r];
                    assertEquals(HalfFloats.toBf16(v > 0 ? v : w[3 + c] * v), out.get(I16, 4 + c * colStride + 2L * r),
                            "channel " + c + ", row " + r);
                }
            }
        }
    }

    /** FLOAT BCE-with-logits gradients: the direct loop gives the rows' bits, operands at odd offsets. */
    @org.junit.jupiter.params.ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3, 4, 5})
    void bceWithLogitsBackwardMatchesRows(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        DType dt = DType.FLOAT;
        float[] x = values(rng, dt, -30, 30);
        float[] y = values(rng, dt, 0, 1);
        float[] g = values(rng, dt, -2, 2);
        float[] w = values(rng, dt, 0, 2);
        float[] pw = values(rng, dt, 0, 3);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(4L * N + 64);
            math.bceWithLogitsBackward(dt, store(arena, dt, x, 4), 4, store(arena, dt, y, 8), 8, store(arena, dt, g, 12),
                    12, store(arena, dt, w, 16), 16, store(arena, dt, pw, 20), 20, 0.75f, out, 24, N);
            float[] rows = x.clone();
            BulkMath.fastest().bceWithLogitsBackward(rows, y, g, w, pw, 0.75f, N);
            assertElementwise(dt, rows, out, 24, "BCE with logits backward");
        }
    }

    /**
     * 16-bit BCE-with-logits gradients, gradOutput one value and dense, weight and posWeight one
     * value each (posWeight 0 and ∞ among them): the rows' bits, rounded once.
     */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("halfCases")
    void bceWithLogitsBackwardHalvesMatchRows(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] x = values(rng, dt, -30, 30);
        float[] y = values(rng, dt, 0, 1);
        float[] g = values(rng, dt, -2, 2);
        float w = rounded(dt, UNIFORM_W[(int) seed - 1]);
        float pw = rounded(dt, UNIFORM_PW[(int) seed - 1]);
        float gOne = rounded(dt, -1.25f);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, dt, x, 4);
            MemorySegment ys = store(arena, dt, y, 8);
            MemorySegment out = arena.allocate(2L * N + 64);
            math.bceWithLogitsBackwardUniform(dt, xs, 4, ys, 8, gOne, w, pw, 0.75f, out, 24, N);
            float[] rows = x.clone();
            BulkMath.fastest().bceWithLogitsBackward(rows, y, filled(gOne), filled(w), filled(pw), 0.75f, N);
            assertElementwise(dt, rows, out, 24, "BCE with logits backward, g one value");
            math.bceWithLogitsBackwardDenseGrad(dt, xs, 4, ys, 8, store(arena, dt, g, 12), 12, w, pw, 0.75f, out, 24,
                    N);
            rows = x.clone();
            BulkMath.fastest().bceWithLogitsBackward(rows, y, g, filled(w), filled(pw), 0.75f, N);
            assertElementwise(dt, rows, out, 24, "BCE with logits backward, dense g");
        }
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void preluForwardMatchesRows(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] x = values(rng, dt, -2, 2);
        float w = seed % 2 == 0 ? 1.5f : -0.25f; // 1.5 makes BFLOAT16 rounding ties out of odd significands
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(2L * N * 4 + 64);
            math.preluForward(dt, store(arena, dt, x, 2), 2, w, out, 6, N);
            float[] rows = x.clone();
            BulkMath.fastest().prelu(rows, 0, N, w);
            assertElementwise(dt, rows, out, 6, "prelu out");
        }
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void bceBackwardMatchesRows(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] x = values(rng, dt, 0, 1);
        float[] y = values(rng, dt, 0, 1);
        float g = 0.75f;
        float w = 1.5f;
        float scale = 1f / 3;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, dt, x, 4);
            MemorySegment ys = store(arena, dt, y, 0);
            MemorySegment out = arena.allocate(2L * N * 4 + 64);
            math.bceBackwardUniform(dt, g, xs, 4, ys, 0, w, scale, out, 2, N);
            float[] expected = new float[N];
            for (int i = 0; i < N; i++) {
                expected[i] = g * (x[i] - y[i]) / Math.max((1f - x[i]) * x[i], 1e-12f) * w * scale;
            }
            assertElementwise(dt, expected, out, 2, "BCE backward");
            if (dt == DType.FLOAT) {
                MemorySegment gs = store(arena, dt, filled(g), 8);
                MemorySegment ws = store(arena, dt, filled(w), 12);
                MemorySegment out2 = arena.allocate(4L * N + 64);
                math.bceBackward(dt, gs, 8, xs, 4, ys, 0, ws, 12, scale, out2, 6, N);
                assertElementwise(dt, expected, out2, 6, "BCE backward, dense g and w");
            } else {
                float[] gd = values(rng, dt, -2, 2);
                MemorySegment out2 = arena.allocate(2L * N + 64);
                math.bceBackwardDenseGrad(dt, store(arena, dt, gd, 8), 8, xs, 4, ys, 0, w, scale, out2, 6, N);
                for (int i = 0; i < N; i++) {
                    expected[i] = gd[i] * (x[i] - y[i]) / Math.max((1f - x[i]) * x[i], 1e-12f) * w * scale;
                }
                assertElementwise(dt, expected, out2, 6, "BCE backward, dense g");
                float[] wd = values(rng, dt, 0, 2);
                MemorySegment out3 = arena.allocate(2L * N + 64);
                math.bceBackward(dt, store(arena, dt, gd, 8), 8, xs, 4, ys, 0, store(arena, dt, wd, 10), 10, scale,
                        out3, 6, N);
                for (int i = 0; i < N; i++) {
                    expected[i] = gd[i] * (x[i] - y[i]) / Math.max((1f - x[i]) * x[i], 1e-12f) * wd[i] * scale;
                }
                assertElementwise(dt, expected, out3, 6, "BCE backward, dense g and w");
            }
        }
    }

    /** Single weights for the 16-bit loops, by seed: posWeight ∞ and 0 included. */
    private static final float[] UNIFORM_W = {1f, 1.5f, 0.3f, 0f, 2f};
    private static final float[] UNIFORM_PW = {1f, 2.5f, -0.75f, 0f, Float.POSITIVE_INFINITY};

    @ParameterizedTest(name = "{0} seed {1} gather {2}")
    @MethodSource("bceWithLogitsCases")
    void bceWithLogitsMatchesRows(DType dt, long seed, boolean gather) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] x = values(rng, dt, -20, 20);
        float[] y = values(rng, dt, -0.5, 1.5); // targets outside [0, 1] too: terms of both signs
        // weights in FLOAT memory, rounded to dt as the kernel does: dense for FLOAT, single values
        // (the only kind the 16-bit loops take) otherwise
        float[] w = dt == DType.FLOAT ? values(rng, dt, 0, 2) : filled(rounded(dt, UNIFORM_W[(int) seed - 1]));
        float[] pw = dt == DType.FLOAT ? values(rng, dt, -1, 3) : filled(rounded(dt, UNIFORM_PW[(int) seed - 1]));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, dt, x, 4);
            MemorySegment ys = store(arena, dt, y, 0);
            MemorySegment out = arena.allocate(4L * N + 64);
            double sum = dt == DType.FLOAT
                    ? math.bceWithLogits(dt, xs, 4, ys, 0, store(arena, dt, w, 8), 8, store(arena, dt, pw, 12), 12, out,
                            6, N)
                    : lookup(gather).bceWithLogitsUniform(dt, xs, 4, ys, 0, w[0], pw[0], out, 6, N);
            float[] rows = x.clone();
            double rowSum = BulkMath.fastest().bceWithLogits(rows, y, w, pw, N);
            assertElementwise(dt, rows, out, 6, "BCE with logits");
            assertSum(rowSum, sum, magnitude(rows), "BCE with logits Σ loss");
        }
    }

    /**
     * The 16-bit loops with a weight and posWeight per element (a row repeated, in FLOAT runs as
     * DirectOperands lays it out), values of the dtype with zeros and infinite posWeights among them:
     * the rows' losses, bit for bit, and their sum.
     */
    @ParameterizedTest(name = "{0} seed {1} gather {2}")
    @MethodSource("bceWithLogitsCases")
    void bceWithLogitsWithWeightRunsMatchesRows(DType dt, long seed, boolean gather) {
        if (dt == DType.FLOAT) {
            return; // bceWithLogitsMatchesRows takes FLOAT's runs
        }
        SplittableRandom rng = new SplittableRandom(seed + 100);
        float[] x = values(rng, dt, -20, 20);
        float[] y = values(rng, dt, -0.5, 1.5);
        float[] w = new float[N];
        float[] pw = new float[N];
        for (int i = 0; i < N; i++) {
            w[i] = rounded(dt, UNIFORM_W[i % UNIFORM_W.length] * (float) rng.nextDouble(0.5, 1.5));
            pw[i] = rounded(dt, i % 7 == 0 ? UNIFORM_PW[(i / 7) % UNIFORM_PW.length] : (float) rng.nextDouble(-1, 3));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, dt, x, 4);
            MemorySegment ys = store(arena, dt, y, 0);
            MemorySegment out = arena.allocate(2L * N + 64);
            double sum = lookup(gather).bceWithLogits(dt, xs, 4, ys, 0, store(arena, DType.FLOAT, w, 8), 8,
                    store(arena, DType.FLOAT, pw, 12), 12, out, 6, N);
            float[] rows = x.clone();
            double rowSum = BulkMath.fastest().bceWithLogits(rows, y, w, pw, N);
            assertElementwise(dt, rows, out, 6, "BCE with logits, weights per element");
            assertSum(rowSum, sum, magnitude(rows), "BCE with logits Σ loss, weights per element");
            double sumOnly = lookup(gather).bceWithLogits(dt, xs, 4, ys, 0, store(arena, DType.FLOAT, w, 8), 8,
                    store(arena, DType.FLOAT, pw, 12), 12, null, 0, N);
            assertEquals(Double.doubleToRawLongBits(sum), Double.doubleToRawLongBits(sumOnly), "the sum without out");
        }
    }

    /**
     * The 16-bit loops look the softplus up in a table with an entry per value: every bit pattern
     * of x once, against the rows, with two posWeights.
     */
    @ParameterizedTest(name = "{0} posWeight {1} gather {2}")
    @MethodSource("everyHalfValue")
    void bceWithLogitsOfEvery16BitValueMatchesRows(DType dt, float pw, boolean gather) {
        int n = 1 << 16;
        SplittableRandom rng = new SplittableRandom(7);
        float[] x = new float[n];
        float[] y = new float[n];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = arena.allocate(2L * n); // by bit pattern: storing floats would merge NaNs
            for (int i = 0; i < n; i++) {
                xs.setAtIndex(ValueLayout.JAVA_SHORT, i, (short) i);
                x[i] = dt == DType.BF16 ? HalfFloats.fromBf16((short) i) : HalfFloats.fromHalf((short) i);
                y[i] = rounded(dt, (float) rng.nextDouble());
            }
            MemorySegment ys = store(arena, dt, y, 0);
            MemorySegment out = arena.allocate(2L * n);
            lookup(gather).bceWithLogitsUniform(dt, xs, 0, ys, 0, 1f, pw, out, 0, n);
            float[] rows = x.clone();
            float[] pws = new float[n];
            java.util.Arrays.fill(pws, pw);
            float[] ones = new float[n];
            java.util.Arrays.fill(ones, 1f);
            BulkMath.fastest().bceWithLogits(rows, y, ones, pws, n);
            for (int i = 0; i < n; i++) {
                int want = rowBits(dt, rows[i]);
                int got = bitsAt(dt, out, 0, i);
                if (want != got && !(Float.isNaN(rows[i]) && isNaN(dt, got))) {
                    assertEquals(Integer.toHexString(want), Integer.toHexString(got),
                            "BCE with logits " + dt + " x bits " + Integer.toHexString(i));
                }
            }
        }
    }

    /** Both ways of looking the softplus up give every loss and the sum to the bit. */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("halfCases")
    void bceWithLogitsLookupsAgree(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int n = math.step() * (1 + rng.nextInt(N / math.step() - 1));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, dt, values(rng, dt, -40, 40), 2);
            MemorySegment ys = store(arena, dt, values(rng, dt, -0.5, 1.5), 0);
            MemorySegment gathered = arena.allocate(2L * N);
            MemorySegment looked = arena.allocate(2L * N);
            float w = UNIFORM_W[(int) seed - 1];
            float pw = UNIFORM_PW[(int) seed - 1];
            double gatheredSum = lookup(true).bceWithLogitsUniform(dt, xs, 2, ys, 0, w, pw, gathered, 0, n);
            double lookedSum = lookup(false).bceWithLogitsUniform(dt, xs, 2, ys, 0, w, pw, looked, 0, n);
            assertEquals(-1L, gathered.mismatch(looked), "losses, n " + n);
            // a NaN sum's sign is the order its NaN terms met in, which compiled and interpreted code
            // may differ in (the warm-up thread compiles these loops at any time): NaN is NaN
            assertEquals(Double.doubleToLongBits(lookedSum), Double.doubleToLongBits(gatheredSum), "sum, n " + n);
            double sumOnly = lookup(true).bceWithLogitsUniform(dt, xs, 2, ys, 0, w, pw, null, 0, n);
            assertEquals(Double.doubleToLongBits(lookedSum), Double.doubleToLongBits(sumOnly),
                    "sum only, n " + n);

            int every = 1 << 16; // every bit pattern of x, NaN payloads included, against y's values
            MemorySegment allX = arena.allocate(2L * every);
            MemorySegment allY = arena.allocate(2L * every);
            for (int i = 0; i < every; i++) {
                allX.setAtIndex(ValueLayout.JAVA_SHORT, i, (short) i);
                allY.setAtIndex(ValueLayout.JAVA_SHORT, i, ys.get(I16, 2L * (i % n)));
            }
            MemorySegment gatheredAll = arena.allocate(2L * every);
            MemorySegment lookedAll = arena.allocate(2L * every);
            lookup(true).bceWithLogitsUniform(dt, allX, 0, allY, 0, w, pw, gatheredAll, 0, every);
            lookup(false).bceWithLogitsUniform(dt, allX, 0, allY, 0, w, pw, lookedAll, 0, every);
            long at = gatheredAll.mismatch(lookedAll);
            assertEquals(-1L, at, "losses of every x, first differing at x bits " + Long.toHexString(at / 2));
        }
    }

    static Stream<Arguments> everyHalfValue() {
        return Stream.of(DType.BF16, DType.FLOAT16).flatMap(dt -> Stream.of(1f, 2.5f)
                .flatMap(pw -> Stream.of(true, false).map(gather -> Arguments.of(dt, pw, gather))));
    }

    private static float rounded(DType dt, float v) {
        return switch (dt) {
            case BF16 -> HalfFloats.fromBf16(HalfFloats.toBf16(v));
            case FLOAT16 -> HalfFloats.fromHalf(HalfFloats.toHalf(v));
            default -> v;
        };
    }

    /** The direct loop of {@code math} for {@code dt}, weight and posWeight 1. */
    private static double unweightedLosses(DirectMath math, Arena arena, DType dt, MemorySegment xs, long xAt,
            MemorySegment ys, long yAt, MemorySegment out, long outAt, int n) {
        if (dt != DType.FLOAT) {
            return math.bceWithLogitsUniform(dt, xs, xAt, ys, yAt, 1f, 1f, out, outAt, n);
        }
        MemorySegment ones = store(arena, DType.FLOAT, filled(1f), 8);
        return math.bceWithLogits(dt, xs, xAt, ys, yAt, ones, 8, ones, 8, out, outAt, n);
    }

    /**
     * BCE with logits over lengths that end inside a run of the loops (they work in runs of 128
     * FLOAT or 2048 16-bit elements): every loss and the sum, with and without an output, against
     * the rows.
     */
    @ParameterizedTest(name = "{0} seed {1} gather {2}")
    @MethodSource("bceWithLogitsCases")
    void bceWithLogitsRunsEndAnywhere(DType dt, long seed, boolean gather) {
        SplittableRandom rng = new SplittableRandom(seed);
        int n = math.step() * (1 + rng.nextInt(N / math.step() - 1));
        float[] x = finite(values(rng, dt, -20, 20));
        float[] y = finite(values(rng, dt, 0, 1));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = store(arena, dt, x, 4);
            MemorySegment ys = store(arena, dt, y, 0);
            MemorySegment out = arena.allocate(4L * N + 64);
            DirectMath direct = lookup(gather);
            double sum = unweightedLosses(direct, arena, dt, xs, 4, ys, 0, out, 6, n);
            double sumOnly = unweightedLosses(direct, arena, dt, xs, 4, ys, 0, null, 0, n);
            float[] rows = java.util.Arrays.copyOf(x, n);
            double rowSum = BulkMath.fastest().bceWithLogits(rows, java.util.Arrays.copyOf(y, n), filled(1f),
                    filled(1f), n);
            double magnitude = 0;
            for (int i = 0; i < n; i++) {
                assertEquals(Integer.toHexString(rowBits(dt, rows[i])), Integer.toHexString(bitsAt(dt, out, 6, i)),
                        "BCE with logits " + dt + " n " + n + " element " + i);
                magnitude += Math.abs(rows[i]);
            }
            assertEquals(sum, sumOnly, "BCE with logits Σ loss without out, n " + n);
            assertSum(rowSum, sum, magnitude, "BCE with logits Σ loss, n " + n);
        }
    }

    /**
     * The sums again on finite values only: the tests above mix NaN and infinities in, which make
     * every sum NaN or infinite and so say nothing about how the loops add.
     */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void sumsOfFiniteValuesMatchRows(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double relative = dt == DType.FLOAT ? 1e-12 : 0x1p-16; // 16-bit: fp32 chunks, up to 256 terms a lane
        float[] x = finite(values(rng, dt, -2, 2));
        float[] g = finite(values(rng, dt, -3, 3));
        try (Arena arena = Arena.ofConfined()) {
            double sum = math.prelu(dt, store(arena, dt, x, 2), 2, store(arena, dt, g, 6), 6, 0.25f,
                    arena.allocate(4L * N + 64), 10, N);
            double magnitude = 0;
            for (int i = 0; i < N; i++) {
                magnitude += Math.abs((double) Math.min(x[i], 0f) * g[i]);
            }
            assertWithin(BulkMath.fastest().preluRow(x.clone(), g, 0, N, 0.25f), sum, relative * magnitude,
                    "prelu Σ min(x, 0)·g");

            float[] y = finite(values(rng, dt, 0, 1));
            double loss = unweightedLosses(math, arena, dt, store(arena, dt, g, 4), 4, store(arena, dt, y, 0), 0,
                    arena.allocate(4L * N + 64), 6, N);
            double lossOnly = unweightedLosses(math, arena, dt, store(arena, dt, g, 4), 4, store(arena, dt, y, 0), 0,
                    null, 0, N); // a reduction's call: the same sum, to the bit, without the losses
            assertEquals(loss, lossOnly, "BCE with logits Σ loss without out " + dt);
            float[] rows = g.clone();
            double rowLoss = BulkMath.fastest().bceWithLogits(rows, y, filled(1f), filled(1f), N);
            double lossMagnitude = 0;
            for (float l : rows) {
                lossMagnitude += Math.abs(l);
            }
            assertSum(rowLoss, loss, lossMagnitude, "BCE with logits Σ loss");

            MemorySegment sums = arena.allocate(16L * ROWS + 8);
            math.groupSums(dt, store(arena, dt, x, 2), 2, store(arena, dt, g, 4), 4, ROWS, ROW_LENGTH, ROW_PART, sums,
                    8);
            assertGroupSums(x, g, sums, relative);
        }
    }

    /** GroupNorm's row sums at byte 8 of {@code sums} against the row loop's, to {@code relative}. */
    private static void assertGroupSums(float[] a, float[] b, MemorySegment sums, double relative) {
        for (int r = 0; r < ROWS; r++) {
            int from = r * ROW_LENGTH;
            double[] rowSums = new double[2];
            BulkMath.fastest().sumAndDot(a, b, from, from + ROW_PART, rowSums);
            double sumMagnitude = 0;
            double dotMagnitude = 0;
            for (int i = from; i < from + ROW_PART; i++) {
                sumMagnitude += Math.abs(a[i]);
                dotMagnitude += Math.abs((double) a[i] * b[i]);
            }
            assertWithin(rowSums[0], sums.get(F64, 8 + 16L * r), relative * sumMagnitude, "Σ dy, row " + r);
            assertWithin(rowSums[1], sums.get(F64, 16 + 16L * r), relative * dotMagnitude, "Σ dy·x, row " + r);
        }
    }

    /** {@code v} with every NaN and infinity replaced by 1. */
    private static float[] finite(float[] v) {
        for (int i = 0; i < v.length; i++) {
            if (!Float.isFinite(v[i])) {
                v[i] = 1f;
            }
        }
        return v;
    }

    private static float[] filled(float v) {
        float[] a = new float[N];
        java.util.Arrays.fill(a, v);
        return a;
    }

    /** GroupNorm's loops take several rows per call: 4 rows 2000 elements apart, 1984 of each. */
    private static final int ROWS = 4;
    private static final int ROW_LENGTH = 2000;
    private static final int ROW_PART = 1984;

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void groupNormLoopsMatchRows(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] a = values(rng, dt, -2, 2);
        float[] b = values(rng, dt, -2, 2);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment as = store(arena, dt, a, 2);
            MemorySegment bs = store(arena, dt, b, 4);
            MemorySegment sums = arena.allocate(16L * ROWS + 8);
            math.groupSums(dt, as, 2, bs, 4, ROWS, ROW_LENGTH, ROW_PART, sums, 8);
            // FLOAT sums in double; the 16-bit types in fp32 chunks of 2048 terms, 64 per lane
            assertGroupSums(a, b, sums, dt == DType.FLOAT ? 1e-12 : 0x1p-17);

            MemorySegment out = arena.allocate(4L * N + 64);
            float[] rows;
            if (dt == DType.FLOAT) {
                math.affine(dt, as, 2, bs, 4, 0.3, -1.7, 0.01, out, 6, N);
                rows = a.clone();
                BulkMath.fastest().affine(rows, b, 0, N, 0.3, -1.7, 0.01);
                assertElementwise(dt, rows, out, 6, "affine");
                // rows of 49 with a γ each, through one loop over a per-element copy of γ
                int row = 49;
                MemorySegment gammas = arena.allocate(8L * N + 16);
                float[] unscaled = rows;
                rows = a.clone();
                for (int r = 0; r * row < N; r++) {
                    double gamma = (float) rng.nextDouble(-2, 2);
                    int end = Math.min(N, (r + 1) * row);
                    for (int i = r * row; i < end; i++) {
                        gammas.set(F64, 8 + 8L * i, gamma);
                    }
                    BulkMath.fastest().affine(rows, b, r * row, end, 0.3 * gamma, -1.7, 0.01);
                }
                System.arraycopy(unscaled, N - 3, rows, N - 3, 3); // left as they were: a count with a tail
                math.affineScaled(dt, as, 2, bs, 4, gammas, 8, 0.3, -1.7, 0.01, out, 6, N - 3);
                assertElementwise(dt, rows, out, 6, "affine with γ per element");

                // GroupNorm forward's store of rows of 49 with a γ and β each (β read N doubles further)
                MemorySegment betas = arena.allocate(16L * N + 16);
                float[] stored = new float[N];
                for (int r = 0; r * row < N; r++) {
                    double gamma = gammas.get(F64, 8 + 8L * r * row);
                    double beta = (float) rng.nextDouble(-2, 2);
                    double k = 1.3 * gamma;
                    int end = Math.min(N, (r + 1) * row);
                    for (int i = r * row; i < end; i++) {
                        betas.set(F64, 8 + 8L * N + 8L * i, beta);
                        betas.set(F64, 8 + 8L * i, gamma);
                        stored[i] = (float) Math.fma(a[i], k, beta - 0.7 * k); // scaleShift over the row
                    }
                }
                math.affineStoreScaled(dt, a, 0, N, betas, 8, 8 + 8L * N, 1.3, 0.7, out, 6);
                assertElementwise(dt, stored, out, 6, "stored with γ and β per element");
            } else {
                // 1.5·x alone: with an odd 16-bit significand, a rounding tie
                float[] cdy = {0f, 0f, 0f, 0f};
                math.groupNormUpdate(dt, as, 2, bs, 4, ROWS, ROW_LENGTH, ROW_PART, cdy, 1.5f, 0f, 0f, out, 6);
                assertUpdatedRows(dt, a, b, cdy, 1.5f, 0f, 0f, out, "GroupNorm fp32 update 1.5·x");
                float[] cdy2 = {0.3f, -0.7f, 1e-3f, 40f};
                math.groupNormUpdate(dt, as, 2, bs, 4, ROWS, ROW_LENGTH, ROW_PART, cdy2, -1.7f, 0.125f, 0.01f, out, 6);
                assertUpdatedRows(dt, a, b, cdy2, -1.7f, 0.125f, 0.01f, out, "GroupNorm fp32 update");
                rows = a.clone();
                BulkMath.fastest().groupNormUpdate(rows, b, 0, N, 0.3f, -1.7f, 0.125f, 0.01f);
                for (int i = 0; i < N; i++) { // the formula itself, in plain Java
                    float want = Math.fma(-1.7f, b[i] - 0.125f, Math.fma(0.3f, a[i], 0.01f));
                    assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(rows[i]), "row update " + i);
                }
            }
        }
    }

    static Stream<Arguments> channelCases() {
        // channel counts: whole vectors, a remainder, fewer than one vector, one; and positions to match
        return Stream.of(1L, 2L, 3L).flatMap(seed -> IntStream.of(256, 37, 3, 1, 64)
                .mapToObj(channels -> Arguments.of(channels, seed)));
    }

    /**
     * The channels-last loops give the bits of BulkMath's channel-row loops over a copy: the sums of
     * each channel in position order (compared exactly), the updates element for element.
     */
    @ParameterizedTest(name = "{0} channels, seed {1}")
    @MethodSource("channelCases")
    void channelLoopsMatchRows(int channels, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] a = values(rng, DType.FLOAT, -2, 2);
        float[] b = values(rng, DType.FLOAT, -2, 2);
        int positions = N / channels;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment as = store(arena, DType.FLOAT, a, 4);
            MemorySegment bs = store(arena, DType.FLOAT, b, 8);
            BulkMath rows = BulkMath.fastest();
            double[] shift = new double[channels];
            double[] k = new double[channels];
            double[] bias = new double[channels];
            for (int c = 0; c < channels; c++) {
                shift[c] = rng.nextDouble(-1, 1);
                k[c] = rng.nextDouble(-3, 3);
                bias[c] = rng.nextDouble(-1, 1);
            }
            double[] sum = new double[channels];
            double[] dot = new double[channels];
            double[] wantSum = new double[channels];
            double[] wantDot = new double[channels];
            math.channelSumsAndDots(DType.FLOAT, as, 4, bs, 8, positions, channels, sum, dot);
            rows.addChannelRows(a, b, positions, channels, wantSum, wantDot);
            assertArrayEquals(wantSum, sum, "Σa per channel");
            assertArrayEquals(wantDot, dot, "Σa·b per channel");
            double[] sumOnly = new double[channels];
            math.channelSums(DType.FLOAT, as, 4, positions, channels, sumOnly);
            assertArrayEquals(wantSum, sumOnly, "Σa per channel, without dots");
            float[] w = values(rng, DType.FLOAT, -1, 1);
            double[] preluSums = new double[channels];
            double[] wantPreluSums = new double[channels];
            float[] grads = new float[N + 3];
            math.preluChannelRows(DType.FLOAT, as, 4, bs, 8, positions, channels, w, preluSums, grads, 3);
            float[] wantGrads = a.clone();
            rows.preluChannelRows(wantGrads, b, 0, positions * channels, w, channels, wantPreluSums);
            assertArrayEquals(wantPreluSums, preluSums, "Σ min(a, 0)·b per channel");
            assertArrayEquals(java.util.Arrays.copyOf(wantGrads, positions * channels),
                    java.util.Arrays.copyOfRange(grads, 3, 3 + positions * channels), "PReLU gradient");
            // BFLOAT16: the values as a gathered row widens them, the same operations on them
            float[] ha = values(rng, DType.BF16, -2, 2);
            float[] hb = values(rng, DType.BF16, -2, 2);
            double[] halfSums = new double[channels];
            double[] wantHalfSums = new double[channels];
            math.preluChannelRows(DType.BF16, store(arena, DType.BF16, ha, 2), 2, store(arena, DType.BF16, hb, 6), 6,
                    positions, channels, w, halfSums, grads, 3);
            float[] wantHalfGrads = ha.clone();
            rows.preluChannelRows(wantHalfGrads, hb, 0, positions * channels, w, channels, wantHalfSums);
            assertArrayEquals(wantHalfSums, halfSums, "Σ min(a, 0)·b per channel, BFLOAT16");
            assertArrayEquals(java.util.Arrays.copyOf(wantHalfGrads, positions * channels),
                    java.util.Arrays.copyOfRange(grads, 3, 3 + positions * channels), "PReLU gradient, BFLOAT16");
            double[] squares = new double[channels];
            double[] wantSquares = new double[channels];
            math.channelSquaredDeviations(DType.FLOAT, as, 4, positions, channels, shift, squares);
            rows.addChannelSquaredDeviations(a, positions, channels, shift, wantSquares);
            assertArrayEquals(wantSquares, squares, "Σ(a − shift)² per channel");

            int used = positions * channels;
            MemorySegment out = arena.allocate(4L * N + 64);
            math.channelAffine(DType.FLOAT, as, 4, positions, channels, k, bias, out, 12);
            float[] expected = a.clone();
            rows.affineChannelRows(expected, positions, channels, k, bias);
            java.util.Arrays.fill(expected, used, N, 0f); // past the positions: untouched
            assertElementwise(DType.FLOAT, expected, out, 12, "channel affine");
            double[] cb = shift;
            math.channelAffinePairs(DType.FLOAT, as, 4, bs, 8, positions, channels, k, cb, bias, out, 12);
            expected = a.clone();
            rows.affineChannelPairs(expected, b, positions, channels, k, cb, bias);
            java.util.Arrays.fill(expected, used, N, 0f);
            assertElementwise(DType.FLOAT, expected, out, 12, "channel affine pairs");
        }
    }

    /** Row r's first ROW_PART elements as the row loop computes them with {@code cdy[r]}; the rest untouched (0). */
    private static void assertUpdatedRows(DType dt, float[] a, float[] b, float[] cdy, float cx, float mean, float k,
            MemorySegment out, String what) {
        float[] expected = new float[N];
        for (int r = 0; r < ROWS; r++) {
            int from = r * ROW_LENGTH;
            float[] row = a.clone();
            BulkMath.fastest().groupNormUpdate(row, b, from, from + ROW_PART, cdy[r], cx, mean, k);
            System.arraycopy(row, from, expected, from, ROW_PART);
        }
        assertElementwise(dt, expected, out, 6, what);
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void groupSumsStayWithinTheirBoundOverLongRows(DType dt, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] a = values(rng, dt, 0.5, 1); // all positive: no cancellation hides the error of a naive fp32 sum
        for (int i = 0; i < N; i++) {
            if (!Float.isFinite(a[i])) {
                a[i] = 0.75f;
            }
        }
        float[] ones = filled(1f);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sums = arena.allocate(16);
            math.groupSums(dt, store(arena, dt, a, 0), 0, store(arena, dt, ones, 0), 0, 1, N, N, sums, 0);
            double exact = 0;
            for (float v : a) {
                exact += v;
            }
            double relative = dt == DType.FLOAT ? 1e-12 : 0x1p-17;
            assertWithin(exact, sums.get(F64, 0), relative * exact, "Σ dy over " + N);
            assertWithin(exact, sums.get(F64, 8), relative * exact, "Σ dy·1 over " + N);
        }
    }

    /**
     * The FLOAT16 conversions of the direct loops, exhaustively: every 16-bit pattern through
     * PReLU with x > 0 (gradInput = g: decode then encode must give the pattern back, NaNs as
     * NaNs), and with x < 0 (gradInput = w·g) for weights that land on rounding ties, subnormals,
     * overflow and ordinary values, against the JDK's {@code Float.floatToFloat16}.
     */
    @org.junit.jupiter.api.Test
    void float16ConversionsAreExact() {
        int n = 1 << 16;
        float[] weights = {1f, -1f, 1.5f, 0.5f, 1f / 3, 0.999f, 1.0009765625f, 0x1p-10f, 0x1p-14f, 0x1p-24f, 3e-8f,
            1e-5f, 65504f, 2f, 30000f, -7.25f, 0.0625f, 1.25e-3f, 123.456f, 0.7071f};
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment g = arena.allocate(2L * n + 16);
            MemorySegment positive = arena.allocate(2L * n + 16);
            MemorySegment negative = arena.allocate(2L * n + 16);
            MemorySegment out = arena.allocate(2L * n + 16);
            for (int i = 0; i < n; i++) {
                g.setAtIndex(ValueLayout.JAVA_SHORT, i, (short) i);
                positive.setAtIndex(ValueLayout.JAVA_SHORT, i, HalfFloats.toHalf(1f));
                negative.setAtIndex(ValueLayout.JAVA_SHORT, i, HalfFloats.toHalf(-1f));
            }
            math.prelu(DType.FLOAT16, positive, 0, g, 0, 0.5f, out, 0, n);
            for (int i = 0; i < n; i++) {
                short got = out.getAtIndex(ValueLayout.JAVA_SHORT, i);
                if (Float.isNaN(HalfFloats.fromHalf((short) i))) {
                    assertEquals(true, Float.isNaN(HalfFloats.fromHalf(got)), "NaN pattern " + i);
                } else {
                    assertEquals(i, got & 0xFFFF, "round trip of pattern " + Integer.toHexString(i));
                }
            }
            for (float w : weights) {
                math.prelu(DType.FLOAT16, negative, 0, g, 0, w, out, 0, n);
                for (int i = 0; i < n; i++) {
                    float product = w * HalfFloats.fromHalf((short) i);
                    short got = out.getAtIndex(ValueLayout.JAVA_SHORT, i);
                    if (Float.isNaN(product)) {
                        assertEquals(true, Float.isNaN(HalfFloats.fromHalf(got)), "NaN from " + i);
                    } else {
                        assertEquals(Float.floatToFloat16(product), got,
                                "w " + w + " times pattern " + Integer.toHexString(i) + " = " + product);
                    }
                }
            }
        }
    }
}
