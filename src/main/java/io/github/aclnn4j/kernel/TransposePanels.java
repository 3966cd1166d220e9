package io.github.aclnn4j.kernel;

/**
 * How a pass from channels-last memory ({@code [N, P, C]}: P positions of C channels per sample)
 * into channels-first memory ({@code [N, C, P]}) is cut into tasks: each task a panel of
 * {@link #rows} positions of one sample by up to {@link #MAX_CHANNELS} channels, about
 * {@link Blocks#SIZE} values, read as rows of channels and written as runs of positions. Task order
 * is sample, then panel of positions, then chunk of channels.
 */
final class TransposePanels {
    /** Positions per panel at least: the transposing stores' blocks are 8 × 8. */
    private static final int MIN_ROWS = 8;
    /**
     * Channels per panel at most: with 64 positions, a panel then reads and writes runs of 128
     * bytes (256 for FLOAT), whole cache lines, on both sides.
     */
    private static final int MAX_CHANNELS = 64;

    private final long positions;
    private final long channels;
    /** Channels per panel: all of them, or {@link #MAX_CHANNELS} at a time. */
    private final int chunk;
    private final long chunksPerPanelRow;
    /** Positions per panel: {@link Blocks#SIZE} values with {@link #chunk} channels, a multiple of 8. */
    private final int rows;
    private final long panelsPerSample;
    private final long tasks;

    TransposePanels(long samples, long positions, long channels) {
        this.positions = positions;
        this.channels = channels;
        this.chunk = (int) Math.min(channels, MAX_CHANNELS);
        this.chunksPerPanelRow = (channels + chunk - 1) / chunk;
        this.rows = Blocks.SIZE / chunk / MIN_ROWS * MIN_ROWS;
        this.panelsPerSample = (positions + rows - 1) / rows;
        this.tasks = samples * panelsPerSample * chunksPerPanelRow;
    }

    /** The number of tasks. */
    long tasks() {
        return tasks;
    }

    /** Values per task at most. */
    long valuesPerTask() {
        return (long) rows * chunk;
    }

    /** The first channel of {@code task}'s panel. */
    long firstChannel(long task) {
        return task % chunksPerPanelRow * chunk;
    }

    /** The channels of {@code task}'s panel. */
    int channels(long task) {
        return (int) Math.min(chunk, channels - firstChannel(task));
    }

    /** The positions of {@code task}'s panel. */
    int positions(long task) {
        return (int) Math.min(rows, positions - firstPosition(task));
    }

    /** The index of the panel's first value in channels-last order: {@code (n·P + p0)·C + c0}. */
    long channelsLastIndex(long task) {
        return (sample(task) * positions + firstPosition(task)) * channels + firstChannel(task);
    }

    /** The index of the panel's first value in channels-first order: {@code (n·C + c0)·P + p0}. */
    long channelsFirstIndex(long task) {
        return (sample(task) * channels + firstChannel(task)) * positions + firstPosition(task);
    }

    private long sample(long task) {
        return task / chunksPerPanelRow / panelsPerSample;
    }

    private long firstPosition(long task) {
        return task / chunksPerPanelRow % panelsPerSample * rows;
    }
}
