package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * GroupNormBackward over data read as {@code [N, C, HxW]} with statistics {@code [N, group]}.
 * Pass 1 sums {@code dy} and {@code dy·x} per (n, c) in double into the workspace; gradBeta and
 * gradGamma reduce those over n; pass 2 writes
 * {@code dx = rstd·γ·dy + b·x + c0} with per-(n, group) coefficients.
 */
public final class GroupNormBackwardKernel {
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private GroupNormBackwardKernel() {}

    /** Workspace bytes: Σdy and Σdy·x per (n, c). */
    public static long workspaceBytes(long n, long c) {
        return 2 * n * c * Double.BYTES;
    }

    /**
     * @param gamma null for all ones
     * @param gradInput, gradGamma, gradBeta null when not requested
     */
    public static void run(StridedView dy, StridedView x, StridedView mean, StridedView rstd, StridedView gamma,
            long n, long c, long hxw, long group, StridedView gradInput, StridedView gradGamma, StridedView gradBeta,
            MemorySegment workspace) {
        long rows = n * c;
        int chunk = (int) Math.min(Math.max(hxw, 1), Blocks.SIZE);
        float[] a = new float[chunk];
        float[] b = new float[chunk];
        for (long r = 0; r < rows; r++) {
            double sdy = 0;
            double sdyx = 0;
            for (long done = 0; done < hxw; done += chunk) {
                int len = (int) Math.min(chunk, hxw - done);
                dy.gather(r * hxw + done, a, len);
                x.gather(r * hxw + done, b, len);
                for (int i = 0; i < len; i++) {
                    sdy += a[i];
                    sdyx += (double) a[i] * b[i];
                }
            }
            workspace.setAtIndex(F64, 2 * r, sdy);
            workspace.setAtIndex(F64, 2 * r + 1, sdyx);
        }
        long d = c / group;
        if (gradGamma != null || gradBeta != null) {
            for (long ch = 0; ch < c; ch++) {
                double beta = 0;
                double gam = 0;
                for (long i = 0; i < n; i++) {
                    long stat = i * group + ch / d;
                    double sdy = workspace.getAtIndex(F64, 2 * (i * c + ch));
                    double sdyx = workspace.getAtIndex(F64, 2 * (i * c + ch) + 1);
                    beta += sdy;
                    gam += (sdyx - mean.get(stat) * sdy) * rstd.get(stat);
                }
                if (gradBeta != null) {
                    gradBeta.set(ch, (float) beta);
                }
                if (gradGamma != null) {
                    gradGamma.set(ch, (float) gam);
                }
            }
        }
        if (gradInput == null) {
            return;
        }
        double m = (double) d * hxw;
        for (long i = 0; i < n; i++) {
            for (long g = 0; g < group; g++) {
                double mu = mean.get(i * group + g);
                double rs = rstd.get(i * group + g);
                double s1 = 0;
                double s2 = 0;
                for (long ch = g * d; ch < (g + 1) * d; ch++) {
                    double gm = gamma == null ? 1 : gamma.get(ch);
                    s1 += gm * workspace.getAtIndex(F64, 2 * (i * c + ch));
                    s2 += gm * workspace.getAtIndex(F64, 2 * (i * c + ch) + 1);
                }
                double coefX = (s1 * mu - s2) * rs * rs * rs / m;
                double bias = -coefX * mu - s1 * rs / m;
                for (long ch = g * d; ch < (g + 1) * d; ch++) {
                    double coefDy = rs * (gamma == null ? 1 : gamma.get(ch));
                    long row = i * c + ch;
                    for (long done = 0; done < hxw; done += chunk) {
                        int len = (int) Math.min(chunk, hxw - done);
                        dy.gather(row * hxw + done, a, len);
                        x.gather(row * hxw + done, b, len);
                        for (int k = 0; k < len; k++) {
                            a[k] = (float) (coefDy * a[k] + coefX * b[k] + bias);
                        }
                        gradInput.scatter(row * hxw + done, a, len);
                    }
                }
            }
        }
    }
}
