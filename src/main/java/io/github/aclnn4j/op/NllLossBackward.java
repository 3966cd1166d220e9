package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.NllLossBackwardKernel;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;
import java.util.List;

/**
 * aclnnNLLLossBackward: the checks of SPEC §5.5, in order, and the plan. A target outside [0, C)
 * can only be seen when the data is read, so it fails the stream (361001 at synchronize).
 */
public final class NllLossBackward {
    private static final String OP = "aclnnNLLLossBackward";
    private static final List<DType> TARGET_TYPES = List.of(DType.INT64, DType.INT32, DType.UINT8);

    private NllLossBackward() {}

    public static Plan plan(TensorDesc gradOutput, TensorDesc self, TensorDesc target, TensorDesc weight,
            long reduction, long ignoreIndex, TensorDesc totalWeight, TensorDesc out) {
        Checks check = new Checks(OP, Warmup.Family.NONE);
        check.notNull("gradOutput", gradOutput);
        check.notNull("self", self);
        check.notNull("target", target);
        check.notNull("weight", weight);
        check.notNull("totalWeight", totalWeight);
        check.notNull("out", out);
        check.profileSupports();
        check.floatDtype("self", self);
        check.sameDtype("weight", weight, "self", self);
        check.sameDtype("gradOutput", gradOutput, "self", self);
        check.sameDtype("totalWeight", totalWeight, "self", self);
        check.castsTo("self's dtype", self.dtype(), "out", out); // SPEC 5.5(2), CANN's CanCast
        check.dtypeIn("target", target, TARGET_TYPES);
        check.reduction(reduction);
        if (self.rank() != 1 && self.rank() != 2) {
            throw Status.invalid(OP + ": self must be 1-D [C] or 2-D [N, C], got " + Shapes.str(self.shape()));
        }
        if (target.rank() > 1) {
            throw Status.invalid(OP + ": target must have rank <= 1, got " + Shapes.str(target.shape()));
        }
        boolean batched = self.rank() == 2;
        long rows = batched ? self.dim(0) : 1;
        long classes = self.dim(self.rank() - 1);
        if (batched) {
            check.shapeEquals("target", target, new long[] {rows}, "[N] for self [N, C]");
        } else {
            check.shapeEquals("target", target, new long[0], "0-d for self [C]");
        }
        check.shapeEquals("weight", weight, new long[] {classes}, "C = self.shape[-1]");
        if (totalWeight.numel() != 1 || totalWeight.isEmpty()) {
            throw Status.invalid(OP + ": totalWeight must have exactly one element, got " + Shapes.str(totalWeight.shape()));
        }
        boolean perRowGrad = reduction == 0 && batched;
        if (perRowGrad) {
            check.shapeEquals("gradOutput", gradOutput, new long[] {rows}, "[N] for reduction none with self [N, C]");
        } else if (gradOutput.numel() != 1 || gradOutput.rank() > 1 || gradOutput.isEmpty()) {
            throw Status.invalid(OP + ": gradOutput must have exactly one element and rank <= 1, got "
                    + Shapes.str(gradOutput.shape()));
        }
        check.shapeEquals("out", out, self.shape(), "self's shape");
        check.usable("gradOutput", gradOutput, "self", self, "target", target, "weight", weight,
                "totalWeight", totalWeight, "out", out);
        if (self.isEmpty()) {
            return check.noWork();
        }
        StridedView g = check.view("gradOutput", gradOutput);
        StridedView t = check.view("target", target);
        StridedView w = check.view("weight", weight);
        StridedView tw = check.view("totalWeight", totalWeight);
        StridedView o = check.view("out", out);
        int mode = (int) reduction;
        return check.plan(0, self.numel(), self.dtype(),
                new NllLossBackwardKernel(g, t, w, tw, rows, classes, mode, ignoreIndex, perRowGrad, o));
    }
}
