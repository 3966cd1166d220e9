package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * GroupNormBackward over channels-last memory (NHWC data seen as NCHW, channels innermost), one
 * task per sample walked in memory order as rows of C channels: per-channel {@code Σdy} and
 * {@code Σdy·x} (vectorised across channels, each channel's additions in position order) into the
 * workspace, the groups' coefficients as {@link GroupNormBackwardKernel} derives them, then
 * {@code dx = rstd·γ[c]·dy + b·x + c0} in double per element. gradGamma and gradBeta are then the
 * same reduction over n. A sample of up to {@link #CACHED_SAMPLE} elements is read once. Dense
 * FLOAT dy and x are read in place by the {@link DirectMath} channel loops, with the same
 * operations in the same order, so the same bits; they write a dense gradInput in place, and one of
 * another layout (NCHW memory) a few dozen positions at a time into {@link Scratch#outputRun},
 * moved from there in 8×8 blocks straight into a dense NCHW gradInput ({@link BulkMath#transposeFloats}),
 * or scattered through the transposing panels into any other (`bench ab` 16×256×32×32 into NCHW:
 * 4.01 → 2.78 ms, where the rows copied dy and x and computed from the copies; the straight
 * blocks, fresh JVMs, one thread 6.6–6.8 → 5.6–5.7 ms).
 */
public final class GroupNormBackwardChannelsLastKernel implements Parallel.Tasks, Kernel {
    /** Samples of up to this many elements of dy and of x (1 MB each in FLOAT) are read once. */
    private static final long CACHED_SAMPLE = 1 << 18;

    private final StridedView dy;
    private final StridedView x;
    private final StridedView mean;
    private final StridedView rstd;
    private final StridedView gamma;
    private final long n;
    private final int c;
    private final long hxw;
    private final int group;
    private final StridedView gradInput;
    private final StridedView gradGamma;
    private final StridedView gradBeta;
    /**
     * Dense FLOAT dy and x: read in place ({@link DirectMath#channelSumsAndDots}), gradInput (if
     * requested) written in place when dense, else staged ({@link #stagedPositions}).
     */
    private final boolean direct;
    /** Whether gradInput is written in place by the direct loops. */
    private final boolean outInPlace;
    /** gradInput as a dense channels-first view, where it is one: stretches transposed straight into it. */
    private final StridedView nchw;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param dy, x and {@code gradInput}: {@code [N, HxW, C]} views (dy's and x's channels innermost)
     * @param gamma null for all ones
     * @param gradInput, gradGamma, gradBeta null when not requested
     */
    public GroupNormBackwardChannelsLastKernel(StridedView dy, StridedView x, StridedView mean, StridedView rstd,
            StridedView gamma, long n, long c, long hxw, long group, StridedView gradInput, StridedView gradGamma,
            StridedView gradBeta) {
        this.dy = dy;
        this.x = x;
        this.mean = mean;
        this.rstd = rstd;
        this.gamma = gamma;
        this.n = n;
        this.c = Math.toIntExact(c);
        this.hxw = hxw;
        this.group = Math.toIntExact(group);
        this.gradInput = gradInput;
        this.gradGamma = gradGamma;
        this.gradBeta = gradBeta;
        outInPlace = gradInput == null || DirectOperands.dense(gradInput, DType.FLOAT);
        StridedView channelsFirst = gradInput == null ? null : gradInput.permute(0, 2, 1);
        nchw = !outInPlace && channelsFirst != null && DirectOperands.dense(channelsFirst, DType.FLOAT)
                ? channelsFirst : null;
        direct = DirectOperands.supported(Warmup.Family.GROUP_NORM_BACKWARD, DType.FLOAT)
                && DirectOperands.dense(dy, DType.FLOAT)
                && DirectOperands.dense(x, DType.FLOAT)
                && (outInPlace || c <= Scratch.OUTPUT_RUN)
                && hxw <= Integer.MAX_VALUE; // int position counts
    }

    /** Runs the whole call: a task per sample on the library's threads, then gradBeta and gradGamma. */
    @Override
    public void run(MemorySegment workspace) {
        Parallel.forEach(n, c * hxw, this, workspace);
        GroupNormBackwardKernel.reduceOverSamples(workspace, n, c, gradGamma, gradBeta);
    }

    @Override
    public void task(long sample, MemorySegment workspace) {
        Scratch s = Scratch.get();
        double[][] perChannel = s.channelDoubles(c);
        double[] sums = perChannel[0];
        double[] dots = perChannel[1];
        long first = sample * hxw * c;
        Arrays.fill(sums, 0, c, 0.0);
        Arrays.fill(dots, 0, c, 0.0);
        boolean cached = !direct && hxw * c <= CACHED_SAMPLE;
        int rowsPerChunk = cached ? (int) hxw : Math.max(1, Blocks.SIZE / c);
        if (direct) {
            DirectOperands.math().channelSumsAndDots(DType.FLOAT, dy.segment(), dy.denseOffset(first), x.segment(),
                    x.denseOffset(first), (int) hxw, c, sums, dots);
        } else {
            s.ensureGroupRows(rowsPerChunk * c);
            for (long p = 0; p < hxw; p += rowsPerChunk) {
                int rows = (int) Math.min(rowsPerChunk, hxw - p);
                dy.gather(first + p * c, s.groupA, rows * c);
                x.gather(first + p * c, s.groupB, rows * c);
                BulkMath.current().addChannelRows(s.groupA, s.groupB, rows, c, sums, dots);
            }
        }
        double[] pairs = s.sums(2 * c);
        for (int ch = 0; ch < c; ch++) {
            pairs[2 * ch] = sums[ch];
            pairs[2 * ch + 1] = dots[ch];
        }
        s.storeSums(pairs, workspace, 16 * sample * c, 2 * c);
        int d = c / group;
        if (gradInput != null) {
            // the coefficients per channel, in the spent sums and dots and the third array
            double[] ca = sums;
            double[] cb = dots;
            double[] bias = perChannel[2];
            float[] gammas = gamma == null ? null : s.weights(d);
            for (int g = 0; g < group; g++) {
                if (gammas != null) {
                    gamma.gather((long) g * d, gammas, d);
                }
                double[] coef = GroupNormBackwardKernel.coefficients(mean, rstd, gammas, c, hxw, d, sample, g,
                        sample * group + g, workspace);
                for (int r = 0; r < d; r++) {
                    ca[g * d + r] = coef[0] * (gammas == null ? 1 : gammas[r]);
                    cb[g * d + r] = coef[1];
                    bias[g * d + r] = coef[2];
                }
            }
            if (direct && outInPlace) {
                DirectOperands.math().channelAffinePairs(DType.FLOAT, dy.segment(), dy.denseOffset(first),
                        x.segment(), x.denseOffset(first), (int) hxw, c, ca, cb, bias,
                        gradInput.segment(), gradInput.denseOffset(first));
            } else if (direct) {
                stagedPositions(s, first, ca, cb, bias);
            } else {
                for (long p = 0; p < hxw; p += rowsPerChunk) { // a cached sample is still in the rows
                    int rows = (int) Math.min(rowsPerChunk, hxw - p);
                    if (!cached) {
                        dy.gather(first + p * c, s.groupA, rows * c);
                        x.gather(first + p * c, s.groupB, rows * c);
                    }
                    BulkMath.current().affineChannelPairs(s.groupA, s.groupB, rows, c, ca, cb, bias);
                    gradInput.scatter(first + p * c, s.groupA, rows * c);
                }
            }
        }
        for (int g = 0; g < group; g++) {
            long task = sample * group + g;
            GroupNormBackwardKernel.gammaTerms(mean.get(task), rstd.get(task), sample * c + (long) g * d, d,
                    workspace);
        }
    }

    /**
     * The sample's update by the direct loop into {@link Scratch#outputRun}, as many positions at a
     * time as fit there, each stretch then transposed into a dense NCHW gradInput, or scattered into
     * another layout from a float array.
     */
    private void stagedPositions(Scratch s, long first, double[] ca, double[] cb, double[] bias) {
        int positions = Scratch.OUTPUT_RUN / c;
        s.ensureGroupRows(positions * c);
        for (long p = 0; p < hxw; p += positions) {
            int n = (int) Math.min(positions, hxw - p);
            long at = first + p * c;
            DirectOperands.math().channelAffinePairs(DType.FLOAT, dy.segment(), dy.denseOffset(at), x.segment(),
                    x.denseOffset(at), n, c, ca, cb, bias, s.outputRun, 0);
            if (nchw != null) {
                long sample = first / (hxw * c);
                // the direct path's own loops, warm with them (not the layouts', which may still be cold)
                BulkMath.current().transposeFloats(s.outputRun, 0, 4L * c, n, c, nchw.segment(),
                        nchw.denseOffset(sample * c * hxw + p), 4L * hxw);
            } else {
                DirectOperands.scatterRun(s.outputRun, s.groupA, gradInput, at, n * c);
            }
        }
    }
}
