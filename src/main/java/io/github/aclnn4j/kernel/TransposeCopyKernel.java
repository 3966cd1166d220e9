package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import java.lang.foreign.MemorySegment;

/**
 * Values of channels-last memory ({@code [N, P, C]}: P positions of C channels per sample) copied
 * unchanged into a dense channels-first destination ({@code [N, C, P]}), a panel of
 * {@link TransposePanels} at a time: read where they lie and stored transposed by
 * {@link BulkMath#transposeHalves} (16-bit) or {@link BulkMath#transposeFloats}. A transposed
 * matrix is the same copy ({@code [N, K, R]} memory of an {@code [N, R, K]} view: K positions of R
 * channels). The first half of an element-wise call whose 16-bit inputs lie in such an order: the
 * call then runs where they are dense (the output in place, or copies in the workspace), and
 * rounds each element as before. Moving raw 16-bit values leaves out the conversions to float and
 * back that the tiled path pays around its transposing stores (see
 * {@code docs/performance-usage.md}). Or the second half of a call computed in its inputs' order
 * into the workspace ({@link InMemoryOrder}): its results, 16-bit or FLOAT, moved into out.
 */
public final class TransposeCopyKernel implements Parallel.Tasks, Kernel {
    /** The source; null for the workspace of the call. */
    private final MemorySegment src;
    private final long srcAt;
    /** The destination; null for the workspace of the call. */
    private final MemorySegment dst;
    private final long dstAt;
    private final long positions;
    private final long channels;
    /** 2 for 16-bit values, 4 for FLOAT. */
    private final int elementBytes;
    private final TransposePanels panels;

    private TransposeCopyKernel(MemorySegment src, long srcAt, MemorySegment dst, long dstAt, long samples,
            long positions, long channels, int elementBytes) {
        this.elementBytes = elementBytes;
        this.src = src;
        this.srcAt = srcAt;
        this.dst = dst;
        this.dstAt = dstAt;
        this.positions = positions;
        this.channels = channels;
        this.panels = new TransposePanels(samples, positions, channels);
    }

    /**
     * The kernel that copies {@code src}, a dense view in channels-last memory order
     * ({@code [N, P..., C]}), into {@code dst}, the dense channels-first view of the same logical
     * shape; or null where it does not apply: other dtypes, non-dense or heap views, or memory the
     * two share.
     */
    public static TransposeCopyKernel of(StridedView src, StridedView dst, long samples, long positions,
            long channels) {
        if (!applies(src, dst.dtype(), channels) || !DirectOperands.dense(dst, dst.dtype())
                || !DirectOperands.disjoint(src, dst)) {
            return null;
        }
        return new TransposeCopyKernel(src.segment(), src.denseOffset(0), dst.segment(), dst.denseOffset(0), samples,
                positions, channels, 2);
    }

    /**
     * As {@link #of}, into the call's workspace from byte {@code workspaceAt} (2 bytes an element);
     * null where it does not apply.
     */
    static TransposeCopyKernel intoWorkspace(StridedView src, long workspaceAt, long samples, long positions,
            long channels) {
        return applies(src, src.dtype(), channels)
                ? new TransposeCopyKernel(src.segment(), src.denseOffset(0), null, workspaceAt, samples, positions,
                        channels, 2)
                : null;
    }

    /**
     * How a view of logical {@code [N, C, P]} form lies in {@code [N, P, C]} memory: {@code order}
     * permutes the logical dimensions into memory order, where the view is dense; {@code samples}
     * N, {@code positions} P and {@code channels} C as this kernel counts them.
     */
    record Permutation(int[] order, long samples, long positions, long channels) {
        /**
         * The permutation of {@code view} (of logical {@code shape}) where its memory order is the
         * logical one with one dimension moved innermost: the last two swapped (a transposed matrix),
         * or the channels (dimension 1) of a view of rank 4 or more (channels-last); null otherwise.
         */
        static Permutation of(StridedView view, long[] shape) {
            int rank = shape.length;
            if (rank < 2 || Shapes.numel(shape) == 0) {
                return null;
            }
            int[] swapped = new int[rank];
            for (int d = 0; d < rank; d++) {
                swapped[d] = d;
            }
            swapped[rank - 2] = rank - 1;
            swapped[rank - 1] = rank - 2;
            if (view.permute(swapped).isDense()) {
                return new Permutation(swapped, Shapes.numel(shape) / (shape[rank - 2] * shape[rank - 1]),
                        shape[rank - 1], shape[rank - 2]);
            }
            int[] channelsLast = Shapes.channelsLastOrder(rank);
            if (rank >= 4 && view.permute(channelsLast).isDense()) {
                return new Permutation(channelsLast, shape[0], Shapes.numel(shape) / (shape[0] * shape[1]), shape[1]);
            }
            return null;
        }

        /** Whether {@code view} lies dense in this permutation's memory order too. */
        boolean fits(StridedView view) {
            return view.permute(order).isDense();
        }

        /** {@code shape} in memory order. */
        long[] permute(long[] shape) {
            long[] p = new long[order.length];
            for (int k = 0; k < order.length; k++) {
                p[k] = shape[order[k]];
            }
            return p;
        }
    }

    /**
     * A copy of {@code view} (of logical {@code shape}) into the workspace from byte
     * {@code workspaceAt}, row-major, where it lies as a {@link Permutation} says; null otherwise.
     */
    static TransposeCopyKernel rowMajorIntoWorkspace(StridedView view, long[] shape, long workspaceAt) {
        Permutation p = Permutation.of(view, shape);
        return p == null ? null
                : intoWorkspace(view.permute(p.order), workspaceAt, p.samples, p.positions, p.channels);
    }

    /**
     * The copy of values lying in the workspace from byte {@code workspaceAt} in the memory order of
     * {@code p} into {@code dst}, dense, row-major; 16-bit or FLOAT values, as {@code dst}'s dtype;
     * null where it does not apply (other dtypes, fewer than two channels, a heap destination).
     */
    static TransposeCopyKernel fromWorkspace(long workspaceAt, StridedView dst, Permutation p) {
        DType dt = dst.dtype();
        return (panelsOf(dt, p.channels) || (dt == DType.FLOAT && p.channels >= 2)) && DirectOperands.dense(dst, dt)
                ? new TransposeCopyKernel(null, workspaceAt, dst.segment(), dst.denseOffset(0), p.samples, p.positions,
                        p.channels, (int) dt.byteSize)
                : null;
    }

    /** {@code src} dense in native memory, of the 16-bit {@code dt}, and its channels worth panels. */
    private static boolean applies(StridedView src, DType dt, long channels) {
        return panelsOf(dt, channels) && DirectOperands.dense(src, dt);
    }

    /** Whether values of {@code dt} in {@code channels} channels are this kernel's: 16-bit, at least two. */
    private static boolean panelsOf(DType dt, long channels) {
        return (dt == DType.BF16 || dt == DType.FLOAT16) && channels >= 2;
    }

    @Override
    public void run(MemorySegment workspace) {
        Parallel.forEach(panels.tasks(), panels.valuesPerTask(), this, workspace);
    }

    /** One panel of {@link TransposePanels}. */
    @Override
    public void task(long task, MemorySegment workspace) {
        int m = panels.positions(task);
        int cs = panels.channels(task);
        MemorySegment from = src == null ? workspace : src;
        long fromAt = srcAt + elementBytes * panels.channelsLastIndex(task);
        MemorySegment to = dst == null ? workspace : dst;
        long toAt = dstAt + elementBytes * panels.channelsFirstIndex(task);
        if (elementBytes == 2) {
            BulkMath.forLayouts().transposeHalves(from, fromAt, 2 * channels, m, cs, to, toAt, 2 * positions);
        } else {
            BulkMath.forLayouts().transposeFloats(from, fromAt, 4 * channels, m, cs, to, toAt, 4 * positions);
        }
    }
}
