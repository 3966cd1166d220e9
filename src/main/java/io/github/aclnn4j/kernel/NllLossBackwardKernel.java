package io.github.aclnn4j.kernel;

import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;

/**
 * NLLLossBackward: zeros everywhere except {@code out[i, t_i] = w[t_i]·(−g)} for each row whose
 * target is not ignoreIndex (g divided by totalWeight first for mean). Targets are validated before
 * anything is written, so a bad target leaves the output as it was.
 */
public final class NllLossBackwardKernel {
    /** Elements zeroed per task: large, since a contiguous zero fill is a memset. */
    private static final long FILL_BLOCK = 1 << 16;

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
        long total = rows * classes;
        long fillBlocks = (total + FILL_BLOCK - 1) / FILL_BLOCK;
        Parallel.forEach(fillBlocks, FILL_BLOCK,
                b -> out.fill(b * FILL_BLOCK, Math.min(FILL_BLOCK, total - b * FILL_BLOCK), 0f));
        float shared = perRowGrad ? 0f : grad.get(0);
        if (reduction == 1) {
            shared = shared / totalWeight.get(0);
        }
        for (long i = 0; i < rows; i++) {
            long t = target.getLong(i);
            if (t == ignoreIndex) {
                continue;
            }
            float g = perRowGrad ? grad.get(i) : shared;
            out.set(i * classes + t, weight.get(t) * -g);
        }
    }
}
