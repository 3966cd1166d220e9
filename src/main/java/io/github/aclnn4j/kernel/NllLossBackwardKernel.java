package io.github.aclnn4j.kernel;

import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;
import java.lang.foreign.MemorySegment;

/**
 * NLLLossBackward: zeros everywhere except {@code out[i, t_i] = w[t_i]·(−g)} for each row whose
 * target is not ignoreIndex (g divided by totalWeight first for mean). Targets are validated before
 * anything is written, so a bad target leaves the output as it was.
 */
public final class NllLossBackwardKernel implements Parallel.Tasks {
    /** Bytes zeroed per task: large, since a contiguous zero fill is a memset. */
    private static final long FILL_BYTES = 1 << 18;

    private final StridedView grad;
    private final StridedView target;
    private final StridedView weight;
    private final StridedView totalWeight;
    private final long rows;
    private final long classes;
    private final int reduction;
    private final long ignoreIndex;
    private final boolean perRowGrad;
    private final StridedView out;
    /** Each task zeroes a band of rows and writes their one value while the band is in cache. */
    private final long rowsPerTask;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param rows N (1 for 1-D self)
     * @param classes C
     * @param perRowGrad gradOutput has one value per row (reduction none with 2-D self)
     */
    public NllLossBackwardKernel(StridedView grad, StridedView target, StridedView weight, StridedView totalWeight,
            long rows, long classes, int reduction, long ignoreIndex, boolean perRowGrad, StridedView out) {
        this.grad = grad;
        this.target = target;
        this.weight = weight;
        this.totalWeight = totalWeight;
        this.rows = rows;
        this.classes = classes;
        this.reduction = reduction;
        this.ignoreIndex = ignoreIndex;
        this.perRowGrad = perRowGrad;
        this.out = out;
        rowsPerTask = Math.max(1, FILL_BYTES / out.dtype().byteSize / Math.max(classes, 1));
    }

    /** Runs the whole call: checks every target, then writes the bands on the library's threads. */
    public void run(MemorySegment workspace) {
        for (long i = 0; i < rows; i++) {
            long t = target.getLong(i);
            if (t != ignoreIndex && (t < 0 || t >= classes)) {
                throw new Failure(Status.RUNTIME_ERROR, "aclnnNLLLossBackward: target[" + i + "] = " + t
                        + " is out of range [0, " + classes + ") and is not ignoreIndex (" + ignoreIndex + ")");
            }
        }
        Parallel.forEach((rows + rowsPerTask - 1) / rowsPerTask, rowsPerTask * classes, this, workspace);
    }

    /** One band of rows. */
    @Override
    public void task(long task, MemorySegment workspace) {
        float shared = perRowGrad ? 0f : grad.get(0);
        float scale = reduction == 1 ? shared / totalWeight.get(0) : shared;
        long first = task * rowsPerTask;
        long end = Math.min(rows, first + rowsPerTask);
        out.fill(first * classes, (end - first) * classes, 0f);
        for (long i = first; i < end; i++) {
            long t = target.getLong(i);
            if (t != ignoreIndex) {
                float g = perRowGrad ? grad.get(i) : scale;
                out.set(i * classes + t, weight.get(t) * -g);
            }
        }
    }
}
