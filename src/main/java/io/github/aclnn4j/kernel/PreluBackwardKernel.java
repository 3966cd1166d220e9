package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * PreluBackward in one pass: {@code gradInput = x > 0 ? g : w[c]·g} and
 * {@code gradWeight[c] = Σ (x > 0 ? 0 : x·g)} over channel c, with self read as
 * {@code [outer][channels][inner]}. Each task sums its part of each channel in double into the
 * workspace; gradWeight then adds the task sums in task order, so the result depends on the
 * shape only, never on the thread count.
 *
 * <p>Long rows ({@code inner ≥ Blocks.SIZE}) are cut into blocks, one task each. Short rows are
 * grouped into slabs of whole outer indices, each task summing every channel of its slab.
 */
public final class PreluBackwardKernel {
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    /** Slabs for short rows: enough to keep every thread busy, few enough to keep the workspace small. */
    private static final long MAX_SLABS = 64;

    private PreluBackwardKernel() {}

    /** The task layout of a shape; see the class comment. */
    private record Layout(long outer, long channels, long inner, long weights, boolean longRows, long blocksPerRow,
            long outerPerSlab, long tasks) {
        static Layout of(long outer, long channels, long inner, long weights) {
            if (inner >= Blocks.SIZE) {
                long blocksPerRow = Blocks.count(inner);
                return new Layout(outer, channels, inner, weights, true, blocksPerRow, 0,
                        outer * channels * blocksPerRow);
            }
            long slabElements = channels * inner;
            long outerPerSlab = Math.max(Math.max(1, Blocks.SIZE / Math.max(slabElements, 1)),
                    (outer + MAX_SLABS - 1) / MAX_SLABS);
            return new Layout(outer, channels, inner, weights, false, 0, outerPerSlab,
                    (outer + outerPerSlab - 1) / outerPerSlab);
        }

        /** Doubles of workspace: one per task for long rows, one per task and weight for slabs. */
        long partials() {
            return longRows ? tasks : tasks * weights;
        }
    }

    /** Workspace bytes for self read as {@code [outer][channels][inner]} with {@code weights} weights. */
    public static long workspaceBytes(long outer, long channels, long inner, long weights) {
        return Layout.of(outer, channels, inner, weights).partials() * Double.BYTES;
    }

    /**
     * @param outer product of the dimensions before the channel dimension
     * @param channels the channel count C (1 when rank < 2)
     * @param inner product of the dimensions after the channel dimension
     * @param weights numel(weight): 1, or C
     */
    public static void run(StridedView grad, StridedView self, StridedView weight, StridedView gradInput,
            StridedView gradWeight, long outer, long channels, long inner, long weights, MemorySegment workspace) {
        Layout layout = Layout.of(outer, channels, inner, weights);
        float[] w = new float[(int) weights];
        weight.gather(0, w, w.length);
        if (layout.longRows) {
            Parallel.forEach(layout.tasks, Blocks.SIZE,
                    t -> workspace.setAtIndex(F64, t, longRowBlock(layout, t, w, self, grad, gradInput)));
            for (long k = 0; k < weights; k++) {
                double sum = 0;
                for (long o = 0; o < outer; o++) {
                    for (long c = weights == 1 ? 0 : k; c < (weights == 1 ? channels : k + 1); c++) {
                        long first = (o * channels + c) * layout.blocksPerRow;
                        for (long b = 0; b < layout.blocksPerRow; b++) {
                            sum += workspace.getAtIndex(F64, first + b);
                        }
                    }
                }
                gradWeight.set(k, (float) sum);
            }
        } else {
            Parallel.forEach(layout.tasks, layout.outerPerSlab * channels * inner,
                    t -> slab(layout, t, w, self, grad, gradInput, workspace));
            for (long k = 0; k < weights; k++) {
                double sum = 0;
                for (long t = 0; t < layout.tasks; t++) {
                    sum += workspace.getAtIndex(F64, t * weights + k);
                }
                gradWeight.set(k, (float) sum);
            }
        }
    }

    /** One block of one long row: writes gradInput, returns the row's partial gradWeight sum. */
    private static double longRowBlock(Layout layout, long task, float[] w, StridedView self, StridedView grad,
            StridedView gradInput) {
        long row = task / layout.blocksPerRow;
        long offsetInRow = (task % layout.blocksPerRow) * Blocks.SIZE;
        float wk = w[layout.weights == 1 ? 0 : (int) (row % layout.channels)];
        long start = row * layout.inner + offsetInRow;
        int len = (int) Math.min(Blocks.SIZE, layout.inner - offsetInRow);
        Scratch s = Scratch.get();
        float[] x = s.a;
        float[] g = s.b;
        self.gather(start, x, len);
        grad.gather(start, g, len);
        double acc = BulkMath.INSTANCE.preluRow(x, g, 0, len, wk);
        gradInput.scatter(start, x, len);
        return acc;
    }

    /** One slab of whole outer indices: writes gradInput, stores one partial sum per weight. */
    private static void slab(Layout layout, long task, float[] w, StridedView self, StridedView grad,
            StridedView gradInput, MemorySegment workspace) {
        long perOuter = layout.channels * layout.inner;
        long start = task * layout.outerPerSlab * perOuter;
        long end = Math.min(layout.outer, (task + 1) * layout.outerPerSlab) * perOuter;
        boolean shared = layout.weights == 1;
        Scratch s = Scratch.get();
        double[] acc = s.sums((int) layout.weights);
        float[] x = s.a;
        float[] g = s.b;
        long inner = layout.inner;
        for (long at = start; at < end; at += Blocks.SIZE) {
            int len = (int) Math.min(Blocks.SIZE, end - at);
            self.gather(at, x, len);
            grad.gather(at, g, len);
            // Walk the block one row segment at a time: a segment has a single channel.
            for (int i = 0; i < len; ) {
                long row = (at + i) / inner;
                int segmentEnd = (int) Math.min(len, (row + 1) * inner - at);
                int k = shared ? 0 : (int) (row % layout.channels);
                acc[k] += BulkMath.INSTANCE.preluRow(x, g, i, segmentEnd, w[k]);
                i = segmentEnd;
            }
            gradInput.scatter(at, x, len);
        }
        for (int k = 0; k < layout.weights; k++) {
            workspace.setAtIndex(F64, task * layout.weights + k, acc[k]);
        }
    }
}
