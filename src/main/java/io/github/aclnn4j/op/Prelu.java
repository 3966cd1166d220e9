package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.Kernel;
import io.github.aclnn4j.kernel.PreluChannelsLastKernel;
import io.github.aclnn4j.kernel.PreluKernel;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Tiling;
import io.github.aclnn4j.kernel.TransposeCopyKernel;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;

/**
 * aclnnPrelu: the checks of CANN's implementation, in its order, and the plan. self and weight may
 * differ in dtype (they promote: FLOAT16 with BFLOAT16 is FLOAT), out may be any float dtype; the
 * channel is view dimension 1 (1 for self of rank 0 or 1).
 *
 * <p>The plan is element-wise over three views of one logical shape: self's, with its channel
 * dimension split into the weight's own dimensions longer than one (so that a weight of any shape
 * and strides is read where it lies), the weight broadcast along the others, walked in self's memory
 * order (channels innermost for channels-last memory) and cut into tiles where out's layout
 * disagrees ({@link Tiling#pieces}). A 16-bit channels-last self bound for a contiguous out of its
 * dtype is instead copied there raw and computed over in place ({@link #viaOut}).
 */
public final class Prelu {
    private static final String OP = "aclnnPrelu";

    private Prelu() {}

    public static Plan plan(TensorDesc self, TensorDesc weight, TensorDesc out) {
        Checks check = new Checks(OP, Warmup.Family.PRELU);
        check.notNull("self", self);
        check.notNull("weight", weight);
        check.notNull("out", out);
        check.profileSupports();
        check.floatDtype("self", self);
        check.floatDtype("weight", weight);
        check.floatDtype("out", out);
        DType promoted = DType.promote(self.dtype(), weight.dtype());
        // always true for float dtypes: kept for CANN's order
        check.castsTo("the promoted dtype", promoted, "out", out);
        check.rank("self", self);
        check.rank("weight", weight);
        check.rank("out", out);
        long[] shape = self.shape();
        check.shapeEquals("out", out, shape, "self's shape");
        long channels = self.rank() >= 2 ? self.dim(1) : 1;
        long weights = weight.numel();
        if (weights != channels && weights != 1) {
            throw Status.invalid(OP + ": weight must have 1 element or C = " + channels + " elements (C is "
                    + (self.rank() >= 2 ? "self.shape[1]" : "1 for self of rank " + self.rank()) + "), got " + weights);
        }
        check.usable("self", self, "weight", weight, "out", out);
        if (self.isEmpty() || weight.isEmpty()) {
            return check.noWork();
        }
        // the weight's dimensions longer than one, whose sizes multiply to C (none for one weight)
        int[] kept = weights == 1 ? new int[0]
                : java.util.stream.IntStream.range(0, weight.rank()).filter(d -> weight.dim(d) > 1).toArray();
        int rank = kept.length == 0 ? shape.length : shape.length - 1 + kept.length;
        long[] logical = new long[rank];
        long[] xStrides = new long[rank];
        long[] oStrides = new long[rank];
        long[] wStrides = new long[rank]; // zero: broadcast
        if (kept.length == 0) {
            System.arraycopy(shape, 0, logical, 0, rank);
            System.arraycopy(self.strides(), 0, xStrides, 0, rank);
            System.arraycopy(out.strides(), 0, oStrides, 0, rank);
        } else {
            logical[0] = shape[0];
            xStrides[0] = self.strides()[0];
            oStrides[0] = out.strides()[0];
            long inner = weights;
            for (int k = 0; k < kept.length; k++) { // dimension 1 split as the weight's are
                long size = weight.dim(kept[k]);
                inner /= size;
                logical[1 + k] = size;
                xStrides[1 + k] = self.strides()[1] * inner;
                oStrides[1 + k] = out.strides()[1] * inner;
                wStrides[1 + k] = weight.strides()[kept[k]];
            }
            for (int d = 2; d < shape.length; d++) {
                logical[d - 1 + kept.length] = shape[d];
                xStrides[d - 1 + kept.length] = self.strides()[d];
                oStrides[d - 1 + kept.length] = out.strides()[d];
            }
        }
        StridedView x = check.view("self", self, logical, xStrides);
        StridedView w = check.view("weight", weight, logical, wStrides);
        StridedView o = check.view("out", out, logical, oStrides);
        Kernel viaOut = viaOut(self, out, promoted, logical, x, w, o);
        if (viaOut != null) {
            return check.plan(0, self.numel(), out.dtype(), viaOut);
        }
        StridedView[][] pieces = Tiling.pieces(logical, x, w, o);
        Kernel[] kernels = new Kernel[pieces.length];
        for (int i = 0; i < pieces.length; i++) {
            StridedView[] p = pieces[i];
            kernels[i] = new PreluKernel(p[0], p[1], p[2], promoted);
        }
        return check.plan(0, self.numel(), out.dtype(), Kernel.inOrder(kernels));
    }

    /** Positions per sample at least for {@link #viaOut}: its in-place pass takes runs this long directly. */
    private static final long MIN_POSITIONS = 64;

    /**
     * A channels-last self into a contiguous out of its dtype: FLOAT and BFLOAT16 computed and
     * transposed in one pass ({@link PreluChannelsLastKernel}) while the direct loops are warm; else
     * a 16-bit self's values copied into out unchanged ({@link TransposeCopyKernel}), then PReLU over
     * out in place, where it is dense. The same operations per element as the tiled path; null where
     * neither applies.
     */
    private static Kernel viaOut(TensorDesc self, TensorDesc out, DType promoted, long[] logical, StridedView x,
            StridedView w, StridedView o) {
        if (self.dtype() != out.dtype() || promoted != out.dtype() || self.rank() < 3
                || logical.length != self.rank()) {
            return null;
        }
        long samples = logical[0];
        long channels = logical[1];
        long positions = self.numel() / (samples * channels);
        if (positions < MIN_POSITIONS) {
            return null;
        }
        StridedView inMemoryOrder = x.permute(Shapes.channelsLastOrder(logical.length));
        Kernel fused = PreluChannelsLastKernel.of(inMemoryOrder, w, o, samples, positions, channels);
        if (fused != null) {
            return fused;
        }
        Kernel copy = TransposeCopyKernel.of(inMemoryOrder, o, samples, positions, channels);
        return copy == null ? null : Kernel.inOrder(new Kernel[] {copy, new PreluKernel(o, w, o, promoted)});
    }
}
