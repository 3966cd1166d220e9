package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * PreluBackward in one pass: {@code gradInput = x > 0 ? g : w[c]·g} and
 * {@code gradWeight[c] = Σ (x > 0 ? 0 : x·g)} over channel c. Self is walked as rows
 * {@code [outer][channels][inner]}; each channel's sum accumulates in double in logical order.
 */
public final class PreluBackwardKernel {
    private PreluBackwardKernel() {}

    /** Workspace bytes: one double accumulator per weight. */
    public static long workspaceBytes(long weights) {
        return weights * Double.BYTES;
    }

    /**
     * @param outer product of the dimensions before the channel dimension
     * @param channels the channel count C (1 when rank < 2)
     * @param inner product of the dimensions after the channel dimension
     * @param weights numel(weight): 1, or C
     */
    public static void run(StridedView grad, StridedView self, StridedView weight, StridedView gradInput,
            StridedView gradWeight, long outer, long channels, long inner, long weights, MemorySegment workspace) {
        float[] w = new float[(int) weights];
        weight.gather(0, w, w.length);
        workspace.fill((byte) 0);
        int chunk = (int) Math.min(Math.max(inner, 1), Blocks.SIZE);
        float[] x = new float[chunk];
        float[] g = new float[chunk];
        for (long o = 0; o < outer; o++) {
            for (long c = 0; c < channels; c++) {
                int k = weights == 1 ? 0 : (int) c;
                float wk = w[k];
                double acc = 0;
                long rowStart = (o * channels + c) * inner;
                for (long done = 0; done < inner; done += chunk) {
                    int len = (int) Math.min(chunk, inner - done);
                    self.gather(rowStart + done, x, len);
                    grad.gather(rowStart + done, g, len);
                    for (int i = 0; i < len; i++) {
                        float xi = x[i];
                        float gi = g[i];
                        if (xi > 0) {
                            x[i] = gi;
                        } else {
                            acc += (double) xi * gi;
                            x[i] = wk * gi;
                        }
                    }
                    gradInput.scatter(rowStart + done, x, len);
                }
                long at = (long) k * Double.BYTES;
                workspace.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at,
                        workspace.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at) + acc);
            }
        }
        for (int k = 0; k < weights; k++) {
            gradWeight.set(k, (float) workspace.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, k));
        }
    }
}
