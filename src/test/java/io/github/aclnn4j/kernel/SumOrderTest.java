package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.testing.ChildJvm;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Double sums of floats (and BCE's chunked sum of its losses) add in {@link SumOrder}'s fixed lanes
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
        List<String> here = results(BulkMath.INSTANCE, DirectMath.INSTANCE);
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
        return DirectMath.INSTANCE == null ? 0 : 3 * LENGTHS.length;
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
            float[] x = a.clone();
            double prelu = math.preluRow(x, b, 3, n + 3, 0.25f);
            lines.add(line("preluRow", n, prelu, java.util.Arrays.hashCode(x)));
            float[] p = probabilities(r, n);
            float[] losses = p.clone();
            float[] weights = values(r, n); // magnitudes from 2^-20 to 2^20, so that the order of a sum shows
            double bce = math.binaryCrossEntropy(losses, probabilities(r, n), weights, n);
            lines.add(line("binaryCrossEntropy", n, bce, java.util.Arrays.hashCode(losses)));
            if (direct == null) {
                continue;
            }
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
                assertEquals(line("readAndSum", n, pair[0]), directLines.getLast(), "readAndSum against sumAndDot");
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

    private static StridedView view(Arena arena, float[] values, long[] shape, long[] strides) {
        MemorySegment m = arena.allocate(4L * values.length, 64);
        MemorySegment.copy(values, 0, m, F32, 0, values.length);
        return new StridedView(m, 0, DType.FLOAT, shape, strides);
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
        results(BulkMath.INSTANCE, DirectMath.INSTANCE).forEach(System.out::println);
    }
}
