package io.github.aclnn4j.kernel;

/**
 * BinaryCrossEntropyBackward: {@code out = g·(x − y) / max((1 − x)·x, 1e-12) · w [· 1/numel]},
 * element by element in fp32, one pass over the operands (all read as self's shape), block by
 * block on the library's threads.
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
        Parallel.forEach(Blocks.count(n), Blocks.SIZE, block -> {
            Scratch s = Scratch.get();
            long start = block * Blocks.SIZE;
            int len = (int) Math.min(Blocks.SIZE, n - start);
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
        });
    }
}
