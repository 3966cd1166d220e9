package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * PReLU forward's Vector API loops for {@link VectorDirectMath}, one per dtype; see
 * {@link VectorLanes} for the rules they follow.
 */
final class PreluVectorLoops {
    private PreluVectorLoops() {}

    static void prelu(DType dtype, MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        switch (dtype) {
            case FLOAT -> preluF32(x, xAt, w, out, outAt, n);
            case BF16 -> preluBf16(x, xAt, w, out, outAt, n);
            case FLOAT16 -> preluF16(x, xAt, w, out, outAt, n);
            default -> throw unsupported(dtype);
        }
    }

    private static void preluF32(MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        for (long o = 0, end = 4L * n; o < end; o += F_BYTES) {
            FloatVector xv = FloatVector.fromMemorySegment(F, x, xAt + o, ORDER);
            xv.mul(w).blend(xv, xv.compare(VectorOperators.GT, 0f)).intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    static void preluWeighted(DType dtype, MemorySegment x, long xAt, float[] w, int wAt, MemorySegment out, long outAt,
            int n) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        for (int i = 0; i < n; i += F.length()) {
            FloatVector xv = FloatVector.fromMemorySegment(F, x, xAt + 4L * i, ORDER);
            xv.mul(FloatVector.fromArray(F, w, wAt + i)).blend(xv, xv.compare(VectorOperators.GT, 0f))
                    .intoMemorySegment(out, outAt + 4L * i, ORDER);
        }
    }

    /**
     * A BFLOAT16 pair per int lane: x passes through as its own bits, w·x is rounded to nearest
     * even (NaN kept quiet, as HalfFloats.toBf16 does).
     */
    private static void preluBf16(MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        for (long o = 0, end = 2L * n; o < end; o += F_BYTES) {
            IntVector xp = IntVector.fromMemorySegment(I, x, xAt + o, ORDER);
            FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
            FloatVector f0 = x0.mul(w).blend(x0, x0.compare(VectorOperators.GT, 0f));
            FloatVector f1 = x1.mul(w).blend(x1, x1.compare(VectorOperators.GT, 0f));
            IntVector r0 = f0.reinterpretAsInts();
            IntVector r1 = f1.reinterpretAsInts();
            r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
            r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
            r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    /** FLOAT16 widened and narrowed by the JDK's conversions in runs of NARROW_RUN (see HalfFloats). */
    private static void preluF16(MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        float[] xs = Scratch.get().stageA;
        for (int run = 0; run < n; run += NARROW_RUN) {
            int len = Math.min(NARROW_RUN, n - run);
            HalfFloats.fromHalves(x, xAt + 2L * run, xs, 0, len);
            for (int i = 0; i < len; i += F.length()) {
                FloatVector xv = FloatVector.fromArray(F, xs, i);
                xv.mul(w).blend(xv, xv.compare(VectorOperators.GT, 0f)).intoArray(xs, i);
            }
            HalfFloats.toHalves(xs, 0, out, outAt + 2L * run, len);
        }
    }
}
