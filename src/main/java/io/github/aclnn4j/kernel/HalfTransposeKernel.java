package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * 16-bit values of channels-last memory ({@code [N, P, C]}: P positions of C channels per sample)
 * copied unchanged into a dense channels-first output ({@code [N, C, P]}), a panel of positions at a
 * time: read as one run, stored transposed by {@link BulkMath#storeHalfPanel}. The first half of an
 * element-wise call whose 16-bit input is channels-last and whose output is contiguous: the call
 * then runs over the output in place, where it is dense, and rounds each element as before. Moving
 * raw 16-bit values leaves out the conversions to float and back that the tiled path pays around
 * its transposing stores (BFLOAT16 PReLU 16×64×64×64: see {@code docs/performance-usage.md}).
 */
public final class HalfTransposeKernel implements Parallel.Tasks, Kernel {
    /** Positions per panel at least: the transposing stores' blocks are 8 × 8. */
    private static final int MIN_ROWS = 8;

    private final MemorySegment src;
    private final long srcAt;
    private final MemorySegment dst;
    private final long dstAt;
    private final long positions;
    private final long channels;
    /** Positions per panel: as many as fill {@link Scratch#halfRow}, a multiple of 8. */
    private final int rows;
    private final long panelsPerSample;
    private final long tasks;

    private HalfTransposeKernel(StridedView src, StridedView dst, long samples, long positions, long channels) {
        this.src = src.segment();
        this.srcAt = src.denseOffset(0);
        this.dst = dst.segment();
        this.dstAt = dst.denseOffset(0);
        this.positions = positions;
        this.channels = channels;
        this.rows = (int) (Blocks.SIZE / channels / MIN_ROWS * MIN_ROWS);
        this.panelsPerSample = (positions + rows - 1) / rows;
        this.tasks = samples * panelsPerSample;
    }

    /**
     * The kernel that copies {@code src}, a dense view in channels-last memory order
     * ({@code [N, P..., C]}), into {@code dst}, the dense channels-first view of the same logical
     * shape; or null where it does not apply: other dtypes, non-dense or heap views, channels too
     * many for a panel of 8 positions, or memory the two share.
     */
    public static HalfTransposeKernel of(StridedView src, StridedView dst, long samples, long positions,
            long channels) {
        DType dt = dst.dtype();
        boolean half = dt == DType.BF16 || dt == DType.FLOAT16;
        if (!half || src.dtype() != dt || channels < 2 || channels * MIN_ROWS > Blocks.SIZE
                || !src.isDense() || !dst.isDense() || !src.segment().isNative() || !dst.segment().isNative()) {
            return null;
        }
        long bytes = 2 * samples * positions * channels;
        long a = src.segment().address() + src.denseOffset(0);
        long b = dst.segment().address() + dst.denseOffset(0);
        if (a < b + bytes && b < a + bytes) {
            return null;
        }
        return new HalfTransposeKernel(src, dst, samples, positions, channels);
    }

    @Override
    public void run(MemorySegment workspace) {
        Parallel.forEach(tasks, rows * channels, this, workspace);
    }

    /** One panel: positions {@code [p0, p0 + rows)} of one sample. */
    @Override
    public void task(long task, MemorySegment workspace) {
        long n = task / panelsPerSample;
        long p0 = task % panelsPerSample * rows;
        int m = (int) Math.min(rows, positions - p0);
        short[] panel = Scratch.get().halfRow;
        ArrayCopies.load(src, srcAt + 2 * (n * positions + p0) * channels, panel, 0, m * (int) channels);
        BulkMath.forLayouts().storeHalfPanel(panel, m, (int) channels, dst, dstAt + 2 * (n * channels * positions + p0),
                2 * positions);
    }
}
