package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.GroupNormBackwardChannelsLastKernel;
import io.github.aclnn4j.kernel.GroupNormBackwardKernel;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.SocProfile;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.TensorDesc;

/**
 * aclnnGroupNormBackward: the checks of SPEC §5.4, in order, and the plan. Shapes are free beyond
 * their element counts: the data is read as gradOut/input [N, C, HxW] and mean/rstd [N, group].
 */
public final class GroupNormBackward {
    private static final String OP = "aclnnGroupNormBackward";
    private static final long MAX_CHANNELS_PER_GROUP = 8000;
    private static final long MAX_CHANNELS = 240000;

    private GroupNormBackward() {}

    public static Plan plan(TensorDesc gradOut, TensorDesc input, TensorDesc mean, TensorDesc rstd, TensorDesc gamma,
            long n, long c, long hxw, long group, boolean[] outputMask, TensorDesc gradInput, TensorDesc gradGamma,
            TensorDesc gradBeta) {
        Checks check = new Checks(OP, Warmup.Family.GROUP_NORM_BACKWARD);
        check.notNull("gradOut", gradOut);
        check.notNull("input", input);
        check.notNull("mean", mean);
        check.notNull("rstd", rstd);
        if (outputMask == null || outputMask.length != 3) {
            throw Status.invalid(OP + ": outputMask must have exactly 3 entries, got "
                    + (outputMask == null ? "null" : outputMask.length));
        }
        boolean wantInput = outputMask[0];
        boolean wantGamma = outputMask[1];
        boolean wantBeta = outputMask[2];
        if (wantInput) {
            check.notNull("gradInput (outputMask[0] is true)", gradInput);
        }
        if (wantGamma) {
            check.notNull("gradGammaOut (outputMask[1] is true)", gradGamma);
        }
        if (wantBeta) {
            check.notNull("gradBetaOut (outputMask[2] is true)", gradBeta);
        }
        check.profileSupports();
        check.floatDtype("gradOut", gradOut);
        check.sameDtype("input", input, "gradOut", gradOut);
        // the statistics' side: gradOut's dtype, or on Ascend 950 (regbase) also FLOAT beside a
        // 16-bit gradOut, as CANN's mixed-precision table allows
        TensorDesc statistics = gradOut;
        if (SocProfile.current().isRegbase() && mean.dtype() == DType.FLOAT) {
            statistics = mean;
        } else {
            check.sameDtype("mean", mean, "gradOut", gradOut);
        }
        String statisticsName = statistics == gradOut ? "gradOut" : "mean";
        check.sameDtype("rstd", rstd, statisticsName, statistics);
        check.sameDtype("gamma", gamma, statisticsName, statistics);
        if (wantInput) {
            check.sameDtype("gradInput", gradInput, "gradOut", gradOut);
        }
        if (wantGamma) {
            check.sameDtype("gradGammaOut", gradGamma, statisticsName, statistics);
        }
        if (wantBeta) {
            check.sameDtype("gradBetaOut", gradBeta, statisticsName, statistics);
        }
        if (n < 0 || c < 0 || hxw < 0) {
            throw Status.invalid(OP + ": N, C and HxW must be >= 0, got N=" + n + ", C=" + c + ", HxW=" + hxw);
        }
        if (group <= 0) {
            throw Status.invalid(OP + ": group must be > 0, got " + group);
        }
        if (c % group != 0) {
            throw Status.invalid(OP + ": C (" + c + ") must be divisible by group (" + group + ")");
        }
        if (SocProfile.current().hasA2Rules()) {
            if (c / group > MAX_CHANNELS_PER_GROUP) {
                throw Status.invalid(OP + ": C / group must be <= " + MAX_CHANNELS_PER_GROUP + " on "
                        + SocProfile.current().socName() + ", got " + c + " / " + group + " = " + (c / group));
            }
            if (c > MAX_CHANNELS) {
                throw Status.invalid(OP + ": C must be <= " + MAX_CHANNELS + " on " + SocProfile.current().socName()
                        + ", got " + c);
            }
        }
        check.rank("gradOut", gradOut); // CANN checks gradOut's rank alone; the others' shapes are free
        long total = product(n, c, hxw);
        long stats = product(n, group, 1);
        countEquals(gradOut, "gradOut", total, "N * C * HxW");
        countEquals(input, "input", total, "N * C * HxW");
        countEquals(mean, "mean", stats, "N * group");
        countEquals(rstd, "rstd", stats, "N * group");
        if (gamma != null) {
            countEquals(gamma, "gamma", c, "C");
        }
        long[] gammaShape = gamma != null ? gamma.shape() : new long[] {c};
        String gammaWhat = gamma != null ? "gamma's shape" : "[C], as gamma is null";
        if (wantInput) {
            check.shapeEquals("gradInput", gradInput, input.shape(), "input's shape");
        }
        if (wantGamma) {
            check.shapeEquals("gradGammaOut", gradGamma, gammaShape, gammaWhat);
        }
        if (wantBeta) {
            check.shapeEquals("gradBetaOut", gradBeta, gammaShape, gammaWhat);
        }
        check.usable("gradOut", gradOut, "input", input, "mean", mean, "rstd", rstd, "gamma", gamma);
        if (wantInput) {
            check.usable("gradInput", gradInput);
        }
        StridedView gg = wantGamma ? check.view("gradGammaOut", gradGamma) : null;
        StridedView gb = wantBeta ? check.view("gradBetaOut", gradBeta) : null;
        if (total == 0) {
            return check.plan(0, c, gradOut.dtype(), ws -> {
                if (gg != null) {
                    gg.fill(0, c, 0f);
                }
                if (gb != null) {
                    gb.fill(0, c, 0f);
                }
            });
        }
        StridedView mu = check.view("mean", mean);
        StridedView rs = check.view("rstd", rstd);
        StridedView gm = gamma == null ? null : check.view("gamma", gamma);
        long[] dys = GroupNorm.sampleStrides(gradOut, n, c, hxw);
        long[] xs = GroupNorm.sampleStrides(input, n, c, hxw);
        long[] gis = wantInput ? GroupNorm.sampleStrides(gradInput, n, c, hxw) : null;
        if (GroupNorm.channelsInnermost(dys, c, hxw) && GroupNorm.channelsInnermost(xs, c, hxw)
                && (!wantInput || gis != null)) {
            // channels innermost in memory: walked per sample as [HxW, C]
            StridedView dy = GroupNorm.positionMajor(check, "gradOut", gradOut, dys, n, c, hxw);
            StridedView x = GroupNorm.positionMajor(check, "input", input, xs, n, c, hxw);
            StridedView gi = wantInput ? GroupNorm.positionMajor(check, "gradInput", gradInput, gis, n, c, hxw) : null;
            return check.plan(GroupNormBackwardKernel.workspaceBytes(n, c), total, gradOut.dtype(),
                    new GroupNormBackwardChannelsLastKernel(dy, x, mu, rs, gm, n, c, hxw, group, gi, gg, gb));
        }
        StridedView dy = check.view("gradOut", gradOut);
        StridedView x = check.view("input", input);
        StridedView gi = wantInput ? check.view("gradInput", gradInput) : null;
        GroupNormBackwardKernel kernel = new GroupNormBackwardKernel(dy, x, mu, rs, gm, n, c, hxw, group, gi, gg, gb);
        return check.plan(kernel.workspaceBytes(), total, gradOut.dtype(), kernel);
    }

    private static long product(long a, long b, long d) {
        try {
            return Math.multiplyExact(Math.multiplyExact(a, b), d);
        } catch (ArithmeticException e) {
            throw Status.invalid(OP + ": N * C * HxW overflows (N=" + a + ", " + b + ", " + d + ")");
        }
    }

    private static void countEquals(TensorDesc t, String name, long expected, String what) {
        if (t.numel() != expected) {
            throw Status.invalid(OP + ": " + name + " must have " + what + " = " + expected + " elements, got "
                    + t.numel() + " " + java.util.Arrays.toString(t.shape()));
        }
    }
}
