package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.BceKernel;
import io.github.aclnn4j.kernel.Kernel;
import io.github.aclnn4j.kernel.Staged;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Tiling;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;

/**
 * aclnnBinaryCrossEntropy: the checks of CANN's implementation, in its order, and the plan. Where
 * CANN's code and its document differ, the code decides: a null self, target or out is
 * ACLNN_ERR_INNER_NULLPTR (561103); dtypes may mix when weight is absent, and must all be self's
 * when it is present; an empty self fills out, whatever its shape, with NaN for mean and 0
 * otherwise. Beyond CANN: rank ≤ 8, and a weight that does not broadcast to self is refused.
 */
public final class BinaryCrossEntropy {
    private static final String OP = "aclnnBinaryCrossEntropy";

    private BinaryCrossEntropy() {}

    public static Plan plan(TensorDesc self, TensorDesc target, TensorDesc weight, long reduction, TensorDesc out) {
        Checks check = new Checks(OP, Warmup.Family.BCE);
        check.notNull("self", self, Status.INNER_NULLPTR);
        check.notNull("target", target, Status.INNER_NULLPTR);
        check.notNull("out", out, Status.INNER_NULLPTR);
        check.profileSupports();
        check.floatDtype("self", self);
        check.floatDtype("target", target);
        check.floatDtype("out", out);
        check.floatDtype("weight", weight);
        if (weight != null) {
            check.sameDtype("target", target, "self", self);
            check.sameDtype("weight", weight, "self", self);
            check.sameDtype("out", out, "self", self);
        }
        check.rank("self", self);
        check.rank("target", target);
        check.rank("weight", weight);
        check.rank("out", out);
        long[] shape = self.shape();
        check.shapeEquals("target", target, shape, "self's shape");
        check.reduction(reduction);
        check.broadcastsTo("weight", weight, shape, "self");
        int mode = (int) reduction;
        if (!self.isEmpty()) {
            if (mode == 0) {
                check.shapeEquals("out", out, shape, "self's shape, for reduction none");
            } else if (out.numel() != 1) {
                throw Status.invalid(OP + ": out must have exactly one element for reduction "
                        + (mode == 1 ? "mean" : "sum") + ", got " + Shapes.str(out.shape()));
            }
        }
        check.usable("self", self, "target", target, "weight", weight, "out", out);
        if (self.isEmpty()) {
            if (out.isEmpty()) {
                return check.noWork();
            }
            StridedView o = check.view("out", out);
            return check.plan(0, out.numel(), self.dtype(), ws -> BceKernel.fillEmpty(mode, o));
        }
        DType compute = self.dtype();
        StridedView x = check.view("self", self);
        StridedView y = check.view("target", target);
        StridedView w = weight == null ? null : check.view("weight", weight, shape);
        StridedView o = check.view("out", out);
        if (mode == 0) { // element-wise
            Staged staged = BceKernel.inMemoryOrder(x, y, w, compute, o, shape);
            if (staged != null) {
                return check.plan(staged.workspaceBytes(), self.numel(), compute, staged);
            }
            StridedView[][] pieces = Tiling.pieces(shape, x, y, w, o);
            Kernel[] kernels = new Kernel[pieces.length];
            for (int i = 0; i < pieces.length; i++) {
                StridedView[] p = pieces[i];
                kernels[i] = new BceKernel(p[0], p[1], p[2], mode, compute, p[3]);
            }
            return check.plan(0, self.numel(), compute, Kernel.inOrder(kernels));
        }
        return check.plan(BceKernel.workspaceBytes(self.numel()), self.numel(), compute,
                new BceKernel(x, y, w, mode, compute, o));
    }
}
