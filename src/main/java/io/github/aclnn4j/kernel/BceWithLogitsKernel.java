package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * BinaryCrossEntropyWithLogits: {@code loss = ((1 − y)·x − (1 + (pw − 1)·y)·logσ(x)) · w} with the
 * overflow-free {@code logσ(x) = min(x, 0) − log1p(exp(−|x|))}. Reduction none writes the losses;
 * mean and sum add each block's losses into the workspace in {@link SumOrder#chunkedSum}'s order
 * (fp32 lanes over 128 elements, then double), then combine the block sums pairwise and round once,
 * so the result depends neither on the thread count nor on the processor's vector width or the
 * Vector API being there.
 *
 * <p>When self, target (and out, for none) lie densely in memory in the compute dtype and weight
 * and posWeight are absent, single values or repeated rows of it (in FLOAT, dense too), a
 * {@link DirectMath} loop reads and writes memory in one pass; otherwise, and for the last elements of a block, rows of
 * floats. Both compute each loss with the same operations (the 16-bit loops look the softplus
 * term up in a table of what the rows compute for every value).
 */
public final class BceWithLogitsKernel implements Parallel.Tasks, Kernel {
    private final StridedView self;
    private final StridedView target;
    private final StridedView weight;
    private final StridedView posWeight;
    private final DType compute;
    private final int reduction;
    private final StridedView out;
    /**
     * Whether the operands' layout suits the {@link DirectMath} loops (see the class comment),
     * whether or not the Vector API is there to run them: a block's sum is cut where they stop
     * either way, so that it has the same bits with and without them.
     */
    private final boolean directLayout;
    /** Whether the direct loops run. */
    private final boolean direct;
    /**
     * Whether they read weight and posWeight as runs ({@link DirectOperands#segment}): FLOAT, or a
     * 16-bit row repeated; else the 16-bit loops take single values.
     */
    private final boolean weightRuns;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param weight null when absent
     * @param posWeight null when absent
     * @param compute the compute dtype, promote(self, target): weight and posWeight are rounded to it
     * @param reduction 0 none, 1 mean, 2 sum
     */
    public BceWithLogitsKernel(StridedView self, StridedView target, StridedView weight, StridedView posWeight,
            DType compute, int reduction, StridedView out) {
        this.self = self;
        this.target = target;
        this.weight = weight;
        this.posWeight = posWeight;
        this.compute = compute;
        this.reduction = reduction;
        this.out = out;
        directLayout = DirectOperands.dense(self, compute) && DirectOperands.dense(target, compute)
                && (reduction != 0 || DirectOperands.dense(out, compute))
                && (compute == DType.FLOAT
                        ? DirectOperands.denseOrRepeating(weight, compute)
                                && DirectOperands.denseOrRepeating(posWeight, compute)
                        : DirectOperands.absentUniformOrRepeating(weight, compute)
                                && DirectOperands.absentUniformOrRepeating(posWeight, compute));
        direct = directLayout && DirectOperands.supported(Warmup.Family.BCE_WITH_LOGITS, compute);
        weightRuns = compute == DType.FLOAT || !DirectOperands.absentOrUniform(weight, compute)
                || !DirectOperands.absentOrUniform(posWeight, compute);
    }

    /**
     * The call over self and target of which one or both lie transposed or channels-last and the
     * rest dense, on the direct loops: for reduction none with both inputs in one such order,
     * computed in that order into the workspace, then moved raw into out ({@link InMemoryOrder}:
     * 16-bit, or FLOAT with long memory runs); else, 16-bit, the permuted inputs copied into the
     * workspace in row-major order first ({@link RowMajorCopies}). Either way each element gets the
     * same operations and the sums the same order, so the bits are those of the call on dense
     * inputs. Null where that does not apply: other dtypes or layouts, weight or posWeight neither
     * absent nor one value, out not dense (reduction none).
     */
    public static Staged staged(StridedView self, StridedView target, StridedView weight, StridedView posWeight,
            DType compute, int reduction, StridedView out, long[] shape) {
        if (!DirectOperands.absentOrUniform(weight, compute) || !DirectOperands.absentOrUniform(posWeight, compute)
                || (reduction == 0 && !DirectOperands.dense(out, compute))) {
            return null;
        }
        if (reduction == 0 && self.dtype() == compute && target.dtype() == compute) {
            InMemoryOrder inOrder = InMemoryOrder.of(new Losses(compute), shape, out, self, target, weight, posWeight);
            if (inOrder != null) {
                return inOrder;
            }
        }
        RowMajorCopies copies = RowMajorCopies.of(compute, shape, reduction == 0 ? 0 : workspaceBytes(self.numel()),
                self, target);
        return copies == null ? null : new Copies(copies, weight, posWeight, compute, reduction, out);
    }

    /** Reduction none's losses, for {@link InMemoryOrder}: inputs self, target, weight, posWeight. */
    private record Losses(DType compute) implements InMemoryOrder.Call {
        @Override
        public Kernel over(StridedView[] in, StridedView out) {
            return new BceWithLogitsKernel(in[0], in[1], in[2], in[3], compute, 0, out);
        }
    }

    /** {@link #staged} through {@link RowMajorCopies}: the copies, then the call over them. */
    static final class Copies implements Staged, OverWorkspace.Factory {
        private final RowMajorCopies copies;
        private final OverWorkspace call = new OverWorkspace(this);
        private final StridedView weight;
        private final StridedView posWeight;
        private final DType compute;
        private final int reduction;
        private final StridedView out;

        private Copies(RowMajorCopies copies, StridedView weight, StridedView posWeight, DType compute, int reduction,
                StridedView out) {
            this.copies = copies;
            this.weight = weight;
            this.posWeight = posWeight;
            this.compute = compute;
            this.reduction = reduction;
            this.out = out;
        }

        /** The block sums (mean, sum), then the copies. */
        @Override
        public long workspaceBytes() {
            return copies.endByte();
        }

        @Override
        public void run(MemorySegment workspace) {
            copies.run(workspace);
            call.over(workspace).run(workspace);
        }

        /** The call over the copies in {@code workspace}. */
        @Override
        public Kernel over(MemorySegment workspace) {
            StridedView[] in = copies.views(workspace);
            return new BceWithLogitsKernel(in[0], in[1], weight, posWeight, compute, reduction, out);
        }
    }

    /** Workspace bytes for a reduction over {@code numel} elements: one double per block. */
    public static long workspaceBytes(long numel) {
        return Blocks.count(numel) * Double.BYTES;
    }

    /** One block: its losses written (none) or their sum stored in the workspace (mean, sum). */
    @Override
    public void task(long block, MemorySegment workspace) {
        long start = block * Blocks.SIZE;
        int len = (int) Math.min(Blocks.SIZE, self.numel() - start);
        boolean store = reduction == 0;
        int done = directLayout ? len - len % DirectMath.STEP : 0;
        double sum = 0;
        if (done > 0 && !direct) {
            sum = rows(store, start, done);
        } else if (done > 0 && weightRuns) {
            sum = DirectOperands.math().bceWithLogits(compute, self.segment(), self.denseOffset(start),
                    target.segment(), target.denseOffset(start), DirectOperands.segment(weight, 0, start, done),
                    DirectOperands.offset(weight, start), DirectOperands.segment(posWeight, 1, start, done),
                    DirectOperands.offset(posWeight, start), store ? out.segment() : null,
                    store ? out.denseOffset(start) : 0, done);
        } else if (done > 0) {
            sum = DirectOperands.math().bceWithLogitsUniform(compute, self.segment(), self.denseOffset(start),
                    target.segment(), target.denseOffset(start), weight == null ? 1f : weight.get(0),
                    posWeight == null ? 1f : posWeight.get(0), store ? out.segment() : null,
                    store ? out.denseOffset(start) : 0, done);
        }
        if (done < len) {
            sum += rows(store, start + done, len - done);
        }
        if (!store) {
            workspace.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, block, sum);
        }
    }

    /** Elements {@code [start, start + len)} through rows: losses scattered to out, or their sum returned. */
    private double rows(boolean store, long start, int len) {
        Scratch s = Scratch.get();
        float[] x = s.a;
        float[] y = s.b;
        float[] w = weightRow(weight, start, len, compute, s.c, s);
        float[] pw = weightRow(posWeight, start, len, compute, s.d, s);
        self.gather(start, x, len);
        target.gather(start, y, len);
        double sum = BulkMath.current().bceWithLogits(x, y, w, pw, len);
        if (store) {
            out.scatter(start, x, len);
        }
        return sum;
    }

    /** The weights of a block, rounded to the compute dtype, or the shared row of ones when absent. */
    private static float[] weightRow(StridedView weight, long start, int len, DType compute, float[] row, Scratch s) {
        if (weight == null) {
            return s.ones;
        }
        weight.gather(start, row, len);
        if (weight.dtype() != compute) { // values of compute's own dtype are what rounding would give
            roundTo(compute, row, len, s.halfRow);
        }
        return row;
    }

    /** Rounds {@code a[0, n)} to {@code dtype}'s precision, as a cast to it and back would. */
    private static void roundTo(DType dtype, float[] a, int n, short[] bits) {
        if (dtype == DType.FLOAT16) {
            for (int i = 0; i < n; i++) {
                a[i] = HalfFloats.roundTo(dtype, a[i]);
            }
        } else if (dtype == DType.BF16) {
            BulkMath.current().floatToBf16(a, 0, bits, n);
            BulkMath.current().bf16ToFloat(bits, a, 0, n);
        }
    }

    /** The reduction of no elements: mean is NaN (0/0), sum is 0. */
    public static void reduceEmpty(int reduction, StridedView out) {
        out.set(0, reduction == 1 ? Float.NaN : 0f);
    }

    /** Runs the whole call: block by block on the library's threads, then the reduction. */
    @Override
    public void run(MemorySegment workspace) {
        long n = self.numel();
        long blocks = Blocks.count(n);
        Parallel.forEach(blocks, Blocks.SIZE, this, workspace);
        if (reduction != 0) {
            double total = Blocks.pairwiseSum(workspace, blocks);
            out.set(0, (float) (reduction == 1 ? total / n : total));
        }
    }
}
