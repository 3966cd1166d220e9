package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.GroupNormChannelsLastKernel;
import io.github.aclnn4j.kernel.GroupNormKernel;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;

/**
 * aclnnGroupNorm: the checks of CANN's implementation, in its order (nulls; dtypes, all self's;
 * group, C % group and eps; ranks and shapes; formats), and the plan. gamma and beta may be null
 * (ones, zeros); meanOut and rstdOut are exactly [N, group]; self and out carry one format tag, and
 * self's is not NHWC, HWCN or NDHWC; an empty self fills meanOut with 0 and rstdOut with NaN.
 */
public final class GroupNorm {
    private static final String OP = "aclnnGroupNorm";
    private static final int NHWC = 1;
    private static final int HWCN = 16;
    private static final int NDHWC = 27;

    private GroupNorm() {}

    public static Plan plan(TensorDesc self, TensorDesc gamma, TensorDesc beta, long n, long c, long hxw, long group,
            double eps, TensorDesc out, TensorDesc meanOut, TensorDesc rstdOut) {
        Checks check = new Checks(OP, Warmup.Family.GROUP_NORM);
        check.notNull("self", self);
        check.notNull("out", out);
        check.notNull("meanOut", meanOut);
        check.notNull("rstdOut", rstdOut);
        check.profileSupports();
        check.floatDtype("self", self);
        check.sameDtype("gamma", gamma, "self", self);
        check.sameDtype("beta", beta, "self", self);
        check.sameDtype("out", out, "self", self);
        check.sameDtype("meanOut", meanOut, "self", self);
        check.sameDtype("rstdOut", rstdOut, "self", self);
        if (group <= 0) {
            throw Status.invalid(OP + ": group must be > 0, got " + group);
        }
        if (c % group != 0) {
            throw Status.invalid(OP + ": C = " + c + " must be a multiple of group = " + group);
        }
        if (!(eps > 0)) {
            throw Status.invalid(OP + ": eps must be > 0, got " + eps);
        }
        if (self.rank() < 2) {
            throw Status.invalid(OP + ": self must have at least 2 dimensions, got " + Shapes.str(self.shape()));
        }
        check.rank("self", self);
        check.shapeEquals("out", out, self.shape(), "self's shape");
        check.shapeEquals("meanOut", meanOut, new long[] {n, group}, "[N, group]");
        check.shapeEquals("rstdOut", rstdOut, new long[] {n, group}, "[N, group]");
        long spatial = 1;
        for (int d = 2; d < self.rank(); d++) {
            spatial *= self.dim(d);
        }
        if (self.dim(0) != n || self.dim(1) != c || spatial != hxw) {
            throw Status.invalid(OP + ": self " + Shapes.str(self.shape()) + " must be [N, C, ...] with N = " + n
                    + ", C = " + c + " and the trailing dimensions' product HxW = " + hxw);
        }
        if (gamma != null) {
            check.shapeEquals("gamma", gamma, new long[] {c}, "1-D [C]");
        }
        if (beta != null) {
            check.shapeEquals("beta", beta, new long[] {c}, "1-D [C]");
        }
        check.sameFormat("out", out, "self", self);
        if (self.format() == NHWC || self.format() == HWCN || self.format() == NDHWC
                || Checks.isPrivateFormat(self.format())) {
            throw Status.invalid(OP + ": self format " + self.format()
                    + " is not supported; expected ND, NCL, NCHW or NCDHW");
        }
        check.usable("self", self, "gamma", gamma, "beta", beta, "out", out, "meanOut", meanOut, "rstdOut", rstdOut);
        StridedView mean = check.view("meanOut", meanOut);
        StridedView rstd = check.view("rstdOut", rstdOut);
        if (self.isEmpty()) {
            return check.plan(0, meanOut.numel(), self.dtype(), ws -> GroupNormKernel.fillEmpty(mean, rstd));
        }
        StridedView g = gamma == null ? null : check.view("gamma", gamma);
        StridedView b = beta == null ? null : check.view("beta", beta);
        long[] xs = sampleStrides(self, n, c, hxw);
        long[] os = sampleStrides(out, n, c, hxw);
        if (channelsInnermost(xs, c, hxw) && os != null) {
            // channels innermost in memory: walked per sample as [HxW, C]
            StridedView x = positionMajor(check, "self", self, xs, n, c, hxw);
            StridedView o = positionMajor(check, "out", out, os, n, c, hxw);
            return check.plan(0, self.numel(), self.dtype(),
                    new GroupNormChannelsLastKernel(x, g, b, c, hxw, group, eps, o, mean, rstd));
        }
        StridedView x = check.view("self", self);
        StridedView o = check.view("out", out);
        GroupNormKernel kernel = new GroupNormKernel(x, g, b, c, hxw, group, eps, o, mean, rstd);
        return check.plan(kernel.workspaceBytes(), self.numel(), self.dtype(), kernel);
    }

    /**
     * The element strides of {@code t} read as {@code [n, c, hxw]}, or null when it is not
     * {@code [n, c, ...]} with spatial dimensions that merge into one evenly strided run of hxw.
     */
    static long[] sampleStrides(TensorDesc t, long n, long c, long hxw) {
        if (t.rank() < 2 || t.dim(0) != n || t.dim(1) != c || t.numel() != n * c * hxw) {
            return null;
        }
        long spatial = 0;
        long span = -1; // elements one step of the next outer spatial dimension must skip; -1 before the first
        for (int d = t.rank() - 1; d >= 2; d--) {
            if (t.dim(d) == 1) {
                continue;
            }
            if (span < 0) {
                spatial = t.strides()[d];
            } else if (t.strides()[d] != span) {
                return null;
            }
            span = t.strides()[d] * t.dim(d);
        }
        return new long[] {t.strides()[0], t.strides()[1], spatial};
    }

    /**
     * Whether {@link #sampleStrides} {@code s} put channels innermost in memory with positions C
     * apart (NHWC memory), for more than one channel and position: the channels-last kernels' case.
     */
    static boolean channelsInnermost(long[] s, long c, long hxw) {
        return s != null && c > 1 && hxw > 1 && s[1] == 1 && s[2] == c;
    }

    /** A {@code [n, hxw, c]} view of a tensor whose {@link #sampleStrides} are {@code s}. */
    static StridedView positionMajor(Checks check, String name, TensorDesc t, long[] s, long n, long c, long hxw) {
        return check.view(name, t, new long[] {n, hxw, c}, new long[] {s[0], s[2], s[1]});
    }
}
