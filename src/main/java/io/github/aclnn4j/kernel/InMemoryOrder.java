package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import java.lang.foreign.MemorySegment;

/**
 * An element-wise call whose inputs all lie in one permuted order (transposed, or channels-last: a
 * {@link TransposeCopyKernel.Permutation}) and whose out is dense: computed in that order, where
 * every input is dense and the direct loops take them, into the workspace, then moved raw into out
 * ({@link TransposeCopyKernel#fromWorkspace}). One transposing copy, of the result, instead of the
 * tiled path's transposing panels around conversions to float and back (16-bit), or a copy of
 * every input. FLOAT calls take it only where the tiled path cannot keep the inputs dense: when
 * their runs in memory are longer than a tile's row ({@link Tiling#tileRow}), so that each piece
 * of the tiled path would gather its inputs a row at a time (BCE backward, 2048×2048 transposed:
 * 3.8–4.1 → 2.6–3.0 ms); shorter runs stay whole in the tiles, whose direct loops read the inputs
 * in place and stage the output (channels-last, 64 channels: 2.0 ms against 2.2–2.3 here). Each
 * element gets the same operations, so the same bits as in any other order.
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
    private final TransposeCopyKernel back;
    private final OverWorkspace kernel = new OverWorkspace(this);

    private InMemoryOrder(Call call, StridedView[] inputs, DType dtype, long[] shape, TransposeCopyKernel back) {
        this.call = call;
        this.inputs = inputs;
        this.dtype = dtype;
        this.shape = shape;
        this.back = back;
    }

    /**
     * The call of {@code call} over {@code inputs} (views of logical {@code shape}; null for one
     * absent) into {@code out} in the order the first input lies in; null where that does not
     * apply: out not dense, or neither 16-bit nor FLOAT, the first input in no
     * {@link TransposeCopyKernel.Permutation} order (for FLOAT, one whose runs are longer than a tile's
     * row), another input neither absent, one value, nor dense of out's dtype in that order.
     */
    static InMemoryOrder of(Call call, long[] shape, StridedView out, StridedView... inputs) {
        DType dt = out.dtype();
        if ((dt != DType.BF16 && dt != DType.FLOAT16 && dt != DType.FLOAT) || !DirectOperands.dense(out, dt)
                || inputs[0].dtype() != dt || DirectOperands.dense(inputs[0], dt)) {
            return null;
        }
        TransposeCopyKernel.Permutation p = TransposeCopyKernel.Permutation.of(inputs[0], shape);
        if (p == null || (dt == DType.FLOAT && p.channels() <= Tiling.tileRow(Float.BYTES))) {
            return null;
        }
        TransposeCopyKernel back = TransposeCopyKernel.fromWorkspace(0, out, p);
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

    /** The results in memory order, of out's dtype. */
    @Override
    public long workspaceBytes() {
        return dtype.byteSize * Shapes.numel(shape);
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
