package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.BceWithLogitsKernel;
import io.github.aclnn4j.kernel.Kernel;
import io.github.aclnn4j.kernel.Staged;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Tiling;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;

/** aclnnBinaryCrossEntropyWithLogits: the checks of SPEC §5.3, in order, and the plan. */
public final class BinaryCrossEntropyWithLogits {
    private static final String OP = "aclnnBinaryCrossEntropyWithLogits";

    private BinaryCrossEntropyWithLogits() {}

    public static Plan plan(TensorDesc self, TensorDesc target, TensorDesc weight, TensorDesc posWeight,
            long reduction, TensorDesc out) {
        Checks check = new Checks(OP, Warmup.Family.BCE_WITH_LOGITS);
        check.notNull("self", self);
        check.notNull("target", target);
        check.notNull("out", out);
        check.profileSupports();
        check.floatDtype("self", self);
        check.floatDtype("target", target);
        check.floatDtype("out", out);
        check.sameDtype("out", out, "target", target);
        check.floatDtype("weightOptional", weight);
        check.floatDtype("posWeightOptional", posWeight);
        check.reduction(reduction);
        check.rank("self", self);
        check.rank("target", target);
        check.rank("weightOptional", weight);
        check.rank("posWeightOptional", posWeight);
        check.rank("out", out);
        long[] shape = self.shape();
        check.shapeEquals("target", target, shape, "self's shape");
        if (!target.isEmpty()) {
            check.broadcastsTo("weightOptional", weight, shape, "target");
            check.broadcastsTo("posWeightOptional", posWeight, shape, "target");
        }
        if (reduction == 0) {
            check.shapeEquals("out", out, shape, "self's shape, for reduction none");
        } else if (out.numel() != 1 || out.rank() > 1 || out.isEmpty()) {
            throw Status.invalid(OP + ": out must have exactly one element (shape [1] or []) for reduction "
                    + (reduction == 1 ? "mean" : "sum") + ", got " + Shapes.str(out.shape()));
        }
        check.usable("self", self, "target", target, "weightOptional", weight, "posWeightOptional", posWeight,
                "out", out);
        DType compute = DType.promote(self.dtype(), target.dtype());
        int mode = (int) reduction;
        if (self.isEmpty()) {
            if (mode == 0) {
                return check.noWork();
            }
            StridedView o = check.view("out", out);
            return check.plan(0, 1, compute, ws -> BceWithLogitsKernel.reduceEmpty(mode, o));
        }
        StridedView x = check.view("self", self);
        StridedView y = check.view("target", target);
        StridedView w = weight == null ? null : check.view("weightOptional", weight, shape);
        StridedView pw = posWeight == null ? null : check.view("posWeightOptional", posWeight, shape);
        StridedView o = check.view("out", out);
        Staged staged = BceWithLogitsKernel.staged(x, y, w, pw, compute, mode, o, shape);
        if (staged != null) {
            return check.plan(staged.workspaceBytes(), self.numel(), compute, staged);
        }
        if (mode == 0) { // element-wise
            StridedView[][] pieces = Tiling.pieces(shape, x, y, w, pw, o);
            Kernel[] kernels = new Kernel[pieces.length];
            for (int i = 0; i < pieces.length; i++) {
                StridedView[] p = pieces[i];
                kernels[i] = new BceWithLogitsKernel(p[0], p[1], p[2], p[3], compute, mode, p[4]);
            }
            return check.plan(0, self.numel(), compute, Kernel.inOrder(kernels));
        }
        return check.plan(BceWithLogitsKernel.workspaceBytes(self.numel()), self.numel(), compute,
                new BceWithLogitsKernel(x, y, w, pw, compute, mode, o));
    }
}
