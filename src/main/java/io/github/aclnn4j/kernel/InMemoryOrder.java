package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import java.lang.foreign.MemorySegment;

/**
 * An element-wise 16-bit call whose inputs all lie in one permuted order (transposed, or
 * channels-last: a {@link HalfTransposeKernel.Permutation}) and whose out is dense: computed in
 * that order, where every input is dense and the direct loops take them, into the workspace, then
 * moved raw into out ({@link HalfTransposeKernel#fromWorkspace}). One transposing copy, of the
 * result, instead of the tiled path's transposing panels around conversions to float and back, or
 * a copy of every input. Each element gets the same operations, so the same bits as in any other
 * order.
 */
final class InMemoryOrder implements Staged, OverWorkspace.Factory {
    /** The operator's element-wise kernel over its inputs, as given, and an output view. */
    interface Call {
        Kernel over(StridedView[] inputs, StridedView out);
    }

    private final Call call;
    /** The inputs permuted into memory order (null where absent). */
    private final StridedView[] inputs;
    private final DType dtype;
    private final long[] shape;
    private final HalfTransposeKernel back;
    private final OverWorkspace kernel = new OverWorkspace(this);

    private InMemoryOrder(Call call, StridedView[] inputs, DType dtype, long[] shape, HalfTransposeKernel back) {
        this.call = call;
        this.inputs = inputs;
        this.dtype = dtype;
        this.shape = shape;
        this.back = back;
    }

    /**
     * The call of {@code call} over {@code inputs} (views of logical {@code shape}; null for one
     * absent) into {@code out} in the order the first input lies in; null where that does not
     * apply: out not dense or not 16-bit, the first input in no {@link HalfTransposeKernel.Permutation}
     * order, another input neither absent, one value, nor dense of out's dtype in that order.
     */
    static InMemoryOrder of(Call call, long[] shape, StridedView out, StridedView... inputs) {
        DType dt = out.dtype();
        if ((dt != DType.BF16 && dt != DType.FLOAT16) || !DirectOperands.dense(out, dt)
                || inputs[0].dtype() != dt || DirectOperands.dense(inputs[0], dt)) {
            return null;
        }
        HalfTransposeKernel.Permutation p = HalfTransposeKernel.Permutation.of(inputs[0], shape);
        HalfTransposeKernel back = p == null ? null : HalfTransposeKernel.fromWorkspace(0, out, p);
        if (back == null) {
            return null;
        }
        int[] order = p.order();
        StridedView[] permuted = new StridedView[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            StridedView in = inputs[i];
            if (in != null && !in.isUniform() && (in.dtype() != dt || !p.fits(in))) {
                return null;
            }
            permuted[i] = in == null ? null : in.permute(order);
        }
        return new InMemoryOrder(call, permuted, dt, p.permute(shape), back);
    }

    /** The results in memory order, 2 bytes each. */
    @Override
    public long workspaceBytes() {
        return 2 * Shapes.numel(shape);
    }

    @Override
    public void run(MemorySegment workspace) {
        kernel.over(workspace).run(workspace);
        back.run(workspace);
    }

    /** The call into its results' place in {@code workspace}. */
    @Override
    public Kernel over(MemorySegment workspace) {
        StridedView results = new StridedView(workspace, 0, dtype, shape, Shapes.contiguousStrides(shape));
        return call.over(inputs, results);
    }
}
