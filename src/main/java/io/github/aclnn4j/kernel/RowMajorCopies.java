package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import java.lang.foreign.MemorySegment;

/**
 * The 16-bit inputs of an element-wise call brought into row-major order in the call's workspace,
 * where they lie transposed or channels-last ({@link TransposeCopyKernel#rowMajorIntoWorkspace}):
 * copied raw, so that the call's kernel then reads every input densely, as its direct loops take
 * them, and computes the same bits as on inputs that were dense to begin with. Inputs already dense
 * are read where they lie.
 */
final class RowMajorCopies {
    private final StridedView[] inputs;
    /** Per input, its copy; null for an input read where it lies. */
    private final TransposeCopyKernel[] copies;
    private final long[] at;
    private final DType dtype;
    private final long[] shape;
    private final long[] rowMajor;
    private final long endByte;

    private RowMajorCopies(StridedView[] inputs, TransposeCopyKernel[] copies, long[] at, DType dtype, long[] shape,
            long endByte) {
        this.inputs = inputs;
        this.copies = copies;
        this.at = at;
        this.dtype = dtype;
        this.shape = shape.clone();
        this.rowMajor = Shapes.contiguousStrides(shape);
        this.endByte = endByte;
    }

    /**
     * The copies of {@code inputs} (views of logical {@code shape}, each of 16-bit {@code dtype})
     * into the workspace from byte {@code workspaceAt}; null unless each input is dense in native
     * memory or lies in an order {@link TransposeCopyKernel#rowMajorIntoWorkspace} copies, and one at
     * least is to be copied.
     */
    static RowMajorCopies of(DType dtype, long[] shape, long workspaceAt, StridedView... inputs) {
        if (dtype != DType.BF16 && dtype != DType.FLOAT16) {
            return null;
        }
        TransposeCopyKernel[] copies = new TransposeCopyKernel[inputs.length];
        long[] at = new long[inputs.length];
        long next = (workspaceAt + 63) / 64 * 64;
        boolean any = false;
        for (int i = 0; i < inputs.length; i++) {
            if (inputs[i].dtype() != dtype) {
                return null;
            }
            if (DirectOperands.dense(inputs[i], dtype)) {
                continue;
            }
            copies[i] = TransposeCopyKernel.rowMajorIntoWorkspace(inputs[i], shape, next);
            if (copies[i] == null) {
                return null;
            }
            at[i] = next;
            next += (2 * inputs[i].numel() + 63) / 64 * 64;
            any = true;
        }
        return any ? new RowMajorCopies(inputs.clone(), copies, at, dtype, shape, next) : null;
    }

    /** Workspace bytes up to the end of the last copy. */
    long endByte() {
        return endByte;
    }

    /** Runs the copies into {@code workspace}. */
    void run(MemorySegment workspace) {
        for (TransposeCopyKernel copy : copies) {
            if (copy != null) {
                copy.run(workspace);
            }
        }
    }

    /**
     * The inputs as the call's kernel is to read them, in order: the copies in {@code workspace}, the
     * rest where they lie. Built once per workspace ({@link OverWorkspace}), not at every launch.
     */
    StridedView[] views(MemorySegment workspace) {
        StridedView[] views = inputs.clone();
        for (int i = 0; i < views.length; i++) {
            if (copies[i] != null) {
                views[i] = new StridedView(workspace, at[i], dtype, shape, rowMajor);
            }
        }
        return views;
    }
}
