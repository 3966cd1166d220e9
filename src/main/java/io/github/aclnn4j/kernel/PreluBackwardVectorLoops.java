package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorBulkMath.D4;
import static io.github.aclnn4j.kernel.VectorBulkMath.D8;
import static io.github.aclnn4j.kernel.VectorBulkMath.F4;
import static io.github.aclnn4j.kernel.VectorBulkMath.F8;
import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * PReLU backward's Vector API loops for {@link VectorDirectMath}: the gradient and the sum of
 * {@code min(x, 0)·g} per dtype; see {@link VectorLanes} for the rules they follow.
 */
final class PreluBackwardVectorLoops {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    /** The 16-bit lanes that widen to {@code FD}'s floats, and the ints they widen through. */
    private static final VectorSpecies<Short> SD = VectorSpecies.of(short.class,
            VectorShape.forBitSize(FD.length() * Short.SIZE));
    private static final VectorSpecies<Integer> ID = FD.withLanes(int.class);

    private PreluBackwardVectorLoops() {}

    static double prelu(DType dtype, MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        return switch (dtype) {
            case FLOAT -> preluF32(x, xAt, g, gAt, w, out, outAt, n);
            case BF16 -> preluBf16(x, xAt, g, gAt, w, out, outAt, n);
            case FLOAT16 -> preluF16(x, xAt, g, gAt, w, out, outAt, n);
            default -> throw unsupported(dtype);
        };
    }

    static void channelRows(DType dtype, MemorySegment x, long xAt, MemorySegment g, long gAt, int rows, int channels,
            float[] w, double[] acc, float[] out, int outAt) {
        switch (dtype) {
            case FLOAT -> channelRowsF32(x, xAt, g, gAt, rows, channels, w, acc, out, outAt);
            case BF16 -> channelRowsBf16(x, xAt, g, gAt, rows, channels, w, acc, out, outAt);
            default -> throw unsupported(dtype);
        }
    }

    /**
     * {@link #channelRowsF32} over BFLOAT16 memory, each value widened as a gathered row widens it,
     * so the same floats and the same operations on them.
     */
    private static void channelRowsBf16(MemorySegment x, long xAt, MemorySegment g, long gAt, int rows, int channels,
            float[] w, double[] acc, float[] out, int outAt) {
        x = (MemorySegment) NATIVE.cast(x);
        g = (MemorySegment) NATIVE.cast(g);
        int whole = FD.loopBound(channels);
        long rowBytes = 2L * channels;
        for (int r = 0; r < rows; r++) {
            long xRow = xAt + r * rowBytes;
            long gRow = gAt + r * rowBytes;
            int outRow = outAt + r * channels;
            int c = 0;
            for (; c < whole; c += FD.length()) {
                FloatVector xv = ((IntVector) ShortVector.fromMemorySegment(SD, x, xRow + 2L * c, ORDER)
                        .convertShape(VectorOperators.ZERO_EXTEND_S2I, ID, 0)).lanewise(VectorOperators.LSHL, 16)
                        .reinterpretAsFloats();
                FloatVector gv = ((IntVector) ShortVector.fromMemorySegment(SD, g, gRow + 2L * c, ORDER)
                        .convertShape(VectorOperators.ZERO_EXTEND_S2I, ID, 0)).lanewise(VectorOperators.LSHL, 16)
                        .reinterpretAsFloats();
                VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
                DoubleVector xd = (DoubleVector) xv.blend(0f, up).convertShape(VectorOperators.F2D, D, 0); // min(x, 0)
                DoubleVector gd = (DoubleVector) gv.blend(0f, up).convertShape(VectorOperators.F2D, D, 0); // 0 if x > 0
                xd.fma(gd, DoubleVector.fromArray(D, acc, c)).intoArray(acc, c); // the product is exact
                gv.mul(FloatVector.fromArray(FD, w, c)).blend(gv, up).intoArray(out, outRow + c);
            }
            for (; c < channels; c++) { // the row's last channels, with the same operations
                float xi = HalfFloats.fromBf16(x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xRow + 2L * c));
                float gi = HalfFloats.fromBf16(g.get(ValueLayout.JAVA_SHORT_UNALIGNED, gRow + 2L * c));
                acc[c] += xi > 0 ? 0.0 : (double) xi * gi;
                out[outRow + c] = xi > 0 ? gi : w[c] * gi;
            }
        }
    }

    /**
     * BFLOAT16 PReLU backward over {@code positions} rows of {@code channels} values (channels-last
     * memory: dense {@code x} and {@code g}, rows {@code 2·channels} bytes apart), the gradient
     * stored transposed (channel c's run of positions at {@code giAt + c·giColStride}) and
     * {@code sums[c]} the sum of x·g over channel c's non-positive x. Each channel's sum is
     * {@link #preluBf16}'s over that channel's run of positions, term for term: lane row
     * {@code p mod 2F} of the fp32 lanes
     * holds the lane preluBf16 adds position p into (the even positions of a step into its first
     * vector, the odd ones into its second), and each chunk of {@link VectorLanes#SUM_CHUNK}
     * positions goes into double lanes as {@link SumOrder#addChunkLanes} adds it; the gradient takes
     * preluBf16's operations. So both have the bits of the call on a channels-first copy.
     * {@code positions} is a multiple of {@link DirectMath#STEP}.
     *
     * <p>The gradient leaves a tile a pair of positions per 32-bit value (each channel's two rounded
     * values side by side, as they lie in channels-first memory), so that it is transposed as 32-bit
     * values: half the permutes of a 16-bit transpose per element.
     */
    static void channelsLastBf16(MemorySegment x, long xAt, MemorySegment g, long gAt, int positions, int channels,
            float[] w, MemorySegment gi, long giAt, long giColStride, double[] sums) {
        Scratch s = Scratch.get();
        int period = 2 * F.length();
        int doubleLanes = D.length();
        int tileValues = period * channels;
        float[] lanes = s.channelLanes(tileValues + channels); // the lane rows, then the weights in lane order
        double[] wide = s.channelDoubleLanes(doubleLanes * channels);
        float[] pairs = s.channelPairs(tileValues / 2);
        for (int c = 0; c < channels; c++) {
            lanes[tileValues + laneOf(c, channels)] = w[c];
        }
        Arrays.fill(wide, 0, doubleLanes * channels, 0.0);
        long rowBytes = 2L * channels;
        int whole = channels - channels % period;
        for (int chunk = 0; chunk < positions; chunk += SUM_CHUNK) {
            Arrays.fill(lanes, 0, tileValues, 0f);
            for (int p = chunk, end = Math.min(positions, chunk + SUM_CHUNK); p < end; p += period) {
                channelsLastTileBf16(x, xAt + p * rowBytes, g, gAt + p * rowBytes, period, channels, lanes,
                        tileValues, pairs);
                storePairsTransposed(pairs, period / 2, channels, whole, gi, giAt + 2L * p, giColStride);
                if (whole < channels) { // only where there is an edge, as preluTransposedBf16 calls its own
                    channelsLastEdgeBf16(x, xAt + p * rowBytes, g, gAt + p * rowBytes, period, channels, whole,
                            lanes, tileValues, gi, giAt + 2L * p, giColStride);
                }
            }
            addChannelChunkLanes(lanes, period, channels, wide, doubleLanes);
        }
        for (int c = 0; c < channels; c++) {
            sums[c] = SumOrder.sumFirst(wide, c * doubleLanes, doubleLanes); // as VectorBulkMath.sumLanes adds
        }
    }

    /**
     * A tile of {@code rows} channels-last BFLOAT16 rows (an even count), its groups of 2F channels:
     * row r's terms added to lane row r of {@code lanes} (fp32, rows of {@code channels} in
     * {@link #laneOf} order, the weights after them from {@code weightsAt} in that order too), its
     * gradient rounded to BFLOAT16, rows 2q and 2q + 1 packed into row q of {@code pairs} (in lane
     * order); the same operations as {@link #preluBf16}.
     */
    private static void channelsLastTileBf16(MemorySegment x, long xAt, MemorySegment g, long gAt, int rows,
            int channels, float[] lanes, int weightsAt, float[] pairs) {
        x = (MemorySegment) NATIVE.cast(x);
        g = (MemorySegment) NATIVE.cast(g);
        int group = 2 * F.length();
        int whole = channels - channels % group;
        long rowBytes = 2L * channels;
        for (int c = 0; c < whole; c += group) {
            FloatVector w0 = FloatVector.fromArray(F, lanes, weightsAt + c);
            FloatVector w1 = FloatVector.fromArray(F, lanes, weightsAt + c + F.length());
            for (int r = 0; r < rows; r += 2) {
                long at = r * rowBytes + 2L * c;
                IntVector xp = IntVector.fromMemorySegment(I, x, xAt + at, ORDER);
                IntVector gp = IntVector.fromMemorySegment(I, g, gAt + at, ORDER);
                FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
                FloatVector g0 = gp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                FloatVector g1 = gp.and(HIGH).reinterpretAsFloats();
                VectorMask<Float> up0 = x0.compare(VectorOperators.GT, 0f);
                VectorMask<Float> up1 = x1.compare(VectorOperators.GT, 0f);
                int lane = r * channels + c;
                FloatVector a0 = FloatVector.fromArray(F, lanes, lane);
                FloatVector a1 = FloatVector.fromArray(F, lanes, lane + F.length());
                x0.fma(g0, a0).blend(a0, up0).intoArray(lanes, lane); // as preluBf16
                x1.fma(g1, a1).blend(a1, up1).intoArray(lanes, lane + F.length());
                FloatVector f0 = g0.mul(w0).blend(g0, up0);
                FloatVector f1 = g1.mul(w1).blend(g1, up1);
                IntVector r0 = f0.reinterpretAsInts();
                IntVector r1 = f1.reinterpretAsInts();
                r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
                r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
                // the next row, the same way
                at += rowBytes;
                xp = IntVector.fromMemorySegment(I, x, xAt + at, ORDER);
                gp = IntVector.fromMemorySegment(I, g, gAt + at, ORDER);
                x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                x1 = xp.and(HIGH).reinterpretAsFloats();
                g0 = gp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                g1 = gp.and(HIGH).reinterpretAsFloats();
                up0 = x0.compare(VectorOperators.GT, 0f);
                up1 = x1.compare(VectorOperators.GT, 0f);
                lane += channels;
                a0 = FloatVector.fromArray(F, lanes, lane);
                a1 = FloatVector.fromArray(F, lanes, lane + F.length());
                x0.fma(g0, a0).blend(a0, up0).intoArray(lanes, lane);
                x1.fma(g1, a1).blend(a1, up1).intoArray(lanes, lane + F.length());
                f0 = g0.mul(w0).blend(g0, up0);
                f1 = g1.mul(w1).blend(g1, up1);
                IntVector s0 = f0.reinterpretAsInts();
                IntVector s1 = f1.reinterpretAsInts();
                s0 = s0.add(s0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
                s1 = s1.add(s1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
                int pair = (r / 2) * channels + c;
                r0.lanewise(VectorOperators.LSHR, 16).or(s0.and(HIGH)).reinterpretAsFloats().intoArray(pairs, pair);
                r1.lanewise(VectorOperators.LSHR, 16).or(s1.and(HIGH)).reinterpretAsFloats()
                        .intoArray(pairs, pair + F.length());
            }
        }
    }

    /**
     * The channels of a tile past its last group of 2F, {@code [from, channels)}, one by one with the
     * operations of {@link #channelsLastTileBf16}: their terms into their lane rows, their gradient
     * stored where it goes.
     */
    private static void channelsLastEdgeBf16(MemorySegment x, long xAt, MemorySegment g, long gAt, int rows,
            int channels, int from, float[] lanes, int weightsAt, MemorySegment gi, long giAt, long giColStride) {
        for (int c = from; c < channels; c++) {
            float wc = lanes[weightsAt + c];
            for (int r = 0; r < rows; r++) {
                long at = (long) r * 2 * channels + 2L * c;
                float xi = HalfFloats.fromBf16(x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xAt + at));
                float gr = HalfFloats.fromBf16(g.get(ValueLayout.JAVA_SHORT_UNALIGNED, gAt + at));
                boolean up = xi > 0;
                int lane = r * channels + c;
                lanes[lane] = up ? lanes[lane] : Math.fma(xi, gr, lanes[lane]);
                float f = up ? gr : gr * wc;
                int bits = Float.floatToRawIntBits(f);
                gi.set(ValueLayout.JAVA_SHORT_UNALIGNED, giAt + c * giColStride + 2L * r,
                        (short) (f != f ? 0x7FC0 : (bits + ((bits >>> 16) & 1) + 0x7FFF) >>> 16));
            }
        }
    }

    /**
     * One chunk's fp32 lanes of every channel into its double lanes, as {@link SumOrder#addChunkLanes}
     * adds preluBf16's two vectors: vector k's lane j is lane row {@code 2j} (first vector) or
     * {@code 2j + 1} (second).
     */
    private static void addChannelChunkLanes(float[] lanes, int period, int channels, double[] wide,
            int doubleLanes) {
        int half = period / 2;
        for (int c = 0; c < channels; c++) {
            int at = laneOf(c, channels);
            for (int k = 0; k < period; k++) {
                int row = k < half ? 2 * k : 2 * (k - half) + 1;
                wide[c * doubleLanes + k % doubleLanes] += lanes[row * channels + at];
            }
        }
    }

    private static void channelRowsF32(MemorySegment x, long xAt, MemorySegment g, long gAt, int rows, int channels,
            float[] w, double[] acc, float[] out, int outAt) {
        x = (MemorySegment) NATIVE.cast(x);
        g = (MemorySegment) NATIVE.cast(g);
        int whole = FD.loopBound(channels);
        long rowBytes = 4L * channels;
        for (int r = 0; r < rows; r++) {
            long xRow = xAt + r * rowBytes;
            long gRow = gAt + r * rowBytes;
            int outRow = outAt + r * channels;
            int c = 0;
            for (; c < whole; c += FD.length()) {
                FloatVector xv = FloatVector.fromMemorySegment(FD, x, xRow + 4L * c, ORDER);
                FloatVector gv = FloatVector.fromMemorySegment(FD, g, gRow + 4L * c, ORDER);
                VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
                DoubleVector xd = (DoubleVector) xv.blend(0f, up).convertShape(VectorOperators.F2D, D, 0); // min(x, 0)
                DoubleVector gd = (DoubleVector) gv.blend(0f, up).convertShape(VectorOperators.F2D, D, 0); // 0 if x > 0
                xd.fma(gd, DoubleVector.fromArray(D, acc, c)).intoArray(acc, c); // the product is exact
                gv.mul(FloatVector.fromArray(FD, w, c)).blend(gv, up).intoArray(out, outRow + c);
            }
            for (; c < channels; c++) { // the row's last channels, with the same operations
                float xi = x.get(F32, xRow + 4L * c);
                float gi = g.get(F32, gRow + 4L * c);
                acc[c] += xi > 0 ? 0.0 : (double) xi * gi;
                out[outRow + c] = xi > 0 ? gi : w[c] * gi;
            }
        }
    }

    private static double preluF32(MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        g = (MemorySegment) NATIVE.cast(g);
        out = (MemorySegment) NATIVE.cast(out);
        double[] lanes = Scratch.get().lanes; // n: whole steps, so whole lanes of SumOrder
        if (VectorBulkMath.WIDE) {
            preluLanesWide(x, xAt, g, gAt, w, out, outAt, n, lanes);
        } else {
            preluLanesHalves(x, xAt, g, gAt, w, out, outAt, n, lanes);
        }
        return SumOrder.sumLanes(lanes);
    }

    /** preluF32's steps: gradInput stored, Σ min(x, 0)·g into SumOrder's lanes. */
    static void preluLanesWide(MemorySegment x, long xAt, MemorySegment g, long gAt, float w,
            MemorySegment out, long outAt, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        g = (MemorySegment) NATIVE.cast(g);
        out = (MemorySegment) NATIVE.cast(out);
        DoubleVector acc = DoubleVector.zero(D8);
        for (int i = 0; i < n; i += F8.length()) {
            long o = 4L * i;
            FloatVector xv = FloatVector.fromMemorySegment(F8, x, xAt + o, ORDER);
            FloatVector gv = FloatVector.fromMemorySegment(F8, g, gAt + o, ORDER);
            VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
            acc = ((DoubleVector) xv.blend(0f, up).convertShape(VectorOperators.F2D, D8, 0)) // min(x, 0)·g, g taken as
                    .fma((DoubleVector) gv.blend(0f, up).convertShape(VectorOperators.F2D, D8, 0), acc); // 0 if x > 0
            gv.mul(w).blend(gv, up).intoMemorySegment(out, outAt + o, ORDER);
        }
        acc.intoArray(lanes, 0);
    }

    /** As {@link #preluLanesWide}, the lanes in two 256-bit halves. */
    static void preluLanesHalves(MemorySegment x, long xAt, MemorySegment g, long gAt, float w,
            MemorySegment out, long outAt, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        g = (MemorySegment) NATIVE.cast(g);
        out = (MemorySegment) NATIVE.cast(out);
        DoubleVector acc0 = DoubleVector.zero(D4);
        DoubleVector acc1 = DoubleVector.zero(D4);
        for (int i = 0; i < n; i += F8.length()) {
            long o = 4L * i;
            FloatVector x0 = FloatVector.fromMemorySegment(F4, x, xAt + o, ORDER);
            FloatVector g0 = FloatVector.fromMemorySegment(F4, g, gAt + o, ORDER);
            FloatVector x1 = FloatVector.fromMemorySegment(F4, x, xAt + o + 16, ORDER);
            FloatVector g1 = FloatVector.fromMemorySegment(F4, g, gAt + o + 16, ORDER);
            VectorMask<Float> up0 = x0.compare(VectorOperators.GT, 0f);
            VectorMask<Float> up1 = x1.compare(VectorOperators.GT, 0f);
            acc0 = ((DoubleVector) x0.blend(0f, up0).convertShape(VectorOperators.F2D, D4, 0)) // as preluLanesWide
                    .fma((DoubleVector) g0.blend(0f, up0).convertShape(VectorOperators.F2D, D4, 0), acc0);
            acc1 = ((DoubleVector) x1.blend(0f, up1).convertShape(VectorOperators.F2D, D4, 0))
                    .fma((DoubleVector) g1.blend(0f, up1).convertShape(VectorOperators.F2D, D4, 0), acc1);
            g0.mul(w).blend(g0, up0).intoMemorySegment(out, outAt + o, ORDER);
            g1.mul(w).blend(g1, up1).intoMemorySegment(out, outAt + o + 16, ORDER);
        }
        acc0.intoArray(lanes, 0);
        acc1.intoArray(lanes, D4.length());
    }

    private static double preluBf16(MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        g = (MemorySegment) NATIVE.cast(g);
        out = (MemorySegment) NATIVE.cast(out);
        Scratch scratch = Scratch.get();
        double[] lanes = scratch.lanes;
        Arrays.fill(lanes, 0, D.length(), 0.0);
        // Σ min(x, 0)·g in fp32 lanes within chunks of SUM_CHUNK elements, chunk sums added in double
        for (long chunk = 0, end = 2L * n; chunk < end; chunk += 2 * SUM_CHUNK) {
            FloatVector acc0 = FloatVector.zero(F);
            FloatVector acc1 = FloatVector.zero(F);
            for (long o = chunk, stop = Math.min(end, chunk + 2 * SUM_CHUNK); o < stop; o += F_BYTES) {
                IntVector xp = IntVector.fromMemorySegment(I, x, xAt + o, ORDER);
                IntVector gp = IntVector.fromMemorySegment(I, g, gAt + o, ORDER);
                FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
                FloatVector g0 = gp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                FloatVector g1 = gp.and(HIGH).reinterpretAsFloats();
                // x·g added where x is not positive, on the mask gradInput needs anyway: the term of a
                // positive x is 0 whatever g holds (min(x, 0)·g would give 0·inf = NaN)
                VectorMask<Float> up0 = x0.compare(VectorOperators.GT, 0f);
                VectorMask<Float> up1 = x1.compare(VectorOperators.GT, 0f);
                acc0 = x0.fma(g0, acc0).blend(acc0, up0);
                acc1 = x1.fma(g1, acc1).blend(acc1, up1);
                // gradInput is g or w·g, both exact in float; BFLOAT16 rounding as in BCE backward's,
                // NaN found as in groupNormUpdateBf16
                FloatVector f0 = g0.mul(w).blend(g0, up0);
                FloatVector f1 = g1.mul(w).blend(g1, up1);
                IntVector r0 = f0.reinterpretAsInts();
                IntVector r1 = f1.reinterpretAsInts();
                r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
                r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
                r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outAt + o, ORDER);
            }
            acc0.intoArray(scratch.chunkLanes, 0);
            acc1.intoArray(scratch.chunkLanes, F.length());
            SumOrder.addChunkLanes(lanes, scratch.chunkLanes, 2, D.length());
        }
        return VectorBulkMath.sumLanes(lanes);
    }

    private static double preluF16(MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        out = (MemorySegment) NATIVE.cast(out); // for toHalves, which rows also give heap segments
        Scratch scratch = Scratch.get();
        float[] xs = scratch.stageA;
        float[] gs = scratch.stageB;
        double[] lanes = scratch.lanes;
        Arrays.fill(lanes, 0, D.length(), 0.0);
        // Σ min(x, 0)·g in fp32 lanes within chunks of SUM_CHUNK elements, chunk sums added in double;
        // each chunk widened and narrowed in runs of NARROW_RUN, its lanes carried through scratch
        for (int chunk = 0; chunk < n; chunk += SUM_CHUNK) {
            int chunkEnd = Math.min(chunk + SUM_CHUNK, n);
            FloatVector.zero(F).intoArray(scratch.chunkLanes, 0);
            for (int run = chunk; run < chunkEnd; run += NARROW_RUN) {
                int len = Math.min(NARROW_RUN, chunkEnd - run);
                widenPair(x, xAt + 2L * run, g, gAt + 2L * run, xs, gs, len);
                FloatVector part = FloatVector.fromArray(F, scratch.chunkLanes, 0);
                for (int i = 0; i < len; i += F.length()) {
                    FloatVector xv = FloatVector.fromArray(F, xs, i);
                    FloatVector gv = FloatVector.fromArray(F, gs, i);
                    VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
                    part = xv.fma(gv, part).blend(part, up); // as in preluBf16
                    gv.mul(w).blend(gv, up).intoArray(gs, i);
                }
                part.intoArray(scratch.chunkLanes, 0);
                HalfFloats.toHalves(gs, 0, out, outAt + 2L * run, len);
            }
            SumOrder.addChunkLanes(lanes, scratch.chunkLanes, 1, D.length());
        }
        return VectorBulkMath.sumLanes(lanes);
    }
}
