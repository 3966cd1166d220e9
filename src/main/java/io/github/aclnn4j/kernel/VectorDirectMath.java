package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * {@link DirectMath} on the Vector API: hands each operation to its operator's loops
 * ({@link BceBackwardVectorLoops}, {@link BceWithLogitsVectorLoops},
 * {@link BceWithLogitsBackwardVectorLoops}, {@link PreluVectorLoops},
 * {@link PreluBackwardVectorLoops}, {@link GroupNormVectorLoops}, {@link GroupNormBackwardVectorLoops},
 * {@link GroupNormChannelsLastVectorLoops}), whose shared rules {@link VectorLanes} describes. Loaded
 * by name only when {@code jdk.incubator.vector} is present.
 */
final class VectorDirectMath implements DirectMath {
    /** Whether BCE with logits' 16-bit loops gather their softplus values (see {@link Gathers}). */
    private final boolean gather;

    VectorDirectMath() {
        this(Gathers.FAST);
    }

    /** With the softplus lookup chosen, for tests of both ways. */
    VectorDirectMath(boolean gather) {
        if (DirectMath.STEP % (2 * VectorLanes.F.length()) != 0) {
            throw new UnsupportedOperationException(VectorLanes.F.length() + " float lanes do not divide the step");
        }
        this.gather = gather;
    }

    /** {@link DirectMath#STEP}: a multiple of every loop's step on 256- and 512-bit vectors (the widest, BFLOAT16 pairs, take 2 × 16 elements at 512 bits). */
    @Override
    public int step() {
        return STEP;
    }

    @Override
    public boolean supports(DType dtype) {
        return dtype == DType.FLOAT || dtype == DType.BF16 || dtype == DType.FLOAT16;
    }

    @Override
    public void bceBackward(DType dtype, MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y,
            long yAt, MemorySegment w, long wAt, float scale, MemorySegment out, long outAt, int n) {
        BceBackwardVectorLoops.bceBackward(dtype, g, gAt, x, xAt, y, yAt, w, wAt, scale, out, outAt, n);
    }

    @Override
    public void bceBackwardDenseGrad(DType dtype, MemorySegment g, long gAt, MemorySegment x, long xAt,
            MemorySegment y, long yAt, float w, float scale, MemorySegment out, long outAt, int n) {
        BceBackwardVectorLoops.bceBackwardDenseGrad(dtype, g, gAt, x, xAt, y, yAt, w, scale, out, outAt, n);
    }

    @Override
    public void bceBackwardUniform(DType dtype, float g, MemorySegment x, long xAt, MemorySegment y, long yAt,
            float w, float scale, MemorySegment out, long outAt, int n) {
        BceBackwardVectorLoops.bceBackwardUniform(dtype, g, x, xAt, y, yAt, w, scale, out, outAt, n);
    }

    @Override
    public void bceWithLogitsBackwardUniform(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt,
            float g, float w, float pw, float scale, MemorySegment out, long outAt, int n) {
        BceWithLogitsBackwardVectorLoops.bceWithLogitsBackwardUniform(dtype, x, xAt, y, yAt, g, w, pw, scale, out,
                outAt, n);
    }

    @Override
    public void bceWithLogitsBackwardDenseGrad(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment g, long gAt, float w, float pw, float scale, MemorySegment out, long outAt, int n) {
        BceWithLogitsBackwardVectorLoops.bceWithLogitsBackwardDenseGrad(dtype, x, xAt, y, yAt, g, gAt, w, pw, scale,
                out, outAt, n);
    }

    @Override
    public double bceWithLogits(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, MemorySegment w,
            long wAt, MemorySegment pw, long pwAt, MemorySegment out, long outAt, int n) {
        return BceWithLogitsVectorLoops.bceWithLogits(dtype, x, xAt, y, yAt, w, wAt, pw, pwAt, out, outAt, n, gather);
    }

    @Override
    public double bceWithLogitsUniform(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, float w,
            float pw, MemorySegment out, long outAt, int n) {
        return BceWithLogitsVectorLoops.bceWithLogitsUniform(dtype, x, xAt, y, yAt, w, pw, out, outAt, n, gather);
    }

    @Override
    public double prelu(DType dtype, MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        return PreluBackwardVectorLoops.prelu(dtype, x, xAt, g, gAt, w, out, outAt, n);
    }

    @Override
    public void bceWithLogitsBackward(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment g, long gAt, MemorySegment w, long wAt, MemorySegment pw, long pwAt, float scale,
            MemorySegment out, long outAt, int n) {
        BceWithLogitsBackwardVectorLoops.bceWithLogitsBackward(dtype, x, xAt, y, yAt, g, gAt, w, wAt, pw, pwAt, scale,
                out, outAt, n);
    }

    @Override
    public void preluChannelRows(DType dtype, MemorySegment x, long xAt, MemorySegment g, long gAt, int rows,
            int channels, float[] w, double[] acc, float[] out, int outAt) {
        PreluBackwardVectorLoops.channelRows(dtype, x, xAt, g, gAt, rows, channels, w, acc, out, outAt);
    }

    @Override
    public void preluBackwardChannelsLast(MemorySegment x, long xAt, MemorySegment g, long gAt, int positions,
            int channels, float[] w, MemorySegment gi, long giAt, long giColStride, double[] sums) {
        PreluBackwardVectorLoops.channelsLastBf16(x, xAt, g, gAt, positions, channels, w, gi, giAt, giColStride,
                sums);
    }

    @Override
    public void preluForward(DType dtype, MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        PreluVectorLoops.prelu(dtype, x, xAt, w, out, outAt, n);
    }

    @Override
    public void preluTransposed(DType dtype, MemorySegment x, long xAt, long xRowStride, int rows, int cols,
            float[] w, int wAt, MemorySegment out, long outAt, long outColStride) {
        PreluVectorLoops.preluTransposed(dtype, x, xAt, xRowStride, rows, cols, w, wAt, out, outAt, outColStride);
    }

    @Override
    public void preluForwardWeighted(DType dtype, MemorySegment x, long xAt, float[] w, int wAt, MemorySegment out,
            long outAt, int n) {
        PreluVectorLoops.preluWeighted(dtype, x, xAt, w, wAt, out, outAt, n);
    }

    @Override
    public double readAndSum(DType dtype, MemorySegment x, long xAt, float[] dst, int n) {
        return GroupNormVectorLoops.readAndSum(dtype, x, xAt, dst, n);
    }

    @Override
    public void affineStore(DType dtype, float[] src, int from, int n, double k, double bias, MemorySegment out,
            long outAt) {
        GroupNormVectorLoops.affineStore(dtype, src, from, n, k, bias, out, outAt);
    }

    @Override
    public void affineStoreScaled(DType dtype, float[] src, int from, int n, MemorySegment coefficients, long gammaAt,
            long betaAt, double rstd, double mean, MemorySegment out, long outAt) {
        GroupNormVectorLoops.affineStoreScaled(dtype, src, from, n, coefficients, gammaAt, betaAt, rstd, mean, out, outAt);
    }

    @Override
    public void groupSums(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, long rows, long rowLength,
            long n, MemorySegment sums, long sumsAt) {
        GroupNormBackwardVectorLoops.groupSums(dtype, a, aAt, b, bAt, rows, rowLength, n, sums, sumsAt);
    }

    @Override
    public void affine(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, double ca, double cb,
            double bias, MemorySegment out, long outAt, int n) {
        GroupNormBackwardVectorLoops.affine(dtype, a, aAt, b, bAt, ca, cb, bias, out, outAt, n);
    }

    @Override
    public void affineScaled(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, MemorySegment gamma,
            long gammaAt, double rs, double cb, double bias, MemorySegment out, long outAt, int n) {
        GroupNormBackwardVectorLoops.affineScaled(dtype, a, aAt, b, bAt, gamma, gammaAt, rs, cb, bias, out, outAt, n);
    }

    @Override
    public void groupNormUpdate(DType dtype, MemorySegment dy, long dyAt, MemorySegment x, long xAt, int rows,
            long rowLength, long n, float[] cdy, float cx, float mean, float k, MemorySegment out, long outAt) {
        GroupNormBackwardVectorLoops.groupNormUpdate(dtype, dy, dyAt, x, xAt, rows, rowLength, n, cdy, cx, mean, k,
                out, outAt);
    }

    @Override
    public void channelSums(DType dtype, MemorySegment x, long xAt, int positions, int channels, double[] sum) {
        GroupNormChannelsLastVectorLoops.channelSums(dtype, x, xAt, positions, channels, sum);
    }

    @Override
    public void channelSquaredDeviations(DType dtype, MemorySegment x, long xAt, int positions, int channels,
            double[] shift, double[] acc) {
        GroupNormChannelsLastVectorLoops.channelSquaredDeviations(dtype, x, xAt, positions, channels, shift, acc);
    }

    @Override
    public void channelSumsAndDots(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, int positions,
            int channels, double[] sum, double[] dot) {
        GroupNormChannelsLastVectorLoops.channelSumsAndDots(dtype, a, aAt, b, bAt, positions, channels, sum, dot);
    }

    @Override
    public void channelAffine(DType dtype, MemorySegment x, long xAt, int positions, int channels, double[] k,
            double[] bias, MemorySegment out, long outAt) {
        GroupNormChannelsLastVectorLoops.channelAffine(dtype, x, xAt, positions, channels, k, bias, out, outAt);
    }

    @Override
    public void channelAffinePairs(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, int positions,
            int channels, double[] ca, double[] cb, double[] bias, MemorySegment out, long outAt) {
        GroupNormChannelsLastVectorLoops.channelAffinePairs(dtype, a, aAt, b, bAt, positions, channels, ca, cb, bias,
                out, outAt);
    }
}
