package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.BceBackwardKernel;
import io.github.aclnn4j.kernel.Kernel;
import io.github.aclnn4j.kernel.Staged;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Tiling;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.TensorDesc;

/**
 * aclnnBinaryCrossEntropyBackward: the checks of SPEC §5.1, in order, with CANN's format rule
 * (self, target and weight under one format tag, checked after the dtypes), and the plan.
 */
public final class BinaryCrossEntropyBackward {
    private static final String OP = "aclnnBinaryCrossEntropyBackward";

    private BinaryCrossEntropyBackward() {}

    public static Plan plan(TensorDesc gradOutput, TensorDesc self, TensorDesc target, TensorDesc weight,
            long reduction, TensorDesc out) {
        Checks check = new Checks(OP, Warmup.Family.BCE_BACKWARD);
        check.notNull("gradOutput", gradOutput);
        check.notNull("self", self);
        check.notNull("target", target);
        check.notNull("out", out);
        check.profileSupports();
        check.rank("gradOutput", gradOutput);
        check.rank("self", self);
        check.rank("target", target);
        check.rank("weightOptional", weight);
        check.rank("out", out);
        check.floatDtype("self", self);
        check.floatDtype("gradOutput", gradOutput);
        check.floatDtype("target", target);
        check.floatDtype("out", out);
        check.floatDtype("weightOptional", weight);
        // CANN's code (hicann/ops-nn) requires self, target and weight to carry one format tag
        check.sameFormat("target", target, "self", self);
        if (weight != null) {
            check.sameFormat("weightOptional", weight, "self", self);
        }
        long[] shape = self.shape();
        boolean empty = self.isEmpty();
        if (!empty) {
            check.shapeEquals("out", out, shape, "self's shape");
            check.broadcastsTo("target", target, shape, "self");
            check.broadcastsTo("weightOptional", weight, shape, "self");
            check.broadcastsTo("gradOutput", gradOutput, shape, "self");
        }
        check.reduction(reduction);
        DType promoted = DType.promote(DType.promote(self.dtype(), target.dtype()), gradOutput.dtype());
        if (weight != null) {
            promoted = DType.promote(promoted, weight.dtype());
        }
        check.castsTo("the promoted dtype", promoted, "out", out);
        check.usable("gradOutput", gradOutput, "self", self, "target", target, "weightOptional", weight, "out", out);
        if (empty) {
            return check.noWork();
        }
        StridedView g = check.view("gradOutput", gradOutput, shape);
        StridedView x = check.view("self", self);
        StridedView y = check.view("target", target, shape);
        StridedView w = weight == null ? null : check.view("weightOptional", weight, shape);
        StridedView o = check.view("out", out);
        float scale = reduction == 1 ? (float) (1.0 / self.numel()) : 1f;
        // element-wise for every reduction (gradOutput carries it)
        Staged staged = BceBackwardKernel.inMemoryOrder(g, x, y, w, scale, o, shape);
        if (staged != null) {
            return check.plan(staged.workspaceBytes(), self.numel(), out.dtype(), staged);
        }
        StridedView[][] pieces = Tiling.pieces(shape, g, x, y, w, o);
        Kernel[] kernels = new Kernel[pieces.length];
        for (int i = 0; i < pieces.length; i++) {
            StridedView[] p = pieces[i];
            kernels[i] = new BceBackwardKernel(p[0], p[1], p[2], p[3], scale, p[4]);
        }
        return check.plan(0, self.numel(), out.dtype(), Kernel.inOrder(kernels));
    }
}
