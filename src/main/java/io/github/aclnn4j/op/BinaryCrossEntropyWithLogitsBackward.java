package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.BceWithLogitsBackwardKernel;
import io.github.aclnn4j.kernel.Kernel;
import io.github.aclnn4j.kernel.Staged;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Tiling;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.TensorDesc;

/**
 * aclnnBinaryCrossEntropyWithLogitsBackward: the checks of CANN's implementation, in its order, and
 * the plan. Where CANN's code and its document differ, the code decides: inputs of different float
 * dtypes promote, out's dtype must be target's (not self's), self, target and out must carry one
 * format tag, and an empty self skips the shape checks and writes nothing. The gradient always has
 * self's shape; the reduction only decides the scale (1/numel for mean). Beyond CANN: rank ≤ 8 for
 * every tensor (CANN's code checks out alone).
 */
public final class BinaryCrossEntropyWithLogitsBackward {
    private static final String OP = "aclnnBinaryCrossEntropyWithLogitsBackward";

    private BinaryCrossEntropyWithLogitsBackward() {}

    public static Plan plan(TensorDesc gradOutput, TensorDesc self, TensorDesc target, TensorDesc weight,
            TensorDesc posWeight, long reduction, TensorDesc out) {
        Checks check = new Checks(OP, Warmup.Family.BCE_WITH_LOGITS_BACKWARD);
        check.notNull("gradOutput", gradOutput);
        check.notNull("self", self);
        check.notNull("target", target);
        check.notNull("out", out);
        check.profileSupports();
        check.rank("out", out);
        check.rank("gradOutput", gradOutput);
        check.rank("self", self);
        check.rank("target", target);
        check.rank("weightOptional", weight);
        check.rank("posWeightOptional", posWeight);
        check.floatDtype("gradOutput", gradOutput);
        check.floatDtype("self", self);
        check.floatDtype("target", target);
        check.floatDtype("weightOptional", weight);
        check.floatDtype("posWeightOptional", posWeight);
        check.floatDtype("out", out);
        check.sameDtype("out", out, "target", target);
        check.sameFormat("target", target, "self", self);
        check.sameFormat("out", out, "self", self);
        long[] shape = self.shape();
        if (!self.isEmpty()) {
            check.shapeEquals("target", target, shape, "self's shape");
            check.shapeEquals("out", out, shape, "self's shape");
            check.broadcastsTo("gradOutput", gradOutput, shape, "self");
            check.broadcastsTo("weightOptional", weight, shape, "self");
            check.broadcastsTo("posWeightOptional", posWeight, shape, "self");
        }
        check.reduction(reduction);
        check.usable("gradOutput", gradOutput, "self", self, "target", target, "weightOptional", weight,
                "posWeightOptional", posWeight, "out", out);
        if (self.isEmpty()) {
            return check.noWork();
        }
        DType promoted = DType.promote(DType.promote(self.dtype(), target.dtype()), gradOutput.dtype());
        if (weight != null) {
            promoted = DType.promote(promoted, weight.dtype());
        }
        if (posWeight != null) {
            promoted = DType.promote(promoted, posWeight.dtype());
        }
        // always true for float dtypes: kept for CANN's order
        check.castsTo("the promoted dtype", promoted, "out", out);
        StridedView g = check.view("gradOutput", gradOutput, shape);
        StridedView x = check.view("self", self);
        StridedView y = check.view("target", target);
        StridedView w = weight == null ? null : check.view("weightOptional", weight, shape);
        StridedView pw = posWeight == null ? null : check.view("posWeightOptional", posWeight, shape);
        StridedView o = check.view("out", out);
        float scale = reduction == 1 ? (float) (1.0 / self.numel()) : 1f;
        Staged staged = BceWithLogitsBackwardKernel.inMemoryOrder(g, x, y, w, pw, scale, o, shape);
        if (staged != null) {
            return check.plan(staged.workspaceBytes(), self.numel(), out.dtype(), staged);
        }
        StridedView[][] pieces = Tiling.pieces(shape, g, x, y, w, pw, o);
        Kernel[] kernels = new Kernel[pieces.length];
        for (int i = 0; i < pieces.length; i++) {
            StridedView[] p = pieces[i];
            kernels[i] = new BceWithLogitsBackwardKernel(p[0], p[1], p[2], p[3], p[4], scale, p[5]);
        }
        return check.plan(0, self.numel(), out.dtype(), Kernel.inOrder(kernels));
    }
}
