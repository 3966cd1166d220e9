package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Operands that repeat one row over the others (a weight, posWeight or gradOutput per column,
 * broadcast over the rows) give the bits the same values laid out densely give, in every block:
 * rows whose length does not divide a block's, so that blocks start at every phase of the row, and
 * rows longer than a block, which do not repeat within one.
 */
class RepeatingOperandsTest {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    @ParameterizedTest(name = "rows of {0}")
    @ValueSource(ints = {3, 7, 100, 1000, 3000, 4095, 4096, 4100})
    void repeatedRowsGiveTheBitsOfDenseOnes(int period) {
        int rows = 3 * Blocks.SIZE / period + 2;
        long[] shape = {rows, period};
        int n = rows * period;
        SplittableRandom rng = new SplittableRandom(period);
        try (Arena arena = Arena.ofConfined()) {
            StridedView x = dense(arena, shape, values(rng, n, 0.02, 0.98));
            StridedView logits = dense(arena, shape, values(rng, n, -8, 8));
            StridedView y = dense(arena, shape, values(rng, n, 0, 1));
            float[] gRow = values(rng, period, -1, 1);
            float[] wRow = values(rng, period, 0, 2);
            float[] pwRow = values(rng, period, 0.5, 3);
            StridedView g = repeated(arena, shape, gRow);
            StridedView w = repeated(arena, shape, wRow);
            StridedView pw = repeated(arena, shape, pwRow);
            StridedView gDense = dense(arena, shape, spread(gRow, rows));
            StridedView wDense = dense(arena, shape, spread(wRow, rows));
            StridedView pwDense = dense(arena, shape, spread(pwRow, rows));
            MemorySegment ws = arena.allocate(Blocks.count(n) * Double.BYTES + 64);

            StridedView out = dense(arena, shape, new float[n]);
            StridedView want = dense(arena, shape, new float[n]);
            new BceBackwardKernel(g, x, y, w, 1f, out).run(ws);
            new BceBackwardKernel(gDense, x, y, wDense, 1f, want).run(ws);
            assertSameBits(want, out, n, "BCE backward, rows of " + period);

            new BceWithLogitsBackwardKernel(g, logits, y, w, pw, 0.5f, out).run(ws);
            new BceWithLogitsBackwardKernel(gDense, logits, y, wDense, pwDense, 0.5f, want).run(ws);
            assertSameBits(want, out, n, "BCE with logits backward, rows of " + period);

            new BceWithLogitsKernel(logits, y, w, pw, DType.FLOAT, 0, out).run(ws);
            new BceWithLogitsKernel(logits, y, wDense, pwDense, DType.FLOAT, 0, want).run(ws);
            assertSameBits(want, out, n, "BCE with logits, rows of " + period);

            StridedView sum = dense(arena, new long[0], new float[1]);
            StridedView wantSum = dense(arena, new long[0], new float[1]);
            new BceWithLogitsKernel(logits, y, w, pw, DType.FLOAT, 2, sum).run(ws);
            new BceWithLogitsKernel(logits, y, wDense, pwDense, DType.FLOAT, 2, wantSum).run(ws);
            assertSameBits(wantSum, sum, 1, "BCE with logits sum, rows of " + period);
        }
    }

    private static void assertSameBits(StridedView want, StridedView got, int n, String what) {
        for (int i = 0; i < n; i++) {
            assertEquals(Float.floatToRawIntBits(want.get(i)), Float.floatToRawIntBits(got.get(i)),
                    what + ": element " + i);
        }
    }

    private static float[] values(SplittableRandom rng, int n, double lo, double hi) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) rng.nextDouble(lo, hi);
        }
        return v;
    }

    private static float[] spread(float[] row, int rows) {
        float[] v = new float[row.length * rows];
        for (int r = 0; r < rows; r++) {
            System.arraycopy(row, 0, v, r * row.length, row.length);
        }
        return v;
    }

    private static StridedView dense(Arena arena, long[] shape, float[] values) {
        MemorySegment m = arena.allocate(4L * values.length + 8);
        MemorySegment.copy(values, 0, m, F32, 4, values.length);
        long[] strides = new long[shape.length];
        for (int d = shape.length - 1, s = 1; d >= 0; s *= (int) shape[d], d--) {
            strides[d] = s;
        }
        return new StridedView(m, 4, DType.FLOAT, shape, strides);
    }

    /** {@code row} as a view of {@code shape}: stride 0 over the rows. */
    private static StridedView repeated(Arena arena, long[] shape, float[] row) {
        MemorySegment m = arena.allocate(4L * row.length + 8);
        MemorySegment.copy(row, 0, m, F32, 4, row.length);
        return new StridedView(m, 4, DType.FLOAT, shape, new long[] {0, 1});
    }
}
