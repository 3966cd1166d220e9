package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * GroupNorm forward over channels-last memory (NHWC data seen as NCHW, channels innermost): each
 * sample is walked in memory order, as rows of C channels, one row per position (read once when it
 * has at most {@link #CACHED_SAMPLE} elements, else once per pass). Three passes over the sample: per-channel sums give each group's mean; per-channel sums of squared deviations from
 * it give the biased variance (two passes, so nothing cancels), {@code rstd = 1/√(var + eps)};
 * then {@code out = x·k[c] + (β[c] − mean·k[c])} with {@code k[c] = rstd·γ[c]}, in double, rounded
 * once to out's dtype after the fused multiply-add. Every channel's sums run in position order,
 * vectorised across channels ({@link BulkMath#addChannelSums}); one task per sample, so the bits
 * never depend on the thread count. They differ in the last places from {@link GroupNormKernel}'s,
 * whose sums run in another order. Dense FLOAT self and out are read and written in place by the
 * {@link DirectMath} channel loops, with the same operations in the same order, so the same bits.
 */
public final class GroupNormChannelsLastKernel implements Parallel.Tasks, Kernel {
    private final StridedView self;
    private final StridedView gamma;
    private final StridedView beta;
    private final int channels;
    private final long hxw;
    private final int group;
    private final double eps;
    private final StridedView out;
    private final StridedView mean;
    private final StridedView rstd;
    /**
     * Dense FLOAT self and out: read and written in place ({@link DirectMath#channelSums}). With a
     * transposed out, the rows' copy of the whole sample stays: its scatter then moves long runs.
     */
    private final boolean direct;
    /** Off the direct loops: whether a sample is copied into rows once ({@link #CACHED_SAMPLE}). */
    private final boolean cached;
    /** Positions per copy into rows: the whole sample when {@link #cached}. */
    private final int rowsPerChunk;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param self and {@code out}: {@code [N, HxW, C]} views (self's channels innermost in memory)
     * @param gamma null for ones
     * @param beta null for zeros
     * @param mean and {@code rstd}: row-major {@code [N, group]}
     */
    public GroupNormChannelsLastKernel(StridedView self, StridedView gamma, StridedView beta, long channels, long hxw,
            long group, double eps, StridedView out, StridedView mean, StridedView rstd) {
        this.self = self;
        this.gamma = gamma;
        this.beta = beta;
        this.channels = Math.toIntExact(channels);
        this.hxw = hxw;
        this.group = Math.toIntExact(group);
        this.eps = (float) eps;
        this.out = out;
        this.mean = mean;
        this.rstd = rstd;
        direct = DirectOperands.supported(Warmup.Family.GROUP_NORM, DType.FLOAT)
                && DirectOperands.dense(self, DType.FLOAT)
                && DirectOperands.dense(out, DType.FLOAT) && hxw <= Integer.MAX_VALUE; // int position counts
        cached = hxw * channels <= CACHED_SAMPLE;
        rowsPerChunk = cached ? (int) hxw : Math.max(1, Blocks.SIZE / this.channels);
    }

    /** Runs the whole call: a task per sample on the library's threads. */
    @Override
    public void run(MemorySegment workspace) {
        Parallel.forEach(self.numel() / (channels * hxw), channels * hxw, this, workspace);
    }

    @Override
    public void task(long sample, MemorySegment workspace) {
        Scratch s = Scratch.get();
        double[][] perChannel = s.channelDoubles(channels);
        double[] sums = perChannel[0];
        double[] groupMeans = perChannel[1];
        double[] variances = perChannel[2];
        long first = sample * hxw * channels;
        long count = hxw * (channels / group);
        float[] rows = null; // the rows' copy: all of a cached sample, else a chunk at a time
        if (!direct) {
            s.ensureGroupRows(rowsPerChunk * channels);
            rows = s.groupA;
            if (cached) {
                self.gather(first, rows, (int) hxw * channels);
            }
        }
        Arrays.fill(sums, 0, channels, 0.0);
        addSums(first, rows, sums);
        forEachGroup(sums, count, groupMeans);
        Arrays.fill(sums, 0, channels, 0.0);
        addSquaredDeviations(first, rows, groupMeans, sums);
        forEachGroup(sums, count, variances);
        double[] k = sums;
        double[] bias = variances;
        coefficients(sample, groupMeans, variances, k, bias);
        update(first, rows, k, bias);
    }

    /** Each channel's sum over the sample's positions, added into {@code sums}. */
    private void addSums(long first, float[] rows, double[] sums) {
        if (direct) {
            DirectOperands.math().channelSums(DType.FLOAT, self.segment(), self.denseOffset(first), (int) hxw,
                    channels, sums);
            return;
        }
        for (long p = 0; p < hxw; p += rowsPerChunk) {
            int n = (int) Math.min(rowsPerChunk, hxw - p);
            if (!cached) {
                self.gather(first + p * channels, rows, n * channels);
            }
            BulkMath.current().addChannelSums(rows, n, channels, sums);
        }
    }

    /** Each channel's squared deviations from its group's mean ({@code means}), added into {@code sums}. */
    private void addSquaredDeviations(long first, float[] rows, double[] means, double[] sums) {
        if (direct) {
            DirectOperands.math().channelSquaredDeviations(DType.FLOAT, self.segment(), self.denseOffset(first),
                    (int) hxw, channels, means, sums);
            return;
        }
        for (long p = 0; p < hxw; p += rowsPerChunk) {
            int n = (int) Math.min(rowsPerChunk, hxw - p);
            if (!cached) {
                self.gather(first + p * channels, rows, n * channels);
            }
            BulkMath.current().addChannelSquaredDeviations(rows, n, channels, means, sums);
        }
    }

    /** {@code out = x·k[c] + bias[c]} over the sample. */
    private void update(long first, float[] rows, double[] k, double[] bias) {
        if (direct) {
            DirectOperands.math().channelAffine(DType.FLOAT, self.segment(), self.denseOffset(first), (int) hxw,
                    channels, k, bias, out.segment(), out.denseOffset(first));
            return;
        }
        for (long p = 0; p < hxw; p += rowsPerChunk) {
            int n = (int) Math.min(rowsPerChunk, hxw - p);
            if (!cached) {
                self.gather(first + p * channels, rows, n * channels);
            }
            BulkMath.current().affineChannelRows(rows, n, channels, k, bias);
            out.scatter(first + p * channels, rows, n * channels);
        }
    }

    /**
     * Each group's mean and rstd stored, and each channel's {@code k = rstd·γ[c]} and
     * {@code bias = β[c] − mean·k} into {@code k} and {@code bias}, which may be the spent
     * per-channel arrays {@code means} and {@code variances} themselves: a group's entries are read
     * before its channels' are overwritten.
     */
    private void coefficients(long sample, double[] means, double[] variances, double[] k, double[] bias) {
        int perGroup = channels / group;
        for (int g = 0; g < group; g++) {
            double m = means[g * perGroup];
            double r = 1 / Math.sqrt(variances[g * perGroup] + eps);
            mean.set(sample * group + g, (float) m);
            rstd.set(sample * group + g, (float) r);
            for (int c = g * perGroup; c < (g + 1) * perGroup; c++) {
                k[c] = r * (gamma == null ? 1 : gamma.get(c));
                bias[c] = (beta == null ? 0 : beta.get(c)) - m * k[c];
            }
        }
    }

    /**
     * Samples of up to this many elements (1 MB of FLOAT, within L2) are read once, their passes
     * running over the copy; larger ones are read in blocks once per pass.
     */
    private static final long CACHED_SAMPLE = 1 << 18;

    /**
     * Each group's per-channel {@code sums} added in channel order and divided by {@code count}, the
     * result written to every channel of the group in {@code into}.
     */
    private void forEachGroup(double[] sums, long count, double[] into) {
        int perGroup = channels / group;
        for (int g = 0; g < group; g++) {
            double total = 0;
            for (int c = g * perGroup; c < (g + 1) * perGroup; c++) {
                total += sums[c];
            }
            Arrays.fill(into, g * perGroup, (g + 1) * perGroup, total / count);
        }
    }
}
