package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
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
 * grouped into slabs of whole outer indices, each task summing every channel of its slab; rows of
 * one element (channels innermost, as the plan reads NHWC memory) run channel after channel.
 * Dense operands of one dtype run row by row (rows of at least {@link #MIN_DIRECT_ROW} elements),
 * their whole steps through {@link DirectMath} loops (without the Vector API, through rows cut at
 * the same place, so that the sums group alike), a FLOAT gradInput of another layout through a
 * staged run; dense FLOAT or BFLOAT16 inputs with channels innermost are read in place whole rows of
 * channels at a time; the rest is gathered into rows.
 */
public final class PreluBackwardKernel implements Parallel.Tasks, Kernel {
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    /** Slabs for short rows: enough to keep every thread busy, few enough to keep the workspace small. */
    private static final long MAX_SLABS = 64;
    /** Rows shorter than this are batched through rows even when the direct loops could take them. */
    private static final long MIN_DIRECT_ROW = 64;

    private final StridedView grad;
    private final StridedView self;
    private final StridedView weight;
    private final StridedView gradInput;
    private final StridedView gradWeight;
    private final Layout layout;
    /**
     * Dense operands of one dtype (FLOAT gradInput of any layout, staged: {@link DirectOperands#output}):
     * long enough rows go one at a time, cut where the direct loops' steps end
     * ({@link DirectMath#STEP}) whether or not those loops run here, so that a row's sum groups its
     * terms alike with and without the Vector API.
     */
    private final boolean denseRows;
    /** Whether the {@link DirectMath} loops take the dense rows. */
    private final boolean direct;
    /**
     * Whether rows of channels (channels innermost, a weight each) are read in place by
     * {@link DirectMath#preluChannelRows}: dense FLOAT or BFLOAT16 self and gradOutput, gradInput any
     * layout.
     */
    private final boolean directChannels;

    /**
     * The kernel of one plan, made by phase 1, with self read as {@code [outer][channels][inner]}
     * as {@code layout} says.
     */
    public PreluBackwardKernel(StridedView grad, StridedView self, StridedView weight, StridedView gradInput,
            StridedView gradWeight, Layout layout) {
        this.grad = grad;
        this.self = self;
        this.weight = weight;
        this.gradInput = gradInput;
        this.gradWeight = gradWeight;
        this.layout = layout;
        DType dt = gradInput.dtype();
        denseRows = DirectOperands.dense(self, dt) && DirectOperands.dense(grad, dt)
                && (dt == DType.FLOAT || DirectOperands.dense(gradInput, dt));
        direct = denseRows
                && DirectOperands.supportedWithOwnHalfSums(Warmup.Family.PRELU_BACKWARD, dt);
        DType in = self.dtype();
        directChannels = layout.inner == 1 && layout.weights > 1 && layout.channels <= Blocks.SIZE
                && (in == DType.FLOAT || in == DType.BF16)
                && DirectOperands.dense(self, in) && DirectOperands.dense(grad, in)
                && DirectOperands.supported(Warmup.Family.PRELU_BACKWARD, in);
    }

    /**
     * The call over 16-bit self and gradOutput of which one or both lie transposed or channels-last,
     * into a dense gradInput: those copied into the workspace in row-major order
     * ({@link RowMajorCopies}), then this kernel over the copies, whose rows the direct loops take;
     * the same bits as the call on dense inputs. Null where that does not apply: other dtypes or
     * layouts, gradInput not dense, rows shorter than {@link #MIN_DIRECT_ROW}.
     *
     * @param layout the layout of the call on dense inputs: {@code [outer][channels][inner]}
     */
    public static Staged staged(StridedView grad, StridedView self, StridedView weight, StridedView gradInput,
            StridedView gradWeight, long[] shape, Layout layout) {
        DType dt = gradInput.dtype();
        if (layout.inner < MIN_DIRECT_ROW || !DirectOperands.dense(gradInput, dt)) {
            return null;
        }
        RowMajorCopies copies = RowMajorCopies.of(dt, shape, layout.workspaceBytes(), grad, self);
        return copies == null ? null : new Copies(copies, weight, gradInput, gradWeight, layout);
    }

    /** {@link #staged}: the copies, then the call over them. */
    static final class Copies implements Staged, OverWorkspace.Factory {
        private final RowMajorCopies copies;
        private final OverWorkspace call = new OverWorkspace(this);
        private final StridedView weight;
        private final StridedView gradInput;
        private final StridedView gradWeight;
        private final Layout layout;

        private Copies(RowMajorCopies copies, StridedView weight, StridedView gradInput, StridedView gradWeight,
                Layout layout) {
            this.copies = copies;
            this.weight = weight;
            this.gradInput = gradInput;
            this.gradWeight = gradWeight;
            this.layout = layout;
        }

        /** The task sums, then the copies. */
        @Override
        public long workspaceBytes() {
            return copies.endByte();
        }

        @Override
        public void run(MemorySegment workspace) {
            copies.run(workspace);
            call.over(workspace).run(workspace);
        }

        /** The call over the copies in {@code workspace}. */
        @Override
        public Kernel over(MemorySegment workspace) {
            StridedView[] in = copies.views(workspace);
            return new PreluBackwardKernel(in[0], in[1], weight, gradInput, gradWeight, layout);
        }
    }

    /**
     * The task layout of a shape, made by phase 1 (see the class comment).
     *
     * @param outer product of the dimensions before the channel dimension
     * @param channels the channel count C (1 when the rank is below 2)
     * @param inner product of the dimensions after the channel dimension
     * @param weights numel(weight): 1, or C
     */
    public record Layout(long outer, long channels, long inner, long weights, boolean longRows, long blocksPerRow,
            long outerPerSlab, long tasks) {
        public static Layout of(long outer, long channels, long inner, long weights) {
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

        /** Workspace bytes: a double per task for long rows, one per task and weight for slabs. */
        public long workspaceBytes() {
            return (longRows ? tasks : tasks * weights) * Double.BYTES;
        }
    }

    /** Runs the whole call: the tasks on the library's threads, then gradWeight from their sums. */
    @Override
    public void run(MemorySegment workspace) {
        Parallel.forEach(layout.tasks, layout.longRows ? Blocks.SIZE
                : layout.outerPerSlab * layout.channels * layout.inner, this, workspace);
        gradWeight(layout, workspace, gradWeight);
    }

    /**
     * gradWeight from the tasks' sums in {@code workspace}, as {@code layout} lays them out (see
     * {@link Layout#workspaceBytes}), added in task order.
     */
    static void gradWeight(Layout layout, MemorySegment workspace, StridedView gradWeight) {
        long weights = layout.weights;
        long partials = layout.longRows ? layout.outer * layout.channels * layout.blocksPerRow : layout.tasks * weights;
        double[] ws = Scratch.get().workspaceDoubles(workspace, 0, Math.toIntExact(partials));
        for (long k = 0; k < weights; k++) {
            double sum = 0;
            if (layout.longRows) {
                for (long o = 0; o < layout.outer; o++) {
                    for (long c = weights == 1 ? 0 : k; c < (weights == 1 ? layout.channels : k + 1); c++) {
                        int first = (int) ((o * layout.channels + c) * layout.blocksPerRow);
                        for (int b = 0; b < layout.blocksPerRow; b++) {
                            sum += ws[first + b];
                        }
                    }
                }
            } else {
                for (long t = 0; t < layout.tasks; t++) {
                    sum += ws[(int) (t * weights + k)];
                }
            }
            gradWeight.set(k, (float) sum);
        }
    }

    @Override
    public void task(long task, MemorySegment workspace) {
        if (layout.longRows) {
            workspace.setAtIndex(F64, task, longRowBlock(task));
        } else {
            slab(task, workspace);
        }
    }

    /** One block of one long row: writes gradInput, returns the row's partial gradWeight sum. */
    private double longRowBlock(long task) {
        long row = task / layout.blocksPerRow;
        long offsetInRow = (task % layout.blocksPerRow) * Blocks.SIZE;
        float wk = weight.get(layout.weights == 1 ? 0 : row % layout.channels);
        return channelRun(row * layout.inner + offsetInRow,
                (int) Math.min(Blocks.SIZE, layout.inner - offsetInRow), wk);
    }

    /**
     * One slab of whole outer indices: writes gradInput, stores one partial sum per weight. Each
     * way through a slab is a method of its own, so that each loop keeps a profile of its own.
     */
    private void slab(long task, MemorySegment workspace) {
        long firstRow = task * layout.outerPerSlab * layout.channels;
        long endRow = Math.min(layout.outer, (task + 1) * layout.outerPerSlab) * layout.channels;
        Scratch s = Scratch.get();
        double[] acc = s.sums((int) layout.weights);
        float[] w = s.weights((int) layout.weights);
        for (int k = 0; k < layout.weights; k++) {
            w[k] = weight.get(k);
        }
        if (denseRows && layout.inner >= MIN_DIRECT_ROW) {
            directRows(firstRow, endRow, w, acc);
        } else if (layout.inner == 1) {
            channelsInnermostRows(firstRow, endRow, s, w, acc);
        } else {
            shortRows(firstRow, endRow, s, w, acc);
        }
        s.storeSums(acc, workspace, 8 * task * layout.weights, (int) layout.weights);
    }

    /** Rows of a slab through the direct loops, a row (one channel; inner < Blocks.SIZE) at a time. */
    private void directRows(long firstRow, long endRow, float[] w, double[] acc) {
        boolean shared = layout.weights == 1;
        for (long row = firstRow; row < endRow; row++) {
            int k = shared ? 0 : (int) (row % layout.channels);
            acc[k] += channelRun(row * layout.inner, (int) layout.inner, w[k]);
        }
    }

    /**
     * Rows of one element each (channels innermost): gathered a block at a time, channel after
     * channel; with self and gradOutput dense FLOAT or BFLOAT16, read in place whole rows at a time
     * ({@link #channelsInnermostInPlace}).
     */
    private void channelsInnermostRows(long firstRow, long endRow, Scratch s, float[] w, double[] acc) {
        if (directChannels) {
            channelsInnermostInPlace(firstRow, endRow, s, w, acc);
            return;
        }
        for (long at = firstRow; at < endRow; at += Blocks.SIZE) {
            int len = (int) Math.min(Blocks.SIZE, endRow - at);
            self.gather(at, s.a, len);
            grad.gather(at, s.b, len);
            channelsInnermost(s.a, s.b, len, (int) (at % layout.channels), w, acc);
            gradInput.scatter(at, s.a, len);
        }
    }

    /**
     * {@link #channelsInnermostRows} by the direct loop: dense self and gradOutput read where they
     * lie, as many whole rows of channels as fill a block, the gradient into a block of floats and
     * scattered from there (gradInput of any layout). The same operations per element and each
     * channel's sum in row order, as the gathered rows add it, so the same bits.
     */
    private void channelsInnermostInPlace(long firstRow, long endRow, Scratch s, float[] w, double[] acc) {
        int channels = (int) layout.channels;
        int step = Blocks.SIZE / channels * channels;
        for (long at = firstRow; at < endRow; at += step) {
            int len = (int) Math.min(step, endRow - at);
            DirectOperands.math().preluChannelRows(self.dtype(), self.segment(), self.denseOffset(at), grad.segment(),
                    grad.denseOffset(at), len / channels, channels, w, acc, s.a, 0);
            gradInput.scatter(at, s.a, len);
        }
    }

    /** Short rows: gathered many at once, then walked one row segment at a time. */
    private void shortRows(long firstRow, long endRow, Scratch s, float[] w, double[] acc) {
        boolean shared = layout.weights == 1;
        float[] x = s.a;
        float[] g = s.b;
        long inner = layout.inner;
        long end = endRow * inner;
        for (long at = firstRow * inner; at < end; at += Blocks.SIZE) {
            int len = (int) Math.min(Blocks.SIZE, end - at);
            self.gather(at, x, len);
            grad.gather(at, g, len);
            for (int i = 0; i < len; ) {
                long row = (at + i) / inner;
                int segmentEnd = (int) Math.min(len, (row + 1) * inner - at);
                int k = shared ? 0 : (int) (row % layout.channels);
                acc[k] += BulkMath.current().preluRow(x, g, i, segmentEnd, w[k]);
                i = segmentEnd;
            }
            gradInput.scatter(at, x, len);
        }
    }

    /**
     * Rows of {@code [channels]} elements laid end to end, the first element at channel {@code c}:
     * each with its channel's weight and sum, whole rows by {@link BulkMath#preluChannelRows}; one
     * {@link BulkMath#preluRow} for all when there is a single weight.
     */
    private void channelsInnermost(float[] x, float[] g, int len, int c, float[] w, double[] acc) {
        if (layout.weights == 1) {
            acc[0] += BulkMath.current().preluRow(x, g, 0, len, w[0]);
            return;
        }
        int channels = (int) layout.channels;
        int i = 0;
        for (; c != 0 && i < len; i++, c = c + 1 == channels ? 0 : c + 1) { // the rest of a row begun before
            acc[c] += BulkMath.current().preluRow(x, g, i, i + 1, w[c]);
        }
        int rows = i + (len - i) / channels * channels;
        BulkMath.current().preluChannelRows(x, g, i, rows, w, channels, acc);
        for (c = 0, i = rows; i < len; i++, c++) { // a row that goes on in the next block
            acc[c] += BulkMath.current().preluRow(x, g, i, i + 1, w[c]);
        }
    }

    /**
     * Elements [start, start + len) of one channel with weight {@code wk}: writes gradInput and
     * returns {@code Σ min(x, 0)·g}, its whole steps as one sum (by the direct loops when
     * {@code direct}, else by rows in the same order) and then the rest through rows.
     */
    private double channelRun(long start, int len, float wk) {
        int done = denseRows ? len - len % DirectMath.STEP : 0;
        double sum = 0;
        if (done > 0) {
            sum = direct ? directRun(start, done, wk) : rowRun(start, done, wk);
        }
        return done < len ? sum + rowRun(start + done, len - done, wk) : sum;
    }

    /** Elements [start, start + len) through the direct loops (16-bit ones in plain Java while cold). */
    private double directRun(long start, int len, float wk) {
        DType dt = gradInput.dtype();
        if (dt != DType.FLOAT) {
            return DirectOperands.halfChunkMath(dt).prelu(dt, self.segment(), self.denseOffset(start), grad.segment(),
                    grad.denseOffset(start), wk, gradInput.segment(), gradInput.denseOffset(start), len);
        }
        double sum = DirectOperands.math().prelu(dt, self.segment(), self.denseOffset(start), grad.segment(),
                grad.denseOffset(start), wk, DirectOperands.output(gradInput), DirectOperands.offset(gradInput, start),
                len);
        DirectOperands.flush(gradInput, start, len); // a strided gradInput: scattered from the staged run
        return sum;
    }

    /** Elements [start, start + len) (at most a block) through rows: writes gradInput, returns their sum. */
    private double rowRun(long start, int len, float wk) {
        Scratch s = Scratch.get();
        self.gather(start, s.a, len);
        grad.gather(start, s.b, len);
        double sum = BulkMath.current().preluRow(s.a, s.b, 0, len, wk);
        gradInput.scatter(start, s.a, len);
        return sum;
    }
}
