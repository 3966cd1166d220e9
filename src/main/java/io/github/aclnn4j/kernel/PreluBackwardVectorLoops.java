package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorBulkMath.D4;
import static io.github.aclnn4j.kernel.VectorBulkMath.F8;
import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * PReLU backward's Vector API loops for {@link VectorDirectMath}: the gradient and the sum of
 * {@code min(x, 0)·g} per dtype; see {@link VectorLanes} for the rules they follow.
 */
final class PreluBackwardVectorLoops {
    /** Whether SumOrder's lanes fit one vector (512 bits) or take two halves (256). */
    private static final boolean WIDE = VectorBulkMath.WIDE;

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
    private static void preluLanesWide(MemorySegment x, long xAt, MemorySegment g, long gAt, float w,
            MemorySegment out, long outAt, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        g = (MemorySegment) NATIVE.cast(g);
        out = (MemorySegment) NATIVE.cast(out);
        DoubleVector acc = DoubleVector.zero(D);
        for (int i = 0; i < n; i += FD.length()) {
            long o = 4L * i;
            FloatVector xv = FloatVector.fromMemorySegment(FD, x, xAt + o, ORDER);
            FloatVector gv = FloatVector.fromMemorySegment(FD, g, gAt + o, ORDER);
            VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
            acc = ((DoubleVector) xv.blend(0f, up).convertShape(VectorOperators.F2D, D, 0)) // min(x, 0): preluBf16
                    .fma((DoubleVector) gv.convertShape(VectorOperators.F2D, D, 0), acc);
            gv.mul(w).blend(gv, up).intoMemorySegment(out, outAt + o, ORDER);
        }
        acc.intoArray(lanes, 0);
    }

    /** As {@link #preluLanesWide}, the lanes in two 256-bit halves. */
    private static void preluLanesHalves(MemorySegment x, long xAt, MemorySegment g, long gAt, float w,
            MemorySegment out, long outAt, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        g = (MemorySegment) NATIVE.cast(g);
        out = (MemorySegment) NATIVE.cast(out);
        DoubleVector acc0 = DoubleVector.zero(D4);
        DoubleVector acc1 = DoubleVector.zero(D4);
        for (int i = 0; i < n; i += F8.length()) {
            long o = 4L * i;
            FloatVector xv = FloatVector.fromMemorySegment(F8, x, xAt + o, ORDER);
            FloatVector gv = FloatVector.fromMemorySegment(F8, g, gAt + o, ORDER);
            VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
            FloatVector xm = xv.blend(0f, up); // min(x, 0), as preluBf16
            acc0 = ((DoubleVector) xm.convertShape(VectorOperators.F2D, D4, 0))
                    .fma((DoubleVector) gv.convertShape(VectorOperators.F2D, D4, 0), acc0);
            acc1 = ((DoubleVector) xm.convertShape(VectorOperators.F2D, D4, 1))
                    .fma((DoubleVector) gv.convertShape(VectorOperators.F2D, D4, 1), acc1);
            gv.mul(w).blend(gv, up).intoMemorySegment(out, outAt + o, ORDER);
        }
        acc0.intoArray(lanes, 0);
        acc1.intoArray(lanes, D4.length());
    }

    /**
     * BFLOAT16: {@code Σ min(x, 0)·g} in {@link SumOrder#chunkedProductSum}'s order, its 16 fp32
     * lanes one vector (512 bits) or two that successive steps alternate between (256); gradInput
     * rounded to nearest even in registers, NaN found as in groupNormUpdateBf16.
     */
    private static double preluBf16(MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        g = (MemorySegment) NATIVE.cast(g);
        out = (MemorySegment) NATIVE.cast(out);
        double[] lanes = SumOrder.zeroed(Scratch.get().lanes);
        DoubleVector acc = DoubleVector.zero(D); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = acc; // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // the chunk's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        for (int i = 0; i < n; i += F.length()) {
            long o = 2L * i;
            FloatVector xv = ((IntVector) ShortVector.fromMemorySegment(S, x, xAt + o, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            FloatVector gv = ((IntVector) ShortVector.fromMemorySegment(S, g, gAt + o, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            // min(x, 0) as a blend on the mask gradInput needs anyway: the same value, NaN and -0
            // included, in one operation where Java's min takes five on AVX2
            VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
            if (WIDE) {
                chunk = xv.blend(0f, up).fma(gv, chunk);
            } else {
                FloatVector added = xv.blend(0f, up).fma(gv, chunk);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((i + F.length()) & (SumOrder.PRODUCT_CHUNK - 1)) == 0 || i + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            FloatVector f = gv.mul(w).blend(gv, up); // g or w·g, both exact in float
            IntVector r = f.reinterpretAsInts();
            r = r.add(r.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, f.compare(VectorOperators.NE, f).cast(I));
            ((ShortVector) r.lanewise(VectorOperators.LSHR, 16).convertShape(VectorOperators.I2S, S, 0))
                    .intoMemorySegment(out, outAt + o, ORDER);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
        return SumOrder.sumLanes(lanes);
    }

    /**
     * FLOAT16: widened in runs of NARROW_RUN, the sum in {@link SumOrder#chunkedProductSum}'s order
     * as {@link #preluBf16} adds it, its fp32 lanes carried from run to run in scratch, gradInput
     * written over the widened g and narrowed.
     */
    private static double preluF16(MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        out = (MemorySegment) NATIVE.cast(out); // for toHalves, which rows also give heap segments
        Scratch scratch = Scratch.get();
        float[] xs = scratch.stageA;
        float[] gs = scratch.stageB;
        double[] lanes = SumOrder.zeroed(scratch.lanes);
        java.util.Arrays.fill(scratch.chunkLanes, 0, SumOrder.FLOAT_LANES, 0f);
        for (int run = 0; run < n; run += NARROW_RUN) {
            int len = Math.min(NARROW_RUN, n - run);
            widenPair(x, xAt + 2L * run, g, gAt + 2L * run, xs, gs, len);
            preluF16Run(xs, gs, w, run, len, n, scratch.chunkLanes, lanes);
            HalfFloats.toHalves(gs, 0, out, outAt + 2L * run, len);
        }
        return SumOrder.sumLanes(lanes);
    }

    /**
     * One widened run of {@link #preluF16}, elements {@code [first, first + len)} of its {@code n}:
     * the fp32 lanes from and back to {@code chunk}, the double lanes from and back to {@code lanes}.
     */
    private static void preluF16Run(float[] xs, float[] gs, float w, int first, int len, int n, float[] chunkLanes,
            double[] lanes) {
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0);
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length());
        FloatVector chunk = FloatVector.fromArray(F, chunkLanes, 0);
        FloatVector chunkHigh = WIDE ? chunk : FloatVector.fromArray(F, chunkLanes, F.length());
        for (int i = 0; i < len; i += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, xs, i);
            FloatVector gv = FloatVector.fromArray(F, gs, i);
            VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
            if (WIDE) {
                chunk = xv.blend(0f, up).fma(gv, chunk); // min(x, 0), as in preluBf16
            } else {
                FloatVector added = xv.blend(0f, up).fma(gv, chunk);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            int done = first + i + F.length();
            if ((done & (SumOrder.PRODUCT_CHUNK - 1)) == 0 || done >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            gv.mul(w).blend(gv, up).intoArray(gs, i);
        }
        acc.intoArray(lanes, 0);
        chunk.intoArray(chunkLanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
            chunkHigh.intoArray(chunkLanes, F.length());
        }
    }

}
