package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.PreluBackwardChannelsLastKernel;
import io.github.aclnn4j.kernel.PreluBackwardKernel;
import io.github.aclnn4j.kernel.Staged;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;

/** aclnnPreluBackward: the checks of SPEC §5.2, in order, and the plan. The channel is view dimension 1. */
public final class PreluBackward {
    private static final String OP = "aclnnPreluBackward";

    private PreluBackward() {}

    public static Plan plan(TensorDesc gradOutput, TensorDesc self, TensorDesc weight, TensorDesc gradInput,
            TensorDesc gradWeight) {
        Checks check = new Checks(OP, Warmup.Family.PRELU_BACKWARD);
        check.notNull("gradOutput", gradOutput);
        check.notNull("self", self);
        check.notNull("weight", weight);
        check.notNull("gradInput", gradInput);
        check.notNull("gradWeight", gradWeight);
        check.profileSupports();
        check.floatDtype("self", self);
        check.sameDtype("gradOutput", gradOutput, "self", self);
        check.sameDtype("weight", weight, "self", self);
        check.sameDtype("gradInput", gradInput, "self", self);
        check.sameDtype("gradWeight", gradWeight, "self", self);
        check.rank("gradOutput", gradOutput);
        check.rank("self", self);
        check.rank("weight", weight);
        check.rank("gradInput", gradInput);
        check.rank("gradWeight", gradWeight);
        long[] shape = self.shape();
        check.shapeEquals("gradInput", gradInput, shape, "self's shape");
        check.broadcastsTo("gradOutput", gradOutput, shape, "self");
        long weights = weight.numel();
        long channels = self.rank() >= 2 ? self.dim(1) : 1;
        if (weights != 1) {
            if (self.rank() < 1) {
                throw Status.invalid(OP + ": weight has " + weights + " elements, which needs self of rank >= 1, "
                        + "got a 0-d self");
            }
            if (weights != channels) {
                throw Status.invalid(OP + ": weight must have 1 element or C = " + channels
                        + " (self.shape[1]) elements, got " + weights + " " + Shapes.str(weight.shape()));
            }
            check.shapeEquals("gradWeight", gradWeight, new long[] {channels}, "1-D [C]");
        } else {
            check.shapeEquals("gradWeight", gradWeight, weight.shape(), "weight's shape");
        }
        check.usable("gradOutput", gradOutput, "self", self, "weight", weight, "gradInput", gradInput);
        StridedView gw = check.view("gradWeight", gradWeight);
        if (self.isEmpty()) {
            return check.plan(0, weights, gradInput.dtype(), ws -> gw.fill(0, weights, 0f));
        }
        StridedView g = check.view("gradOutput", gradOutput, shape);
        StridedView x = check.view("self", self);
        StridedView w = check.view("weight", weight);
        StridedView gi = check.view("gradInput", gradInput);
        long outer = self.rank() >= 2 ? self.dim(0) : 1;
        long inner = self.numel() / (outer * channels);
        PreluBackwardKernel.Layout rows = PreluBackwardKernel.Layout.of(outer, channels, inner, weights);
        PreluBackwardChannelsLastKernel fused = PreluBackwardChannelsLastKernel.of(g, x, w, gi, gw, shape, rows);
        if (fused != null) {
            return check.plan(fused.workspaceBytes(), self.numel(), gradInput.dtype(), fused);
        }
        Staged staged = PreluBackwardKernel.staged(g, x, w, gi, gw, shape, rows);
        if (staged != null) {
            return check.plan(staged.workspaceBytes(), self.numel(), gradInput.dtype(), staged);
        }
        if (self.rank() >= 3 && channels > 1 && x.innermostDimension() == 1) {
            // NCHW views of NHWC memory: read as [N, H, W, C], channels innermost, as memory lies
            int[] order = Shapes.channelsLastOrder(self.rank());
            g = g.permute(order);
            x = x.permute(order);
            gi = gi.permute(order);
            outer = self.numel() / channels;
            inner = 1;
        }
        PreluBackwardKernel.Layout layout = PreluBackwardKernel.Layout.of(outer, channels, inner, weights);
        return check.plan(layout.workspaceBytes(), self.numel(), gradInput.dtype(),
                new PreluBackwardKernel(g, x, w, gi, gw, layout));
    }
}
