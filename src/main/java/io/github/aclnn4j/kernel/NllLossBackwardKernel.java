package io.github.aclnn4j.kernel;

import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;

/**
 * NLLLossBackward: zeros everywhere except {@code out[i, t_i] = w[t_i]·(−g)} for each row whose
 * target is not ignoreIndex (g divided by totalWeight first for mean). Targets are validated before
 * anything is written, so a bad target leaves the output as it was.
 */
public final class NllLossBackwardKernel {
    /** Bytes zeroed per task: large, since a contiguous zero fill is a memset. */
    private static final long FILL_BYTES = 1 << 18;

    private NllLossBackwardKernel() {}

    /**
     * @param rows N (1 for 1-D self)
     * @param classes C
     * @param perRowGrad gradOutput has one value per row (reduction none with 2-D self)
     */
    public static void run(StridedView grad, StridedView target, StridedView weight, StridedView totalWeight,
            long rows, long classes, int reduction, long ignoreIndex, boolean perRowGrad, StridedView out) {
        for (long i = 0; i < rows; i++) {
            long t = target.getLong(i);
            if (t != ignoreIndex && (t < 0 || t >= classes)) {
                throw new Failure(Status.RUNTIME_ERROR, "aclnnNLLLossBackward: target[" + i + "] = " + t
                        + " is out of range [0, " + classes + ") and is not ignoreIndex (" + ignoreIndex + ")");
            }
        }
        float shared = perRowGrad ? 0f : grad.get(0);
        float scale = reduction == 1 ? shared / totalWeight.get(0) : shared;
        // Each task zeroes a band of rows and writes their one value while the band is in cache.
        long rowsPerTask = Math.max(1, FILL_BYTES / out.dtype().byteSize / Math.max(classes, 1));
        long tasks = (rows + rowsPerTask - 1) / rowsPerTask;
        if (Parallel.serial(tasks, rowsPerTask * classes)) { // a small call: no task object
            for (long task = 0; task < tasks; task++) {
                band(task, rowsPerTask, grad, target, weight, rows, classes, ignoreIndex, perRowGrad, scale, out);
            }
        } else {
            Parallel.forEach(tasks, rowsPerTask * classes, task ->
                    band(task, rowsPerTask, grad, target, weight, rows, classes, ignoreIndex, perRowGrad, scale, out));
        }
    }

    private static void band(long task, long rowsPerTask, StridedView grad, StridedView target, StridedView weight,
            long rows, long classes, long ignoreIndex, boolean perRowGrad, float scale, StridedView out) {
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
