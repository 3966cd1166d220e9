package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import io.github.aclnn4j.testing.ChildJvm;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A {@link SoftplusTable} is built by the row loop on the calling thread, at the first direct
 * 16-bit BCE-with-logits call of a JVM: that call must still return the right sum and losses.
 * Each case runs in a fresh JVM, where the table does not exist yet.
 */
class SoftplusTableFirstUseTest {
    private static final int N = 4096;

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"BF16", "FLOAT16"})
    void theCallThatBuildsTheTableIsRight(DType dtype) throws Exception {
        assumeTrue(DirectMath.INSTANCE != null, "the Vector API is not present: no direct loops");
        String output = ChildJvm.run(SoftplusTableFirstUseTest.class, dtype.name());
        assertEquals(true, output.contains("first call: right\n"), output);
    }

    /** The probe: the JVM's first direct call of {@code args[0]}, a reduction, then one with losses. */
    public static void main(String[] args) {
        DType dtype = DType.valueOf(args[0]);
        SplittableRandom rng = new SplittableRandom(11);
        float[] x = new float[N];
        float[] y = new float[N];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment xs = arena.allocate(2L * N);
            MemorySegment ys = arena.allocate(2L * N);
            for (int i = 0; i < N; i++) {
                short xb = half(dtype, (float) rng.nextDouble(-8, 8));
                short yb = half(dtype, (float) rng.nextDouble());
                xs.setAtIndex(ValueLayout.JAVA_SHORT, i, xb);
                ys.setAtIndex(ValueLayout.JAVA_SHORT, i, yb);
                x[i] = widen(dtype, xb);
                y[i] = widen(dtype, yb);
            }
            double sum = DirectMath.INSTANCE.bceWithLogitsUniform(dtype, xs, 0, ys, 0, 1f, 1f, null, 0, N);
            MemorySegment out = arena.allocate(2L * N);
            double sumWithLosses = DirectMath.INSTANCE.bceWithLogitsUniform(dtype, xs, 0, ys, 0, 1f, 1f, out, 0, N);
            float[] ones = new float[N];
            java.util.Arrays.fill(ones, 1f);
            float[] rows = x.clone();
            double rowSum = BulkMath.fastest().bceWithLogits(rows, y, ones, ones, N);
            String wrong = Math.abs(sum - rowSum) > 1e-9 * Math.abs(rowSum) ? "sum " + sum + " against " + rowSum
                    : sum != sumWithLosses ? "sum " + sum + " then " + sumWithLosses : null;
            for (int i = 0; i < N && wrong == null; i++) {
                if (out.getAtIndex(ValueLayout.JAVA_SHORT, i) != half(dtype, rows[i])) {
                    wrong = "loss " + i;
                }
            }
            System.out.println(wrong == null ? "first call: right" : "first call: wrong " + wrong);
        }
    }

    private static short half(DType dtype, float v) {
        return dtype == DType.BF16 ? HalfFloats.toBf16(v) : HalfFloats.toHalf(v);
    }

    private static float widen(DType dtype, short bits) {
        return dtype == DType.BF16 ? HalfFloats.fromBf16(bits) : HalfFloats.fromHalf(bits);
    }
}
