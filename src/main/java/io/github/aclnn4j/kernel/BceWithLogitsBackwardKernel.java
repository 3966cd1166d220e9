package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * BinaryCrossEntropyWithLogitsBackward, element-wise over self's shape:
 * {@code out = ((pw·y + 1 − y)·σ(x) − pw·y)·g·w·scale} (scale 1/numel for mean), by
 * {@link BulkMath#bceWithLogitsBackward} over rows of floats gathered from the operands, block by
 * block on the library's threads; {@link DirectMath} loops read and write memory in place with the
 * same operations in FLOAT, with self, target and out dense and the others dense, single values, a
 * repeated row or absent, and in BFLOAT16 and FLOAT16, with gradOutput dense or one value and weight
 * and posWeight one value. CANN casts every input to the promoted dtype, which holds each
 * of them exactly (a 16-bit one only when all five share it), computes in fp32 and casts to out's
 * dtype, target's: one rounding, as here.
 */
public final class BceWithLogitsBackwardKernel implements Parallel.Tasks, Kernel {
    private final StridedView grad;
    private final StridedView self;
    private final StridedView target;
    private final StridedView weight;
    private final StridedView posWeight;
    private final float scale;
    private final StridedView out;
    private final boolean direct;
    /**
     * Self, target and out dense of one 16-bit dtype, gradOutput dense of it or one value, weight
     * and posWeight absent or one value: the 16-bit direct loops (2048×2048 mean, fresh JVMs:
     * BFLOAT16 2.70–2.80 → 1.60–1.65 ms, FLOAT16 2.01–2.06 → 1.70–1.81, where the rows gathered,
     * computed and scattered).
     */
    private final boolean directHalf;

    /**
     * The kernel of one plan (or of one tile-ordered piece of it), made by phase 1.
     *
     * @param weight null when absent
     * @param posWeight null when absent
     * @param scale 1 for none and sum, 1/numel for mean
     */
    public BceWithLogitsBackwardKernel(StridedView grad, StridedView self, StridedView target, StridedView weight,
            StridedView posWeight, float scale, StridedView out) {
        this.grad = grad;
        this.self = self;
        this.target = target;
        this.weight = weight;
        this.posWeight = posWeight;
        this.scale = scale;
        this.out = out;
        DType f = DType.FLOAT;
        direct = DirectOperands.supported(Warmup.Family.BCE_WITH_LOGITS_BACKWARD, f)
                && DirectOperands.dense(self, f)
                && DirectOperands.dense(target, f)
                && DirectOperands.dense(out, f) && DirectOperands.denseOrRepeating(grad, f)
                && DirectOperands.denseOrRepeating(weight, f) && DirectOperands.denseOrRepeating(posWeight, f);
        DType h = out.dtype();
        directHalf = (h == DType.BF16 || h == DType.FLOAT16) && DirectOperands.dense(self, h)
                && DirectOperands.dense(target, h) && DirectOperands.dense(out, h)
                && (grad.isUniform() || DirectOperands.dense(grad, h))
                && (weight == null || weight.isUniform()) && (posWeight == null || posWeight.isUniform())
                && DirectOperands.supported(Warmup.Family.BCE_WITH_LOGITS_BACKWARD, h);
    }

    /**
     * The call over inputs that all lie in one transposed or channels-last order, into a dense out:
     * computed in that order ({@link InMemoryOrder}); null where that does not apply.
     */
    public static Staged inMemoryOrder(StridedView grad, StridedView self, StridedView target, StridedView weight,
            StridedView posWeight, float scale, StridedView out, long[] shape) {
        return InMemoryOrder.of(new Gradients(scale), shape, out, self, grad, target, weight, posWeight);
    }

    /** The call for {@link InMemoryOrder}: inputs self, gradOutput, target, weight, posWeight. */
    private record Gradients(float scale) implements InMemoryOrder.Call {
        @Override
        public Kernel over(StridedView[] in, StridedView out) {
            return new BceWithLogitsBackwardKernel(in[1], in[0], in[2], in[3], in[4], scale, out);
        }
    }

    /** Runs the whole call on the library's threads. */
    @Override
    public void run(MemorySegment workspace) {
        Parallel.forEach(Blocks.count(self.numel()), Blocks.SIZE, this, workspace);
    }

    @Override
    public void task(long block, MemorySegment workspace) {
        long start = block * Blocks.SIZE;
        int len = (int) Math.min(Blocks.SIZE, self.numel() - start);
        int done = direct || directHalf ? len - len % DirectOperands.math().step() : 0;
        if (done > 0 && directHalf) {
            halfBlock(start, done);
        } else if (done > 0) {
            DirectOperands.math().bceWithLogitsBackward(DType.FLOAT, self.segment(), self.denseOffset(start),
                    target.segment(), target.denseOffset(start), DirectOperands.segment(grad, 0, start, done),
                    DirectOperands.offset(grad, start), DirectOperands.segment(weight, 1, start, done),
                    DirectOperands.offset(weight, start), DirectOperands.segment(posWeight, 2, start, done),
                    DirectOperands.offset(posWeight, start), scale, out.segment(), out.denseOffset(start), done);
        }
        if (done < len) {
            rows(start + done, len - done);
        }
    }

    /** Elements {@code [start, start + len)} by the 16-bit direct loops. */
    private void halfBlock(long start, int len) {
        DType h = out.dtype();
        float w = weight == null ? 1f : weight.get(0);
        float pw = posWeight == null ? 1f : posWeight.get(0);
        if (grad.isUniform()) {
            DirectOperands.math().bceWithLogitsBackwardUniform(h, self.segment(), self.denseOffset(start),
                    target.segment(), target.denseOffset(start), grad.get(0), w, pw, scale, out.segment(),
                    out.denseOffset(start), len);
        } else {
            DirectOperands.math().bceWithLogitsBackwardDenseGrad(h, self.segment(), self.denseOffset(start),
                    target.segment(), target.denseOffset(start), grad.segment(), grad.denseOffset(start), w, pw, scale,
                    out.segment(), out.denseOffset(start), len);
        }
    }

    /** Elements {@code [start, start + len)} through rows of floats. */
    private void rows(long start, int len) {
        Scratch s = Scratch.get();
        float[] x = s.a;
        float[] y = s.b;
        float[] g = s.c;
        self.gather(start, x, len);
        target.gather(start, y, len);
        grad.gather(start, g, len);
        float[] w = optional(weight, start, len, s.d, s.ones);
        float[] pw = optional(posWeight, start, len, s.e, s.ones);
        BulkMath.current().bceWithLogitsBackward(x, y, g, w, pw, scale, len);
        out.scatter(start, x, len);
    }

    /** An optional operand's values for the block, or {@code ones} when it is absent. */
    private static float[] optional(StridedView v, long start, int len, float[] row, float[] ones) {
        if (v == null) {
            return ones;
        }
        v.gather(start, row, len);
        return row;
    }
}
