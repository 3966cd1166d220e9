package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * GroupNormBackward over data read as {@code [N, C, HxW]} with statistics {@code [N, group]}.
 * Pass 1 sums {@code dy} and {@code dy·x} per (n, c) row in double into the workspace; gradBeta
 * and gradGamma reduce those over n; the per-(n, group) coefficients go to the workspace too; pass
 * 2 writes {@code dx = rstd·γ·dy + b·x + c0}. Both passes run rows in parallel; every sum has a
 * fixed order, so the result does not depend on the thread count.
 */
public final class GroupNormBackwardKernel {
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private GroupNormBackwardKernel() {}

    /** Workspace bytes: Σdy and Σdy·x per (n, c), then (b, c0) per (n, group). */
    public static long workspaceBytes(long n, long c, long group) {
        return (2 * n * c + 2 * n * group) * Double.BYTES;
    }

    /**
     * @param gamma null for all ones
     * @param gradInput, gradGamma, gradBeta null when not requested
     */
    public static void run(StridedView dy, StridedView x, StridedView mean, StridedView rstd, StridedView gamma,
            long n, long c, long hxw, long group, StridedView gradInput, StridedView gradGamma, StridedView gradBeta,
            MemorySegment workspace) {
        long rows = n * c;
        long rowsPerTask = Math.max(1, Blocks.SIZE / hxw);
        long tasks = (rows + rowsPerTask - 1) / rowsPerTask;
        Parallel.forEach(tasks, rowsPerTask * hxw, t -> {
            for (long r = t * rowsPerTask, end = Math.min(rows, r + rowsPerTask); r < end; r++) {
                rowSums(dy, x, r, hxw, workspace);
            }
        });
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
        long coefficients = 2 * rows;
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
                workspace.setAtIndex(F64, coefficients + 2 * (i * group + g), coefX);
                workspace.setAtIndex(F64, coefficients + 2 * (i * group + g) + 1, bias);
            }
        }
        Parallel.forEach(tasks, rowsPerTask * hxw, t -> {
            for (long r = t * rowsPerTask, end = Math.min(rows, r + rowsPerTask); r < end; r++) {
                long i = r / c;
                long ch = r % c;
                long stat = i * group + ch / d;
                double coefDy = rstd.get(stat) * (gamma == null ? 1 : gamma.get(ch));
                double coefX = workspace.getAtIndex(F64, coefficients + 2 * stat);
                double bias = workspace.getAtIndex(F64, coefficients + 2 * stat + 1);
                rowGradInput(dy, x, gradInput, r, hxw, coefDy, coefX, bias);
            }
        });
    }

    private static void rowSums(StridedView dy, StridedView x, long row, long hxw, MemorySegment workspace) {
        Scratch s = Scratch.get();
        float[] a = s.a;
        float[] b = s.b;
        double[] sums = s.sums(2);
        double sdy = 0;
        double sdyx = 0;
        for (long done = 0; done < hxw; done += Blocks.SIZE) {
            int len = (int) Math.min(Blocks.SIZE, hxw - done);
            dy.gather(row * hxw + done, a, len);
            x.gather(row * hxw + done, b, len);
            BulkMath.INSTANCE.sumAndDot(a, b, len, sums);
            sdy += sums[0];
            sdyx += sums[1];
        }
        workspace.setAtIndex(F64, 2 * row, sdy);
        workspace.setAtIndex(F64, 2 * row + 1, sdyx);
    }

    private static void rowGradInput(StridedView dy, StridedView x, StridedView gradInput, long row, long hxw,
            double coefDy, double coefX, double bias) {
        Scratch s = Scratch.get();
        float[] a = s.a;
        float[] b = s.b;
        for (long done = 0; done < hxw; done += Blocks.SIZE) {
            int len = (int) Math.min(Blocks.SIZE, hxw - done);
            dy.gather(row * hxw + done, a, len);
            x.gather(row * hxw + done, b, len);
            BulkMath.INSTANCE.affine(a, b, len, coefDy, coefX, bias);
            gradInput.scatter(row * hxw + done, a, len);
        }
    }
}
