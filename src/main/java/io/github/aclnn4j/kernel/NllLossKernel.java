package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * NLLLoss: {@code l_n = −w[t_n]·x[n, t_n]} for each row whose target is not ignoreIndex (0 and no
 * weight otherwise). Reduction none writes each {@code l_n}; sum writes {@code Σ l_n} and mean
 * {@code Σ l_n / Σ w[t_n]} (NaN when every target is ignored), both with totalWeight
 * {@code Σ w[t_n]}: each task of {@link #ROWS} rows sums its part in double into the workspace,
 * and the parts are added pairwise in task order, so the bits never depend on the thread count.
 * Targets are validated before anything is written, so a bad target leaves the outputs as they
 * were. A BFLOAT16 self is computed in BFLOAT16 by CANN (then cast): results are rounded to it
 * first where out's dtype differs.
 */
public final class NllLossKernel implements Parallel.Tasks, Kernel {
    /** Rows per task: each is one gathered element, a few elements' work. */
    static final int ROWS = 1024;

    private final StridedView self;
    private final StridedView target;
    private final StridedView weight;
    private final long rows;
    private final long classes;
    private final int reduction;
    private final long ignoreIndex;
    private final StridedView out;
    private final Targets targetCheck;
    private final StridedView totalWeight;
    /** BFLOAT16 where self's is and out's is not (CANN computes in it, then casts), else null. */
    private final DType rounding;
    /** The same for totalWeightOut. */
    private final DType totalRounding;
    /**
     * self is FLOAT in one run of {@link #selfStride}-byte steps (a dense one among them), and so is
     * weight (its dtype is self's, its one dimension a run): each row's loss is read, weighed and
     * written (or summed) in one loop, {@link #lossesInPlace} or {@link #sumsInPlace}, instead of
     * through gathered arrays and a second pass over them (65536×64, {@code bench ab}: reduction
     * none 0.24 → 0.19 ms, mean 0.23 → 0.18).
     */
    private final boolean floatRun;
    private final long selfStride;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param self read as {@code [rows, classes]} in row-major order
     * @param target {@code rows} integer targets
     * @param totalWeight written for mean and sum only
     */
    public NllLossKernel(StridedView self, StridedView target, StridedView weight, long rows, long classes,
            int reduction, long ignoreIndex, StridedView out, StridedView totalWeight) {
        this.self = self;
        this.target = target;
        this.weight = weight;
        this.rows = rows;
        this.classes = classes;
        this.reduction = reduction;
        this.ignoreIndex = ignoreIndex;
        this.out = out;
        this.targetCheck = new Targets(target, rows, classes, ignoreIndex, "aclnnNLLLoss");
        this.totalWeight = totalWeight;
        this.rounding = self.dtype() == DType.BF16 && out.dtype() != DType.BF16 ? DType.BF16 : null;
        this.totalRounding = self.dtype() == DType.BF16 && totalWeight.dtype() != DType.BF16 ? DType.BF16 : null;
        this.selfStride = self.runStride();
        this.floatRun = self.dtype() == DType.FLOAT && selfStride > 0;
    }

    /** Workspace bytes for {@code rows} rows: a loss and a weight sum (doubles) per task. */
    public static long workspaceBytes(long rows) {
        return 2 * tasks(rows) * Double.BYTES;
    }

    private static long tasks(long rows) {
        return (rows + ROWS - 1) / ROWS;
    }

    /** Runs the whole call: checks every target, then the losses on the library's threads. */
    @Override
    public void run(MemorySegment workspace) {
        targetCheck.checkAll();
        long tasks = tasks(rows);
        Parallel.forEach(tasks, 4L * ROWS, this, workspace);
        if (reduction != 0) {
            double loss = Blocks.pairwiseSum(workspace, tasks);
            double weights = Blocks.pairwiseSum(workspace.asSlice(tasks * Double.BYTES), tasks);
            out.set(0, HalfFloats.roundTo(rounding, (float) (reduction == 1 ? loss / weights : loss)));
            totalWeight.set(0, HalfFloats.roundTo(totalRounding, (float) weights));
        }
    }

    /** Rows {@code [task·ROWS, …)}: their losses written (none) or summed with their weights (mean, sum). */
    @Override
    public void task(long task, MemorySegment workspace) {
        Scratch s = Scratch.get();
        long[] positions = s.positions;
        float[] xs = s.a;
        float[] ws = s.b;
        long first = task * ROWS;
        int n = (int) Math.min(ROWS, rows - first);
        long[] targets = target.gatherLongs(first, n);
        if (floatRun && reduction == 0) {
            lossesInPlace(first, n, targets, xs);
            out.scatter(first, xs, n);
            return;
        }
        if (floatRun) {
            sumsInPlace(first, n, targets, workspace, task);
            return;
        }
        for (int j = 0; j < n; j++) {
            long t = targets[j] == ignoreIndex ? 0 : targets[j]; // read, then left out
            positions[j] = (first + j) * classes + t;
        }
        self.gatherAt(positions, xs, n);
        for (int j = 0; j < n; j++) {
            positions[j] -= (first + j) * classes; // the class again
        }
        weight.gatherAt(positions, ws, n);
        double loss = 0;
        double weights = 0;
        for (int j = 0; j < n; j++) {
            boolean ignored = targets[j] == ignoreIndex;
            double w = ignored ? 0 : ws[j];
            double l = ignored ? 0 : -w * xs[j];
            loss += l;
            weights += w;
            xs[j] = ignored ? 0f : HalfFloats.roundTo(rounding, (float) l);
        }
        if (reduction == 0) {
            out.scatter(first, xs, n);
        } else {
            long tasks = tasks(rows);
            workspace.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, task, loss);
            workspace.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, tasks + task, weights);
        }
    }

    /**
     * Rows {@code [first, first + n)} of FLOAT self and weight runs, reduction none: each row's loss
     * into {@code losses}, with the operations of the gathered rows (so the same bits).
     */
    private void lossesInPlace(long first, int n, long[] targets, float[] losses) {
        MemorySegment x = self.segment();
        long at = self.runOffset(first * classes);
        long rowBytes = classes * selfStride;
        MemorySegment w = weight.segment();
        long wAt = weight.runOffset(0);
        long wStride = weight.runStride();
        for (int j = 0; j < n; j++, at += rowBytes) {
            long t = targets[j];
            boolean ignored = t == ignoreIndex;
            long c = ignored ? 0 : t; // read, then left out
            double l = -(double) w.get(ValueLayout.JAVA_FLOAT_UNALIGNED, wAt + c * wStride)
                    * x.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at + c * selfStride);
            losses[j] = ignored ? 0f : (float) l;
        }
    }

    /**
     * As {@link #lossesInPlace} for mean and sum: the task's loss and weight sums into the
     * workspace, added in row order as the gathered rows add them.
     */
    private void sumsInPlace(long first, int n, long[] targets, MemorySegment workspace, long task) {
        MemorySegment x = self.segment();
        long at = self.runOffset(first * classes);
        long rowBytes = classes * selfStride;
        MemorySegment w = weight.segment();
        long wAt = weight.runOffset(0);
        long wStride = weight.runStride();
        double loss = 0;
        double weights = 0;
        for (int j = 0; j < n; j++, at += rowBytes) {
            long t = targets[j];
            boolean ignored = t == ignoreIndex;
            long c = ignored ? 0 : t;
            double wc = ignored ? 0 : w.get(ValueLayout.JAVA_FLOAT_UNALIGNED, wAt + c * wStride);
            loss += ignored ? 0 : -wc * x.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at + c * selfStride);
            weights += wc;
        }
        long tasks = tasks(rows);
        workspace.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, task, loss);
        workspace.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, tasks + task, weights);
    }

    /** An empty self: mean gives NaN and sum 0, both with totalWeight 0; none writes nothing. */
    public static void reduceEmpty(int reduction, StridedView out, StridedView totalWeight) {
        out.fill(0, out.numel(), reduction == 1 ? Float.NaN : 0f);
        totalWeight.fill(0, totalWeight.numel(), 0f);
    }
}
