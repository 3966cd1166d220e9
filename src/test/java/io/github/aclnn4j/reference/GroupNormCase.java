package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/**
 * A random aclnnGroupNorm case: self [N, C, ...] of rank 2 to 5 and any float dtype, group a
 * divisor of C, gamma and beta present or null, eps from 1e-5 to 0.5, values with an offset (so a
 * one-pass variance would cancel), random layouts (a third of the 4-d selfs channels-last); out, meanOut and rstdOut against a float64
 * reference (two-pass biased variance, eps as float32).
 */
public final class GroupNormCase {
    private GroupNormCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, false, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case of dense tensors of one float type, maps up to 40 × 40. */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        return run(seed, dense, false);
    }

    /**
     * As {@link #run(long, int)}; with {@code largeGroups}, groups of 32K to 270K elements
     * ([N, C, H, W] maps of about 200 × 200), beyond those the kernel reads only once.
     */
    public static long[][] run(long seed, boolean largeGroups) {
        return run(seed, false, largeGroups);
    }

    private static long[][] run(long seed, boolean dense, boolean largeGroups) {
        try (CaseContext ctx = new CaseContext("aclnnGroupNorm", seed, dense)) {
            CaseRandom r = ctx.random;
            int n = largeGroups ? 1 : r.nextInt(1, 4);
            int group = r.nextInt(1, largeGroups ? 3 : 4);
            int c = group * r.nextInt(1, largeGroups ? 5 : 4);
            int rank = largeGroups ? 4 : r.nextInt(2, 6);
            long[] shape = new long[rank];
            shape[0] = n;
            shape[1] = c;
            long hxw = 1;
            for (int d = 2; d < rank; d++) {
                shape[d] = largeGroups ? r.nextInt(180, 260) : r.nextInt(1, dense && rank == 4 ? 41 : 6);
                hxw *= shape[d];
            }
            StoredType type = r.floatType();
            double eps = r.oneIn(2) ? 1e-5 : r.uniform(1e-5, 0.5);
            double offset = r.uniform(-20, 20);
            ctx.note("group", group);
            ctx.note("eps", eps);
            boolean channelsLast = !dense && rank == 4 && r.oneIn(3); // NHWC memory, the kernel's own path
            StridedLayout selfLayout = channelsLast ? StridedLayout.channelsLast(shape) : ctx.layout(shape, true);
            DeviceTensor self = ctx.input("self", type, selfLayout.withFormat(2),
                    () -> offset + r.uniform(-2, 2));
            DeviceTensor gamma = r.oneIn(4) ? null : ctx.input("gamma", type, new long[] {c}, () -> r.uniform(-2, 2));
            DeviceTensor beta = r.oneIn(4) ? null : ctx.input("beta", type, new long[] {c}, () -> r.uniform(-2, 2));
            StridedLayout outLayout = channelsLast && r.oneIn(2) ? StridedLayout.channelsLast(shape)
                    : ctx.layout(shape, false);
            DeviceTensor out = ctx.output("out", type, outLayout.withFormat(2));
            DeviceTensor mean = ctx.output("meanOut", type, new long[] {n, group});
            DeviceTensor rstd = ctx.output("rstdOut", type, new long[] {n, group});
            long hw = hxw;
            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.groupNormGetWorkspaceSize(self.tensor, gamma == null ? null : gamma.tensor,
                            beta == null ? null : beta.tensor, n, c, hw, group, eps, out.tensor, mean.tensor,
                            rstd.tensor, ws, ex),
                    Aclnn::groupNorm);

            double[] x = self.values();
            double[] g = gamma == null ? null : gamma.values();
            double[] b = beta == null ? null : beta.values();
            int perGroup = c / group;
            int m = (int) (perGroup * hxw);
            Reference.Expected outExpected = Reference.Expected.ofSize(x.length);
            Reference.Expected meanExpected = Reference.Expected.ofSize(n * group);
            Reference.Expected rstdExpected = Reference.Expected.ofSize(n * group);
            double epsF = (float) eps;
            for (int s = 0; s < n; s++) {
                for (int k = 0; k < group; k++) {
                    int first = (s * c + k * perGroup) * (int) hxw;
                    double sum = 0;
                    for (int i = 0; i < m; i++) {
                        sum += x[first + i];
                    }
                    double mu = sum / m;
                    double sq = 0;
                    for (int i = 0; i < m; i++) {
                        sq += (x[first + i] - mu) * (x[first + i] - mu);
                    }
                    double rs = 1 / Math.sqrt(sq / m + epsF);
                    meanExpected.value()[s * group + k] = mu;
                    meanExpected.bound()[s * group + k] = 64 * 0x1p-52 * Math.abs(mu);
                    rstdExpected.value()[s * group + k] = rs;
                    rstdExpected.bound()[s * group + k] = 64 * 0x1p-52 * rs;
                    for (int i = 0; i < m; i++) {
                        int ch = k * perGroup + i / (int) hxw;
                        double gm = g == null ? 1 : g[ch];
                        double bt = b == null ? 0 : b[ch];
                        double v = (x[first + i] - mu) * rs * gm + bt;
                        outExpected.value()[first + i] = v;
                        outExpected.bound()[first + i] = 8 * 0x1p-24 * (Math.abs((x[first + i] - mu) * rs * gm)
                                + Math.abs(bt) + Math.abs(mu * rs * gm) * 0x1p-20);
                    }
                }
            }
            long[] outBits = out.readOutputBits();
            Compare.check("out", type, outExpected, outBits, ctx);
            Compare.check("meanOut", type, meanExpected, mean.readOutputBits(), ctx);
            Compare.check("rstdOut", type, rstdExpected, rstd.readOutputBits(), ctx);
            self.assertUntouched();
            return new long[][] {outBits};
        }
    }
}
