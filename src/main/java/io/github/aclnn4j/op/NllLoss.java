package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.NllLossKernel;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;
import java.util.List;

/**
 * aclnnNLLLoss: the checks of CANN's implementation, in its order, and the plan. weight is
 * required and of self's dtype; out and totalWeightOut any float dtype of the document's list
 * (CANN's code asks only that self's casts to it); out is
 * [N] for reduction none with self [N, C], else one element; totalWeightOut is any one-element
 * shape, written for mean and sum only. An empty self gives NaN (mean) or 0 (sum) and totalWeight
 * 0; a self of C = 0 with targets is refused. A target outside [0, C) that is not ignoreIndex is a
 * run-time error (361001 from the next synchronize), as for NLLLossBackward.
 */
public final class NllLoss {
    private static final String OP = "aclnnNLLLoss";
    private static final List<DType> TARGET_TYPES = List.of(DType.INT64, DType.UINT8, DType.INT32);

    private NllLoss() {}

    public static Plan plan(TensorDesc self, TensorDesc target, TensorDesc weight, long reduction, long ignoreIndex,
            TensorDesc out, TensorDesc totalWeightOut) {
        Checks check = new Checks(OP, Warmup.Family.NONE);
        check.notNull("self", self);
        check.notNull("target", target);
        check.notNull("weight", weight);
        check.notNull("out", out);
        check.notNull("totalWeightOut", totalWeightOut);
        check.profileSupports();
        check.sameDtype("weight", weight, "self", self);
        check.castsTo("self's dtype", self.dtype(), "out", out);
        check.castsTo("self's dtype", self.dtype(), "totalWeightOut", totalWeightOut);
        // beyond CANN's code, which only asks for a cast: the document's dtype list
        check.floatDtype("out", out);
        check.floatDtype("totalWeightOut", totalWeightOut);
        check.floatDtype("self", self);
        check.dtypeIn("target", target, TARGET_TYPES);
        check.reduction(reduction);
        if (self.rank() < 1 || self.rank() > 2) {
            throw Status.invalid(OP + ": self must be 1-D [C] or 2-D [N, C], got " + Shapes.str(self.shape()));
        }
        if (target.rank() > 1) {
            throw Status.invalid(OP + ": target must have rank <= 1, got " + Shapes.str(target.shape()));
        }
        long classes = self.dim(self.rank() - 1);
        long rows = self.rank() == 2 ? self.dim(0) : 1;
        if (self.rank() == 2) {
            check.shapeEquals("target", target, new long[] {rows}, "[N] for self [N, C]");
        } else {
            check.shapeEquals("target", target, new long[0], "0-d for self [C]");
        }
        check.shapeEquals("weight", weight, new long[] {classes}, "[C]");
        if (reduction == 0 && self.rank() == 2) {
            check.shapeEquals("out", out, new long[] {rows}, "[N] for reduction none");
        } else if (out.rank() > 1 || out.numel() != 1) {
            throw Status.invalid(OP + ": out must have one element (shape [] or [1]), got " + Shapes.str(out.shape()));
        }
        if (totalWeightOut.numel() != 1) {
            throw Status.invalid(OP + ": totalWeightOut must have one element, got "
                    + Shapes.str(totalWeightOut.shape()));
        }
        if (self.isEmpty() && classes == 0 && target.numel() > 0) {
            throw Status.invalid(OP + ": target is out of bounds: self " + Shapes.str(self.shape())
                    + " has no classes but target has " + target.numel() + " elements");
        }
        check.usable("self", self, "target", target, "weight", weight, "out", out, "totalWeightOut", totalWeightOut);
        int mode = (int) reduction;
        StridedView o = check.view("out", out);
        StridedView tw = check.view("totalWeightOut", totalWeightOut);
        if (self.isEmpty()) {
            return mode == 0 ? check.noWork()
                    : check.plan(0, 1, self.dtype(), ws -> NllLossKernel.reduceEmpty(mode, o, tw));
        }
        StridedView x = check.view("self", self);
        StridedView t = check.view("target", target);
        StridedView w = check.view("weight", weight);
        return check.plan(NllLossKernel.workspaceBytes(rows), rows, self.dtype(),
                new NllLossKernel(x, t, w, rows, classes, mode, ignoreIndex, o, tw));
    }
}
