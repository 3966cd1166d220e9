package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * BinaryCrossEntropyBackward: {@code out = g·(x − y) / max((1 − x)·x, 1e-12) · w [· 1/numel]},
 * element by element in fp32, one pass over the operands (all read as self's shape), block by
 * block on the library's threads. Two ways through a block, fastest first, both computing the
 * same operations in the same order:
 * <ul>
 * <li>{@link DirectMath} loops, when self, target and out share a dtype and lie densely in memory,
 *     and gradOutput and weight are single values (the usual case of a reduction), or dense (the
 *     usual case of reduction none; BFLOAT16 2048×2048, fresh JVMs: 2.1–2.3 → 0.74–0.76 ms where the
 *     16-bit calls took rows), or in FLOAT a row repeated (a weight per column, see
 *     {@link DirectOperands}); in FLOAT also into
 *     an out of any layout, written to scratch and scattered a block at a time, the inputs still
 *     read in place (a strided out, bench ab 2048×2048: 2.69 → 2.03 ms, where the rows copied
 *     every operand; gathering stepped or transposed inputs the same way gained 2% and lost 21%);
 * <li>rows of floats for everything else, and for the last elements of a block.
 * </ul>
 * Inputs that all lie transposed or channels-last into a contiguous out are computed in their memory
 * order ({@link #inMemoryOrder}), where they are dense: 16-bit ones always, FLOAT ones where no tile
 * would keep them dense.
 */
public final class BceBackwardKernel implements Parallel.Tasks, Kernel {
    private static final float EPSILON = 1e-12f;

    private final StridedView grad;
    private final StridedView self;
    private final StridedView target;
    private final StridedView weight;
    private final float scale;
    private final StridedView out;
    private final Path path;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param weight null when absent
     * @param scale 1 for none/sum, 1/numel for mean
     */
    public BceBackwardKernel(StridedView grad, StridedView self, StridedView target, StridedView weight, float scale,
            StridedView out) {
        this.grad = grad;
        this.self = self;
        this.target = target;
        this.weight = weight;
        this.scale = scale;
        this.out = out;
        DType dt = out.dtype();
        boolean dense = DirectOperands.dense(out, dt) && DirectOperands.dense(self, dt)
                && DirectOperands.dense(target, dt);
        if (dense && uniform() && DirectOperands.supported(Warmup.Family.BCE_BACKWARD, dt)) {
            path = Path.DIRECT_UNIFORM;
        } else if (dt != DType.FLOAT && dense && DirectOperands.dense(grad, dt)
                && (weight == null || weight.isUniform() || DirectOperands.dense(weight, dt))
                && DirectOperands.supported(Warmup.Family.BCE_BACKWARD, dt)) {
            path = weight == null || weight.isUniform() ? Path.DIRECT_GRAD : Path.DIRECT_DENSE;
        } else if (dt == DType.FLOAT && DirectOperands.supported(Warmup.Family.BCE_BACKWARD, dt)
                && DirectOperands.dense(self, dt) && DirectOperands.dense(target, dt)
                && DirectOperands.denseOrRepeating(grad, dt) && DirectOperands.denseOrRepeating(weight, dt)) {
            path = Path.DIRECT;
        } else {
            path = Path.ROWS;
        }
    }

    /**
     * The call over inputs that all lie in one transposed or channels-last order, into a dense out:
     * computed in that order ({@link InMemoryOrder}); null where that does not apply.
     */
    public static Staged inMemoryOrder(StridedView grad, StridedView self, StridedView target, StridedView weight,
            float scale, StridedView out, long[] shape) {
        return InMemoryOrder.of(new Gradients(scale), shape, out, self, grad, target, weight);
    }

    /** The call for {@link InMemoryOrder}: inputs self, gradOutput, target, weight. */
    private record Gradients(float scale) implements InMemoryOrder.Call {
        @Override
        public Kernel over(StridedView[] in, StridedView out) {
            return new BceBackwardKernel(in[1], in[0], in[2], in[3], scale, out);
        }
    }

    /** The usual case of a reduction: gradOutput one value, weight absent or one value. */
    private boolean uniform() {
        return grad.isUniform() && (weight == null || weight.isUniform());
    }

    /** Runs the whole call, block by block on the library's threads. */
    @Override
    public void run(MemorySegment workspace) {
        Parallel.forEach(Blocks.count(out.numel()), Blocks.SIZE, this, workspace);
    }

    /** How a call's blocks are computed; see the class comment. */
    private enum Path {
        /** Direct loops, gradOutput and weight single values. */
        DIRECT_UNIFORM,
        /** Direct loops, 16-bit, gradOutput dense, weight a single value or absent. */
        DIRECT_GRAD,
        /** Direct loops, 16-bit, gradOutput and weight dense. */
        DIRECT_DENSE,
        /** Direct loops, FLOAT, gradOutput and weight dense, single values or a repeated row; out any layout. */
        DIRECT,
        ROWS
    }

    /** One block. */
    @Override
    public void task(long block, MemorySegment workspace) {
        DType dt = out.dtype();
        long start = block * Blocks.SIZE;
        int len = (int) Math.min(Blocks.SIZE, out.numel() - start);
        int done = path == Path.ROWS ? 0 : len - len % DirectOperands.math().step();
        if (done > 0 && path == Path.DIRECT_UNIFORM) {
            float w = weight == null ? 1f : weight.get(0);
            DirectOperands.math().bceBackwardUniform(dt, grad.get(0), self.segment(), self.denseOffset(start),
                    target.segment(), target.denseOffset(start), w, scale, out.segment(), out.denseOffset(start),
                    done);
        } else if (done > 0 && path == Path.DIRECT_GRAD) {
            DirectOperands.math().bceBackwardDenseGrad(dt, grad.segment(), grad.denseOffset(start), self.segment(),
                    self.denseOffset(start), target.segment(), target.denseOffset(start),
                    weight == null ? 1f : weight.get(0), scale, out.segment(), out.denseOffset(start), done);
        } else if (done > 0 && path == Path.DIRECT_DENSE) {
            DirectOperands.math().bceBackward(dt, grad.segment(), grad.denseOffset(start), self.segment(),
                    self.denseOffset(start), target.segment(), target.denseOffset(start), weight.segment(),
                    weight.denseOffset(start), scale, out.segment(), out.denseOffset(start), done);
        } else if (done > 0) {
            DirectOperands.math().bceBackward(dt, DirectOperands.segment(grad, 0, start, done),
                    DirectOperands.offset(grad, start), self.segment(), self.denseOffset(start), target.segment(),
                    target.denseOffset(start), DirectOperands.segment(weight, 1, start, done),
                    DirectOperands.offset(weight, start), scale, DirectOperands.output(out),
                    DirectOperands.offset(out, start), done);
            DirectOperands.flush(out, start, done);
        }
        if (done < len) {
            rows(start + done, len - done);
        }
    }

    private void rows(long start, int len) {
        Scratch s = Scratch.get();
        float[] g = s.a;
        float[] x = s.b;
        float[] y = s.c;
        grad.gather(start, g, len);
        self.gather(start, x, len);
        target.gather(start, y, len);
        float[] w = s.ones; // an absent weight: multiplying by 1 is exact
        if (weight != null) {
            w = s.d;
            weight.gather(start, w, len);
        }
        for (int i = 0; i < len; i++) {
            float xi = x[i];
            g[i] = g[i] * (xi - y[i]) / Math.max((1f - xi) * xi, EPSILON) * w[i] * scale;
        }
        out.scatter(start, g, len);
    }
}
