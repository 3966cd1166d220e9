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
