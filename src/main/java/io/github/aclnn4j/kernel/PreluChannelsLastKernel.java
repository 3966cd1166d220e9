package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * FLOAT or BFLOAT16 PReLU forward over channels-last self ({@code [N, P, C]} memory) into a dense
 * channels-first out ({@code [N, C, P]}) in one pass: a panel of positions by channels at a time
 * ({@link TransposePanels}), computed and stored transposed ({@link DirectMath#preluTransposed}):
 * FLOAT an 8×8 block in registers at a time, where the tiles gathered and scattered it through
 * panels; BFLOAT16 two positions per 32-bit value, transposed as floats, where the values were
 * copied into out raw ({@link TransposeCopyKernel}) and computed over in place (16×64×64×64,
 * {@code bench ab} in both orders: 0.94/0.99 → 0.85/0.91 ms; a 16-bit transposing store of the
 * results had lost to that copy, 1.19–1.52 against 1.04–1.08). Each element is computed as the
 * dense call computes it, so the same bits. The channel weights are read when the call runs, so a
 * repeatable executor sees new weights.
 */
public final class PreluChannelsLastKernel implements Parallel.Tasks, Kernel {
    private final MemorySegment self;
    private final long selfAt;
    private final MemorySegment out;
    private final long outAt;
    private final long positions;
    private final long channels;
    /** The weight of each channel, at {@code c·positions} in the weight's view of self's shape. */
    private final StridedView weight;
    /**
     * The channels' weights, read into it at the start of each run. Launches on several streams at
     * once write the same values; a program that changes the weights while a launch reads them
     * races with that launch anyway.
     */
    private final float[] weights;
    private final TransposePanels panels;
    private final DType dtype;
    /** Bytes per value. */
    private final long bytes;

    private PreluChannelsLastKernel(StridedView self, StridedView weight, StridedView out, long samples,
            long positions, long channels) {
        this.self = self.segment();
        this.selfAt = self.denseOffset(0);
        this.out = out.segment();
        this.outAt = out.denseOffset(0);
        this.positions = positions;
        this.channels = channels;
        this.weight = weight;
        this.weights = new float[Math.toIntExact(channels)];
        this.panels = new TransposePanels(samples, positions, channels);
        this.dtype = out.dtype();
        this.bytes = dtype.byteSize;
    }

    /**
     * The kernel over {@code self}, dense in channels-last memory order ({@code selfInMemoryOrder}:
     * its view permuted to {@code [N, P..., C]}), into {@code out}, dense and channels-first, of
     * logical {@code [N, C, P...]} with {@code positions} positions; {@code weight} a view of that
     * shape, constant along all but the channels. Null where it does not apply: self and out not
     * both FLOAT or both BFLOAT16, the direct loops cold or absent, or memory the two share.
     */
    public static PreluChannelsLastKernel of(StridedView selfInMemoryOrder, StridedView weight, StridedView out,
            long samples, long positions, long channels) {
        DType dt = out.dtype();
        if ((dt != DType.FLOAT && dt != DType.BF16) || selfInMemoryOrder.dtype() != dt
                || !DirectOperands.supported(Warmup.Family.PRELU, dt)
                || !DirectOperands.dense(selfInMemoryOrder, dt) || !DirectOperands.dense(out, dt)
                || !DirectOperands.disjoint(selfInMemoryOrder, out)) {
            return null;
        }
        return new PreluChannelsLastKernel(selfInMemoryOrder, weight, out, samples, positions, channels);
    }

    @Override
    public void run(MemorySegment workspace) {
        for (int c = 0; c < weights.length; c++) {
            weights[c] = weight.get(c * positions);
        }
        Parallel.forEach(panels.tasks(), panels.valuesPerTask(), this, workspace);
    }

    /** One panel of {@link TransposePanels}. */
    @Override
    public void task(long task, MemorySegment workspace) {
        DirectOperands.math().preluTransposed(dtype, self, selfAt + bytes * panels.channelsLastIndex(task),
                bytes * channels, panels.positions(task), panels.channels(task), weights,
                (int) panels.firstChannel(task), out, outAt + bytes * panels.channelsFirstIndex(task),
                bytes * positions);
    }
}
