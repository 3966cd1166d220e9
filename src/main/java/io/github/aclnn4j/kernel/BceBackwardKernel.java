package io.github.aclnn4j.kernel;

/**
 * BinaryCrossEntropyBackward: {@code out = g·(x − y) / max((1 − x)·x, 1e-12) · w [· 1/numel]},
 * element by element in fp32, one pass over the operands (all read as self's shape).
 */
public final class BceBackwardKernel {
    private static final float EPSILON = 1e-12f;

    private BceBackwardKernel() {}

    /**
     * @param weight null when absent
     * @param scale 1 for none/sum, 1/numel for mean
     */
    public static void run(StridedView grad, StridedView self, StridedView target, StridedView weight, float scale,
            StridedView out) {
        long n = out.numel();
        int chunk = (int) Math.min(n, Blocks.SIZE);
        float[] g = new float[chunk];
        float[] x = new float[chunk];
        float[] y = new float[chunk];
        float[] w = weight == null ? null : new float[chunk];
        for (long start = 0; start < n; start += chunk) {
            int len = (int) Math.min(chunk, n - start);
            grad.gather(start, g, len);
            self.gather(start, x, len);
            target.gather(start, y, len);
            if (w != null) {
                weight.gather(start, w, len);
            }
            for (int i = 0; i < len; i++) {
                float xi = x[i];
                float v = g[i] * (xi - y[i]) / Math.max((1f - xi) * xi, EPSILON);
                if (w != null) {
                    v *= w[i];
                }
                g[i] = v * scale;
            }
            out.scatter(start, g, len);
        }
    }
}
