package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * GroupNorm's channels-last Vector API loops for {@link VectorDirectMath}, FLOAT, straight on dense
 * {@code [positions, channels]} memory, position by position in memory order: per-channel sums
 * added into arrays of one double per channel (which stay in L1), and the per-channel updates. The
 * row loops of {@link BulkMath} do the same on a copy of the sample; these skip the copy in and out
 * (half the time of a sample's passes went to the copies: Zen 3, 16×256×32×32). Each channel adds
 * its terms in position order with the same operations, so the bits are those of
 * {@link BulkMath#addChannelRows} and its siblings. Walking a block of channels down the positions
 * with its sums in registers was slower: the first pass reads the sample from memory, and it then
 * reads it at a stride of a row (FLOAT forward 3.4 against 3.0 ms).
 */
final class GroupNormChannelsLastVectorLoops {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private GroupNormChannelsLastVectorLoops() {}

    /**
     * Positions each pass over the channels takes: a channel's running sum is loaded and stored
     * once per {@code STEP} positions rather than once per position, so its chain of additions no
     * longer waits on a store to reach the next load (in-cache sums of 1024×256: 0.071 → 0.054 ms).
     */
    private static final int STEP = 4;

    /** {@code sum[c] += x[p, c]} over positions {@code p} in order, for each channel c. */
    static void channelSums(DType dtype, MemorySegment x, long xAt, int positions, int channels, double[] sum) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        x = (MemorySegment) NATIVE.cast(x);
        int bound = FD.loopBound(channels);
        long rowBytes = 4L * channels;
        int p = 0;
        for (; p + STEP <= positions; p += STEP) {
            long row = xAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                long at = row + 4L * c;
                DoubleVector.fromArray(D, sum, c).add(widened(x, at)).add(widened(x, at + rowBytes))
                        .add(widened(x, at + 2 * rowBytes)).add(widened(x, at + 3 * rowBytes)).intoArray(sum, c);
            }
            for (; c < channels; c++) {
                long at = row + 4L * c;
                sum[c] = sum[c] + x.get(F32, at) + x.get(F32, at + rowBytes) + x.get(F32, at + 2 * rowBytes)
                        + x.get(F32, at + 3 * rowBytes);
            }
        }
        for (; p < positions; p++) {
            long row = xAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector.fromArray(D, sum, c).add(widened(x, row + 4L * c)).intoArray(sum, c);
            }
            for (; c < channels; c++) {
                sum[c] += x.get(F32, row + 4L * c);
            }
        }
    }

    /** {@code acc[c] = fma(d, d, acc[c])} with {@code d = x[p, c] − shift[c]}, over positions in order. */
    static void channelSquaredDeviations(DType dtype, MemorySegment x, long xAt, int positions, int channels,
            double[] shift, double[] acc) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        x = (MemorySegment) NATIVE.cast(x);
        int bound = FD.loopBound(channels);
        long rowBytes = 4L * channels;
        int p = 0;
        for (; p + STEP <= positions; p += STEP) {
            long row = xAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                long at = row + 4L * c;
                DoubleVector m = DoubleVector.fromArray(D, shift, c);
                DoubleVector d0 = widened(x, at).sub(m);
                DoubleVector d1 = widened(x, at + rowBytes).sub(m);
                DoubleVector d2 = widened(x, at + 2 * rowBytes).sub(m);
                DoubleVector d3 = widened(x, at + 3 * rowBytes).sub(m);
                d3.fma(d3, d2.fma(d2, d1.fma(d1, d0.fma(d0, DoubleVector.fromArray(D, acc, c))))).intoArray(acc, c);
            }
            for (; c < channels; c++) {
                long at = row + 4L * c;
                double d0 = x.get(F32, at) - shift[c];
                double d1 = x.get(F32, at + rowBytes) - shift[c];
                double d2 = x.get(F32, at + 2 * rowBytes) - shift[c];
                double d3 = x.get(F32, at + 3 * rowBytes) - shift[c];
                acc[c] = Math.fma(d3, d3, Math.fma(d2, d2, Math.fma(d1, d1, Math.fma(d0, d0, acc[c]))));
            }
        }
        for (; p < positions; p++) {
            long row = xAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector d = widened(x, row + 4L * c).sub(DoubleVector.fromArray(D, shift, c));
                d.fma(d, DoubleVector.fromArray(D, acc, c)).intoArray(acc, c);
            }
            for (; c < channels; c++) {
                double d = x.get(F32, row + 4L * c) - shift[c];
                acc[c] = Math.fma(d, d, acc[c]);
            }
        }
    }

    /** {@code sum[c] += a[p, c]} and {@code dot[c] = fma(a[p, c], b[p, c], dot[c])}, over positions in order. */
    static void channelSumsAndDots(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, int positions,
            int channels, double[] sum, double[] dot) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        a = (MemorySegment) NATIVE.cast(a);
        b = (MemorySegment) NATIVE.cast(b);
        int bound = FD.loopBound(channels);
        long rowBytes = 4L * channels;
        int p = 0;
        for (; p + STEP <= positions; p += STEP) {
            long aRow = aAt + p * rowBytes;
            long bRow = bAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                long ai = aRow + 4L * c;
                long bi = bRow + 4L * c;
                DoubleVector a0 = widened(a, ai);
                DoubleVector a1 = widened(a, ai + rowBytes);
                DoubleVector a2 = widened(a, ai + 2 * rowBytes);
                DoubleVector a3 = widened(a, ai + 3 * rowBytes);
                DoubleVector.fromArray(D, sum, c).add(a0).add(a1).add(a2).add(a3).intoArray(sum, c);
                a3.fma(widened(b, bi + 3 * rowBytes), a2.fma(widened(b, bi + 2 * rowBytes),
                        a1.fma(widened(b, bi + rowBytes), a0.fma(widened(b, bi), DoubleVector.fromArray(D, dot, c)))))
                        .intoArray(dot, c);
            }
            for (; c < channels; c++) {
                long ai = aRow + 4L * c;
                long bi = bRow + 4L * c;
                for (int k = 0; k < STEP; k++) {
                    float av = a.get(F32, ai + k * rowBytes);
                    sum[c] += av;
                    dot[c] = Math.fma(av, (double) b.get(F32, bi + k * rowBytes), dot[c]);
                }
            }
        }
        for (; p < positions; p++) {
            long aRow = aAt + p * rowBytes;
            long bRow = bAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector av = widened(a, aRow + 4L * c);
                DoubleVector.fromArray(D, sum, c).add(av).intoArray(sum, c);
                av.fma(widened(b, bRow + 4L * c), DoubleVector.fromArray(D, dot, c)).intoArray(dot, c);
            }
            for (; c < channels; c++) {
                float av = a.get(F32, aRow + 4L * c);
                sum[c] += av;
                dot[c] = Math.fma(av, (double) b.get(F32, bRow + 4L * c), dot[c]);
            }
        }
    }

    /** The {@link VectorLanes#FD} floats at byte {@code at} of {@code x}, widened. */
    private static DoubleVector widened(MemorySegment x, long at) {
        return (DoubleVector) FloatVector.fromMemorySegment(FD, x, at, ORDER).convertShape(VectorOperators.F2D, D, 0);
    }

    /**
     * {@code out[p, c] = (float) fma(k[c], x[p, c], bias[c])}, as {@link BulkMath#affineChannelRows},
     * position by position in memory order.
     */
    static void channelAffine(DType dtype, MemorySegment x, long xAt, int positions, int channels, double[] k,
            double[] bias, MemorySegment out, long outAt) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        int bound = FD.loopBound(channels);
        long rowBytes = 4L * channels;
        for (int p = 0; p < positions; p++) {
            long xRow = xAt + p * rowBytes;
            long outRow = outAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector v = DoubleVector.fromArray(D, k, c).fma(widened(x, xRow + 4L * c),
                        DoubleVector.fromArray(D, bias, c));
                ((FloatVector) v.convertShape(VectorOperators.D2F, FD, 0)).intoMemorySegment(out, outRow + 4L * c, ORDER);
            }
            for (; c < channels; c++) {
                out.set(F32, outRow + 4L * c, (float) Math.fma(k[c], x.get(F32, xRow + 4L * c), bias[c]));
            }
        }
    }

    /**
     * {@code out[p, c] = (float) (ca[c]·a[p, c] + cb[c]·b[p, c] + bias[c])}, as
     * {@link BulkMath#affineChannelPairs}, position by position in memory order.
     */
    static void channelAffinePairs(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, int positions,
            int channels, double[] ca, double[] cb, double[] bias, MemorySegment out, long outAt) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        a = (MemorySegment) NATIVE.cast(a);
        b = (MemorySegment) NATIVE.cast(b);
        out = (MemorySegment) NATIVE.cast(out);
        int bound = FD.loopBound(channels);
        long rowBytes = 4L * channels;
        for (int p = 0; p < positions; p++) {
            long aRow = aAt + p * rowBytes;
            long bRow = bAt + p * rowBytes;
            long outRow = outAt + p * rowBytes;
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector ad = widened(a, aRow + 4L * c);
                DoubleVector bd = widened(b, bRow + 4L * c);
                ((FloatVector) ad.mul(DoubleVector.fromArray(D, ca, c)).add(bd.mul(DoubleVector.fromArray(D, cb, c)))
                        .add(DoubleVector.fromArray(D, bias, c)).convertShape(VectorOperators.D2F, FD, 0))
                        .intoMemorySegment(out, outRow + 4L * c, ORDER);
            }
            for (; c < channels; c++) {
                out.set(F32, outRow + 4L * c, (float) (ca[c] * a.get(F32, aRow + 4L * c)
                        + cb[c] * b.get(F32, bRow + 4L * c) + bias[c]));
            }
        }
    }
}
