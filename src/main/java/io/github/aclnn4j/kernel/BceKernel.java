package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * BinaryCrossEntropy: {@code loss = −w·(y·max(log x, −100) + (1 − y)·max(log1p(−x), −100))} (the
 * clamp at −100 as CANN's kernel and PyTorch apply it; {@code log1p(−x)} rather than
 * {@code log(1 − x)}, so that a loss near 0 keeps its digits), by {@link BulkMath#binaryCrossEntropy}
 * over rows of floats gathered from the operands: in fp32 with the Vector API, else in double.
 * Reduction none rounds each loss to self's dtype (the dtype CANN computes in) and stores it as
 * out's; mean and sum add each block's losses in double into the workspace, then combine the
 * block sums pairwise and round once, so the result does not depend on the thread count. Reduction
 * none over inputs that all lie in one transposed or channels-last order is computed in that order
 * ({@link #inMemoryOrder}), where the rows gather dense runs.
 */
public final class BceKernel implements Parallel.Tasks, Kernel {
    private final StridedView self;
    private final StridedView target;
    private final StridedView weight;
    private final int reduction;
    private final StridedView out;
    /** Self's dtype when it is 16-bit and out's differs: each loss is rounded to it first. */
    private final DType rounding;

    /**
     * The kernel of one plan (or of one tile-ordered piece of reduction none), made by phase 1.
     *
     * @param weight null when absent
     * @param reduction 0 none, 1 mean, 2 sum
     * @param computeType self's dtype
     */
    public BceKernel(StridedView self, StridedView target, StridedView weight, int reduction, DType computeType,
            StridedView out) {
        this.self = self;
        this.target = target;
        this.weight = weight;
        this.reduction = reduction;
        this.out = out;
        this.rounding = computeType != DType.FLOAT && computeType != out.dtype() ? computeType : null;
    }

    /**
     * Reduction none over inputs that all lie in one transposed or channels-last order, into a dense
     * out: computed in that order ({@link InMemoryOrder}); null where that does not apply.
     */
    public static Staged inMemoryOrder(StridedView self, StridedView target, StridedView weight, DType computeType,
            StridedView out, long[] shape) {
        return InMemoryOrder.of(new Losses(computeType), shape, out, self, target, weight);
    }

    /** Reduction none's losses, for {@link InMemoryOrder}: inputs self, target, weight. */
    private record Losses(DType computeType) implements InMemoryOrder.Call {
        @Override
        public Kernel over(StridedView[] in, StridedView out) {
            return new BceKernel(in[0], in[1], in[2], 0, computeType, out);
        }
    }

    /** Workspace bytes for a reduction over {@code numel} elements: one double per block. */
    public static long workspaceBytes(long numel) {
        return Blocks.count(numel) * Double.BYTES;
    }

    /** Runs the whole call: block by block on the library's threads, then the reduction. */
    @Override
    public void run(MemorySegment workspace) {
        long n = self.numel();
        long blocks = Blocks.count(n);
        Parallel.forEach(blocks, Blocks.SIZE, this, workspace);
        if (reduction != 0) {
            double total = Blocks.pairwiseSum(workspace, blocks);
            out.set(0, HalfFloats.roundTo(rounding, (float) (reduction == 1 ? total / n : total)));
        }
    }

    /** One block: its losses written (none) or their sum stored in the workspace (mean, sum). */
    @Override
    public void task(long block, MemorySegment workspace) {
        long start = block * Blocks.SIZE;
        int len = (int) Math.min(Blocks.SIZE, self.numel() - start);
        Scratch s = Scratch.get();
        float[] x = s.a;
        float[] y = s.b;
        float[] w = s.ones;
        self.gather(start, x, len);
        target.gather(start, y, len);
        if (weight != null) {
            w = s.c;
            weight.gather(start, w, len);
        }
        double sum = BulkMath.current().binaryCrossEntropy(x, y, w, len);
        if (reduction == 0) {
            if (rounding != null) {
                for (int i = 0; i < len; i++) {
                    x[i] = HalfFloats.roundTo(rounding, x[i]);
                }
            }
            out.scatter(start, x, len);
        } else {
            workspace.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, block, sum);
        }
    }

    /** The reduction of no elements, over every element of out: mean NaN (0/0), sum and none 0. */
    public static void fillEmpty(int reduction, StridedView out) {
        out.fill(0, out.numel(), reduction == 1 ? Float.NaN : 0f);
    }
}
