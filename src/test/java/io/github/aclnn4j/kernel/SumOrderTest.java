package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import io.github.aclnn4j.testing.ChildJvm;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Double sums of floats (and the chunked sums of BCE's and BCE with logits' losses) add in {@link SumOrder}'s fixed lanes
 * whatever computes them: the Vector
 * API's rows and direct loops at this processor's width, the same at AVX2's width (a JVM with
 * {@code -XX:MaxVectorSize=32}), and plain Java (a JVM with 128-bit vectors, which uses it, and
 * {@link ScalarBulkMath} here) give the same bits, for lengths that leave every remainder.
 */
class SumOrderTest {
    private static final int[] LENGTHS = {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000, 4099};
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    @Test
    void theSameBitsAtEveryWidthAndInPlainJava() throws Exception {
        List<String> here = results(BulkMath.fastest(), DirectMath.INSTANCE);
        List<String> rows = here.subList(0, here.size() - directLines());
        assertEquals(rows, results(new ScalarBulkMath(), null), "plain Java here");
        for (String width : new String[] {"-XX:MaxVectorSize=32", "-XX:MaxVectorSize=16"}) {
            List<String> there = ChildJvm.runWith(List.of(width), SumOrderTest.class).lines()
                    .filter(l -> l.startsWith("sum ")).toList();
            List<String> expected = there.size() == here.size() ? here : rows;
            assertEquals(expected, there, "a JVM with " + width);
        }
    }

    /** Lines of the direct loops' sums (absent where the Vector API is not used). */
    private static int directLines() {
        return DirectMath.INSTANCE == null ? 0 : 6 * LENGTHS.length;
    }

    /** Every sum's bits, one line each: the rows' first, then the direct loops' when {@code direct} is there. */
    static List<String> results(BulkMath math, DirectMath direct) {
        List<String> lines = new ArrayList<>();
        List<String> directLines = new ArrayList<>();
        for (int n : LENGTHS) {
            SplittableRandom r = new SplittableRandom(n);
            float[] a = values(r, n + 3);
            float[] b = values(r, n + 3);
            double[] pair = new double[2];
            math.sumAndDot(a, b, 3, n + 3, pair);
            String sumAndDot = line("sumAndDot", n, pair[0], pair[1]);
            lines.add(sumAndDot);
            lines.add(line("squaredDeviations", n, math.squaredDeviations(a, 3, n + 3, 0.125)));
            double groupSum = math.groupSum(a, 3, n + 3);
            lines.add(line("groupSum", n, groupSum));
            float[] x = a.clone();
            double prelu = math.preluRow(x, b, 3, n + 3, 0.25f);
            lines.add(line("preluRow", n, prelu, java.util.Arrays.hashCode(x)));
            float[] p = probabilities(r, n);
            float[] losses = p.clone();
            float[] weights = values(r, n); // magnitudes from 2^-20 to 2^20, so that the order of a sum shows
            double bce = math.binaryCrossEntropy(losses, probabilities(r, n), weights, n);
            lines.add(line("binaryCrossEntropy", n, bce, java.util.Arrays.hashCode(losses)));
            Logits logits = new Logits(values(r, n), probabilities(r, n), values(r, n), probabilities(r, n),
                    moderate(r, n));
            float[] logitLosses = logits.x.clone();
            double bceLogits = math.bceWithLogits(logitLosses, logits.y, logits.w, logits.pw, n);
            lines.add(line("bceWithLogits", n, bceLogits, java.util.Arrays.hashCode(logitLosses)));
            if (direct == null) {
                continue;
            }
            directLines.addAll(logits.direct(math, direct, n));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment as = arena.allocate(4L * a.length + 4);
                MemorySegment bs = arena.allocate(4L * b.length + 4);
                MemorySegment.copy(a, 0, as, F32, 4, a.length);
                MemorySegment.copy(b, 0, bs, F32, 4, b.length);
                MemorySegment sums = arena.allocate(16);
                if (n >= 1) {
                    direct.groupSums(DType.FLOAT, as, 16, bs, 16, 1, n, n, sums, 0);
                }
                // the direct loops add as the rows do
                directLines.add(line("groupSums", n, sums.get(F64, 0), sums.get(F64, 8)));
                assertEquals(sumAndDot.replace("sumAndDot", "groupSums"),
                        directLines.getLast(), "groupSums against sumAndDot");
                directLines.add(line("readAndSum", n, direct.readAndSum(DType.FLOAT, as, 16, new float[n], n)));
                assertEquals(line("readAndSum", n, groupSum), directLines.getLast(), "readAndSum against groupSum");
                int whole = n - n % direct.step();
                double preluDirect = direct.prelu(DType.FLOAT, as, 16, bs, 16, 0.25f, arena.allocate(4L * n + 4), 0,
                        whole);
                directLines.add(line("prelu", n, preluDirect));
                assertEquals(line("prelu", n, math.preluRow(a.clone(), b, 3, whole + 3, 0.25f)), directLines.getLast(),
                        "prelu against preluRow");
            }
        }
        for (int inner : new int[] {100, 1000, 5000}) {
            lines.add(preluBackward(inner));
        }
        lines.add(bceWithLogitsMean());
        lines.addAll(directLines);
        return lines;
    }

    /**
     * PReLU backward over dense FLOAT [2, 3, inner] with a weight per channel: gradWeight's bits.
     * Each row holds a product of −2^40 at its start and +2^40 at its end, which cancel, so the
     * float result shows how the row's sum was grouped (whole steps and the rest, here and in plain
     * Java alike).
     */
    private static String preluBackward(int inner) {
        int n = 6 * inner;
        SplittableRandom r = new SplittableRandom(inner);
        float[] x = new float[n];
        float[] g = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) r.nextDouble(-1, 1);
            g[i] = (float) r.nextDouble(-1, 1);
        }
        for (int row = 0; row < 6; row++) {
            x[row * inner] = -0x1p20f;
            g[row * inner] = 0x1p20f;
            x[row * inner + inner - 1] = -0x1p20f;
            g[row * inner + inner - 1] = -0x1p20f;
        }
        try (Arena arena = Arena.ofShared()) { // the kernel's tasks may run on the library's threads
            long[] shape = {2, 3, inner};
            long[] strides = {3L * inner, inner, 1};
            StridedView self = view(arena, x, shape, strides);
            StridedView grad = view(arena, g, shape, strides);
            StridedView weight = view(arena, new float[] {0.25f, -0.5f, 2f}, shape, new long[] {0, 1, 0});
            StridedView gradInput = view(arena, new float[n], shape, strides);
            StridedView gradWeight = view(arena, new float[3], new long[] {3}, new long[] {1});
            PreluBackwardKernel.Layout layout = PreluBackwardKernel.Layout.of(2, 3, inner, 3);
            new PreluBackwardKernel(grad, self, weight, gradInput, gradWeight, layout)
                    .run(arena.allocate(layout.workspaceBytes() + 8));
            return line("preluBackward", inner, gradWeight.get(0), gradWeight.get(1), gradWeight.get(2));
        }
    }

    /**
     * BCE with logits' mean over dense FLOAT [4096 + 52], x and y 0 (every loss log 2 times its
     * weight, exact for weights that are powers of two): the result's bits. The second block's 52
     * elements leave 20 after the direct loops' whole steps, which the block sums as a range of its
     * own; the weights make each fp32 lane there add 2^24·log 2, log 2 (in the direct part) and log 2
     * (after it), and the first block cancels the 2^24 terms, so the result shows whether the last
     * log 2 went into the lane in fp32 or after it in double: plain Java must cut where the loops do.
     */
    private static String bceWithLogitsMean() {
        int n = 4096 + 52;
        float[] w = new float[n];
        for (int j = 0; j < 16; j++) {
            w[j] = -0x1p24f;
            w[4096 + j] = 0x1p24f;
            w[4096 + 16 + j] = 1;
            w[4096 + 32 + j] = 1;
        }
        long[] shape = {n};
        long[] strides = {1};
        try (Arena arena = Arena.ofShared()) {
            StridedView self = view(arena, new float[n], shape, strides);
            StridedView target = view(arena, new float[n], shape, strides);
            StridedView weight = view(arena, w, shape, strides);
            StridedView out = view(arena, new float[1], new long[0], new long[0]);
            new BceWithLogitsKernel(self, target, weight, null, DType.FLOAT, 1, out)
                    .run(arena.allocate(BceWithLogitsKernel.workspaceBytes(n)));
            return line("bceWithLogitsMean", n, out.get(0));
        }
    }

    private static StridedView view(Arena arena, float[] values, long[] shape, long[] strides) {
        MemorySegment m = arena.allocate(4L * values.length, 64);
        MemorySegment.copy(values, 0, m, F32, 0, values.length);
        return new StridedView(m, 0, DType.FLOAT, shape, strides);
    }

    /**
     * BCE-with-logits operands: FLOAT logits, targets, weights and posWeights, and moderate logits
     * for the 16-bit types (whose range the others would overflow).
     */
    private record Logits(float[] x, float[] y, float[] w, float[] pw, float[] x16) {
        /**
         * The direct loops' sums over the whole steps of {@code n} (FLOAT with weights, BFLOAT16 and
         * FLOAT16 with single ones), each checked against the rows over the same losses.
         */
        List<String> direct(BulkMath math, DirectMath direct, int n) {
            int whole = n - n % direct.step();
            List<String> lines = new ArrayList<>();
            try (Arena arena = Arena.ofConfined()) {
                double sum = whole == 0 ? 0 : direct.bceWithLogits(DType.FLOAT, segment(arena, x), 0,
                        segment(arena, y), 0, segment(arena, w), 0, segment(arena, pw), 0, null, 0, whole);
                lines.add(line("bceWithLogits direct FLOAT", n, sum));
                double rows = math.bceWithLogits(java.util.Arrays.copyOf(x, whole), y, w, pw, whole);
                assertEquals(line("bceWithLogits direct FLOAT", n, rows), lines.getLast(), "FLOAT against the rows");
                for (DType dtype : new DType[] {DType.BF16, DType.FLOAT16}) {
                    short[] xb = bits(dtype, x16);
                    short[] yb = bits(dtype, y);
                    float weight = 0.75f;
                    float posWeight = 1.5f; // both exact in either type
                    sum = whole == 0 ? 0 : direct.bceWithLogitsUniform(dtype, segment(arena, xb), 0, segment(arena, yb),
                            0, weight, posWeight, null, 0, whole);
                    String what = "bceWithLogits direct " + dtype;
                    lines.add(line(what, n, sum));
                    float[] ws = new float[whole];
                    float[] pws = new float[whole];
                    java.util.Arrays.fill(ws, weight);
                    java.util.Arrays.fill(pws, posWeight);
                    rows = math.bceWithLogits(widen(dtype, xb, whole), widen(dtype, yb, whole), ws, pws, whole);
                    assertEquals(line(what, n, rows), lines.getLast(), dtype + " against the rows");
                }
            }
            return lines;
        }

        private static MemorySegment segment(Arena arena, float[] v) {
            MemorySegment m = arena.allocate(4L * v.length + 4, 64);
            MemorySegment.copy(v, 0, m, F32, 0, v.length);
            return m;
        }

        private static MemorySegment segment(Arena arena, short[] v) {
            MemorySegment m = arena.allocate(2L * v.length + 2, 64);
            MemorySegment.copy(v, 0, m, ValueLayout.JAVA_SHORT_UNALIGNED, 0, v.length);
            return m;
        }

        private static short[] bits(DType dtype, float[] v) {
            short[] b = new short[v.length];
            for (int i = 0; i < v.length; i++) {
                b[i] = dtype == DType.BF16 ? HalfFloats.toBf16(v[i]) : HalfFloats.toHalf(v[i]);
            }
            return b;
        }

        private static float[] widen(DType dtype, short[] b, int n) {
            float[] v = new float[n];
            for (int i = 0; i < n; i++) {
                v[i] = dtype == DType.BF16 ? HalfFloats.fromBf16(b[i]) : HalfFloats.fromHalf(b[i]);
            }
            return v;
        }
    }

    private static float[] moderate(SplittableRandom r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) r.nextDouble(-8, 8);
        }
        return v;
    }

    private static String line(String what, int n, double... values) {
        StringBuilder s = new StringBuilder("sum " + what + " n=" + n);
        for (double v : values) {
            s.append(' ').append(Long.toHexString(Double.doubleToRawLongBits(v)));
        }
        return s.toString();
    }

    private static float[] values(SplittableRandom r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (r.nextGaussian() * Math.scalb(1.0, r.nextInt(-20, 20)));
        }
        return v;
    }

    private static float[] probabilities(SplittableRandom r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) r.nextDouble(0.001, 0.999);
        }
        return v;
    }

    /** The child's side: the same sums at its width, on stdout. */
    public static void main(String[] args) {
        results(BulkMath.fastest(), DirectMath.INSTANCE).forEach(System.out::println);
    }
}
