package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * BFLOAT16 PReLU backward over channels-last self and gradOutput ({@code [N, P, C]} memory) into a
 * dense channels-first gradInput ({@code [N, C, P]}) in one pass: each sample's positions a block of
 * {@link Blocks#SIZE} at a time, all channels of a row at once, the gradient stored transposed and
 * each channel's sum kept in the lanes the dense call adds that channel's run into
 * ({@link DirectMath#preluBackwardChannelsLast}). Its partial sums are the ones
 * {@link PreluBackwardKernel} leaves for the same call on channels-first copies, in the same places,
 * and gradWeight adds them alike: the same bits as the staged call it replaces, which first copied
 * both inputs into the workspace in channels-first order (16×64×64×64, {@code bench ab}: 2.0–2.2 →
 * 1.2–1.3 ms, the dense call 0.55). Taken while the direct loops are warm; cold calls stay staged.
 */
public final class PreluBackwardChannelsLastKernel implements Parallel.Tasks, Kernel {
    /** Channels at least: fewer would be mostly the loop's one-by-one edge (it takes 2F at a time). */
    private static final long MIN_CHANNELS = 32;

    private final MemorySegment self;
    private final long selfAt;
    private final MemorySegment grad;
    private final long gradAt;
    private final MemorySegment gradInput;
    private final long gradInputAt;
    private final StridedView weight;
    private final StridedView gradWeight;
    /** The layout of the call on channels-first inputs, whose partial sums this kernel leaves. */
    private final PreluBackwardKernel.Layout layout;
    private final int channels;
    private final long positions;
    /** Each channel's weight, read at the start of each run (a repeatable executor sees new weights). */
    private final float[] weights;

    private PreluBackwardChannelsLastKernel(StridedView self, StridedView grad, StridedView weight,
            StridedView gradInput, StridedView gradWeight, PreluBackwardKernel.Layout layout) {
        this.self = self.segment();
        this.selfAt = self.denseOffset(0);
        this.grad = grad.segment();
        this.gradAt = grad.denseOffset(0);
        this.gradInput = gradInput.segment();
        this.gradInputAt = gradInput.denseOffset(0);
        this.weight = weight;
        this.gradWeight = gradWeight;
        this.layout = layout;
        this.channels = Math.toIntExact(layout.channels());
        this.positions = layout.inner();
        this.weights = new float[channels];
    }

    /**
     * The kernel for BFLOAT16 {@code self} and {@code grad} (views of logical {@code shape},
     * {@code [N, C, positions...]}) lying dense in channels-last memory order, into a dense
     * {@code gradInput} that shares no memory with them; {@code layout} that of the call on
     * channels-first inputs. Null where it does not apply: other dtypes or layouts, the direct loops
     * cold or absent, positions not a multiple of {@link DirectMath#STEP} or fewer than 64, fewer
     * than 16 or more than {@link Blocks#SIZE} channels.
     */
    public static PreluBackwardChannelsLastKernel of(StridedView grad, StridedView self, StridedView weight,
            StridedView gradInput, StridedView gradWeight, long[] shape, PreluBackwardKernel.Layout layout) {
        DType dt = DType.BF16;
        if (shape.length < 4 || gradInput.dtype() != dt || layout.channels() < MIN_CHANNELS
                || layout.channels() > Blocks.SIZE || layout.inner() % DirectMath.STEP != 0 || layout.inner() < 64
                || !DirectOperands.supported(Warmup.Family.PRELU_BACKWARD, dt)
                || !DirectOperands.dense(gradInput, dt)) {
            return null;
        }
        int[] order = Shapes.channelsLastOrder(shape.length);
        StridedView x = self.permute(order);
        StridedView g = grad.permute(order);
        if (!DirectOperands.dense(x, dt) || !DirectOperands.dense(g, dt) || !DirectOperands.disjoint(x, gradInput)
                || !DirectOperands.disjoint(g, gradInput)) {
            return null;
        }
        return new PreluBackwardChannelsLastKernel(x, g, weight, gradInput, gradWeight, layout);
    }

    /** The partial sums, where {@link PreluBackwardKernel} leaves them. */
    public long workspaceBytes() {
        return layout.workspaceBytes();
    }

    @Override
    public void run(MemorySegment workspace) {
        boolean shared = layout.weights() == 1;
        for (int c = 0; c < channels; c++) {
            weights[c] = weight.get(shared ? 0 : c);
        }
        long tasks = layout.longRows() ? layout.outer() * layout.blocksPerRow() : layout.tasks();
        long perTask = layout.longRows() ? (long) Blocks.SIZE * channels : layout.outerPerSlab() * channels * positions;
        Parallel.forEach(tasks, perTask, this, workspace);
        PreluBackwardKernel.gradWeight(layout, workspace, gradWeight);
    }

    /**
     * Long rows: one block of a sample's positions, its channels' sums stored where the dense call's
     * tasks store them. Slabs: whole samples, their channels' sums added per weight in row order.
     */
    @Override
    public void task(long task, MemorySegment workspace) {
        Scratch s = Scratch.get();
        double[] sums = s.channelDoubles(channels)[0]; // a block's sum per channel
        if (layout.longRows()) {
            long blocks = layout.blocksPerRow();
            long sample = task / blocks;
            long block = task % blocks;
            long first = block * Blocks.SIZE;
            block(sample, first, (int) Math.min(Blocks.SIZE, positions - first), sums);
            for (int c = 0; c < channels; c++) {
                long partial = (sample * channels + c) * blocks + block;
                workspace.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8 * partial, sums[c]);
            }
            return;
        }
        int perWeight = (int) layout.weights();
        double[] acc = s.sums(perWeight);
        long end = Math.min(layout.outer(), (task + 1) * layout.outerPerSlab());
        for (long sample = task * layout.outerPerSlab(); sample < end; sample++) {
            block(sample, 0, (int) positions, sums);
            for (int c = 0; c < channels; c++) {
                acc[perWeight == 1 ? 0 : c] += sums[c];
            }
        }
        s.storeSums(acc, workspace, 8 * task * perWeight, perWeight);
    }

    /** Positions {@code [first, first + count)} of one sample: the gradient, and each channel's sum. */
    private void block(long sample, long first, int count, double[] sums) {
        long sampleValues = sample * channels * positions;
        DirectOperands.math().preluBackwardChannelsLast(self, selfAt + 2 * (sampleValues + first * channels), grad,
                gradAt + 2 * (sampleValues + first * channels), count, channels, weights, gradInput,
                gradInputAt + 2 * (sampleValues + first), 2 * positions, sums);
    }
}
