package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * BCE backward's Vector API loops for {@link VectorDirectMath}: FLOAT, BFLOAT16 (split into even
 * and odd halves in registers) and FLOAT16 (widened by a plain loop that C2 vectorizes), each a
 * method of its own, for gradOutput and weight single values, for a dense gradOutput and weight, and
 * (16-bit) for a dense gradOutput and weight one value; see {@link VectorLanes} for the rules they
 * follow.
 */
final class BceBackwardVectorLoops {
    private static final float BCE_EPSILON = 1e-12f;

    private BceBackwardVectorLoops() {}

    static void bceBackward(DType dtype, MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y,
            long yAt, MemorySegment w, long wAt, float scale, MemorySegment out, long outAt, int n) {
        switch (dtype) {
            case FLOAT -> bceF32(g, gAt, x, xAt, y, yAt, w, wAt, scale, out, outAt, n);
            case BF16 -> bceBf16(g, gAt, x, xAt, y, yAt, w, wAt, scale, out, outAt, n);
            case FLOAT16 -> bceF16(g, gAt, x, xAt, y, yAt, w, wAt, scale, out, outAt, n);
            default -> throw unsupported(dtype);
        }
    }

    private static void bceF32(MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment w, long wAt, float scale, MemorySegment out, long outAt, int n) {
        g = (MemorySegment) NATIVE.cast(g);
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        w = (MemorySegment) NATIVE.cast(w);
        out = (MemorySegment) NATIVE.cast(out);
        for (long o = 0, end = 4L * n; o < end; o += F_BYTES) {
            FloatVector xv = FloatVector.fromMemorySegment(F, x, xAt + o, ORDER);
            // max(v, ε) as a compare and blend: the same bits (a NaN fails the compare and stays), in
            // two operations where Java's max takes five on AVX2
            FloatVector v = xv.neg().add(1f).mul(xv);
            FloatVector.fromMemorySegment(F, g, gAt + o, ORDER)
                    .mul(xv.sub(FloatVector.fromMemorySegment(F, y, yAt + o, ORDER)))
                    .div(v.blend(BCE_EPSILON, v.compare(VectorOperators.LT, BCE_EPSILON)))
                    .mul(FloatVector.fromMemorySegment(F, w, wAt + o, ORDER)).mul(scale)
                    .intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    static void bceBackwardDenseGrad(DType dtype, MemorySegment g, long gAt, MemorySegment x, long xAt,
            MemorySegment y, long yAt, float w, float scale, MemorySegment out, long outAt, int n) {
        switch (dtype) {
            case BF16 -> bceGradBf16(g, gAt, x, xAt, y, yAt, w, scale, out, outAt, n);
            case FLOAT16 -> bceGradF16(g, gAt, x, xAt, y, yAt, w, scale, out, outAt, n);
            default -> throw unsupported(dtype);
        }
    }

    /** As {@link #bceUniformBf16}, gradOutput's and weight's pairs split alike. */
    private static void bceBf16(MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment w, long wAt, float scale, MemorySegment out, long outAt, int n) {
        g = (MemorySegment) NATIVE.cast(g);
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        w = (MemorySegment) NATIVE.cast(w);
        out = (MemorySegment) NATIVE.cast(out);
        for (long o = 0, end = 2L * n; o < end; o += F_BYTES) {
            IntVector gp = IntVector.fromMemorySegment(I, g, gAt + o, ORDER);
            IntVector xp = IntVector.fromMemorySegment(I, x, xAt + o, ORDER);
            IntVector yp = IntVector.fromMemorySegment(I, y, yAt + o, ORDER);
            IntVector wp = IntVector.fromMemorySegment(I, w, wAt + o, ORDER);
            FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
            FloatVector v0 = x0.neg().add(1f).mul(x0); // max(v, ε) as in bceBackward
            FloatVector v1 = x1.neg().add(1f).mul(x1);
            IntVector r0 = gp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats()
                    .mul(x0.sub(yp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats()))
                    .div(v0.blend(BCE_EPSILON, v0.compare(VectorOperators.LT, BCE_EPSILON)))
                    .mul(wp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats()).mul(scale).reinterpretAsInts();
            IntVector r1 = gp.and(HIGH).reinterpretAsFloats()
                    .mul(x1.sub(yp.and(HIGH).reinterpretAsFloats()))
                    .div(v1.blend(BCE_EPSILON, v1.compare(VectorOperators.LT, BCE_EPSILON)))
                    .mul(wp.and(HIGH).reinterpretAsFloats()).mul(scale).reinterpretAsInts();
            // round to nearest even (add 0x7FFF plus the kept bit), NaN as 0x7FC0, then pack
            r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r0.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r1.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    /** As {@link #bceUniformF16}, gradOutput and weight widened beside self and target. */
    private static void bceF16(MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment w, long wAt, float scale, MemorySegment out, long outAt, int n) {
        out = (MemorySegment) NATIVE.cast(out);
        float[] run = Scratch.get().stageA;
        for (int at = 0; at < n; at += STAGE) {
            int len = Math.min(STAGE, n - at);
            bceWeightedHalves(g, gAt + 2L * at, x, xAt + 2L * at, y, yAt + 2L * at, w, wAt + 2L * at, scale, run, len);
            HalfFloats.toHalves(run, 0, out, outAt + 2L * at, len);
        }
    }

    /** {@link #bceHalves} with gradOutput and weight read per element. */
    private static void bceWeightedHalves(MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y,
            long yAt, MemorySegment w, long wAt, float scale, float[] dst, int n) {
        g = (MemorySegment) NATIVE.cast(g);
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        w = (MemorySegment) NATIVE.cast(w);
        for (int i = 0; i < n; i++) {
            float gi = Float.float16ToFloat(g.get(ValueLayout.JAVA_SHORT_UNALIGNED, gAt + 2L * i));
            float xi = Float.float16ToFloat(x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xAt + 2L * i));
            float yi = Float.float16ToFloat(y.get(ValueLayout.JAVA_SHORT_UNALIGNED, yAt + 2L * i));
            float wi = Float.float16ToFloat(w.get(ValueLayout.JAVA_SHORT_UNALIGNED, wAt + 2L * i));
            dst[i] = gi * (xi - yi) / Math.max((-xi + 1f) * xi, BCE_EPSILON) * wi * scale;
        }
    }

    /** As {@link #bceUniformBf16}, gradOutput's pairs split alike. */
    private static void bceGradBf16(MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y, long yAt,
            float w, float scale, MemorySegment out, long outAt, int n) {
        g = (MemorySegment) NATIVE.cast(g);
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        out = (MemorySegment) NATIVE.cast(out);
        FloatVector wv = FloatVector.broadcast(F, w);
        for (long o = 0, end = 2L * n; o < end; o += F_BYTES) {
            IntVector gp = IntVector.fromMemorySegment(I, g, gAt + o, ORDER);
            IntVector xp = IntVector.fromMemorySegment(I, x, xAt + o, ORDER);
            IntVector yp = IntVector.fromMemorySegment(I, y, yAt + o, ORDER);
            FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
            FloatVector v0 = x0.neg().add(1f).mul(x0); // max(v, ε) as in bceBackward
            FloatVector v1 = x1.neg().add(1f).mul(x1);
            IntVector r0 = gp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats()
                    .mul(x0.sub(yp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats()))
                    .div(v0.blend(BCE_EPSILON, v0.compare(VectorOperators.LT, BCE_EPSILON)))
                    .mul(wv).mul(scale).reinterpretAsInts();
            IntVector r1 = gp.and(HIGH).reinterpretAsFloats()
                    .mul(x1.sub(yp.and(HIGH).reinterpretAsFloats()))
                    .div(v1.blend(BCE_EPSILON, v1.compare(VectorOperators.LT, BCE_EPSILON)))
                    .mul(wv).mul(scale).reinterpretAsInts();
            // round to nearest even (add 0x7FFF plus the kept bit), NaN as 0x7FC0, then pack
            r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r0.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r1.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    /** As {@link #bceUniformF16}, gradOutput widened beside self and target. */
    private static void bceGradF16(MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y, long yAt,
            float w, float scale, MemorySegment out, long outAt, int n) {
        out = (MemorySegment) NATIVE.cast(out);
        float[] run = Scratch.get().stageA;
        for (int at = 0; at < n; at += STAGE) {
            int len = Math.min(STAGE, n - at);
            bceGradHalves(g, gAt + 2L * at, x, xAt + 2L * at, y, yAt + 2L * at, w, scale, run, len);
            HalfFloats.toHalves(run, 0, out, outAt + 2L * at, len);
        }
    }

    /** {@link #bceHalves} with gradOutput read per element. */
    private static void bceGradHalves(MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y, long yAt,
            float w, float scale, float[] dst, int n) {
        g = (MemorySegment) NATIVE.cast(g);
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        for (int i = 0; i < n; i++) {
            float gi = Float.float16ToFloat(g.get(ValueLayout.JAVA_SHORT_UNALIGNED, gAt + 2L * i));
            float xi = Float.float16ToFloat(x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xAt + 2L * i));
            float yi = Float.float16ToFloat(y.get(ValueLayout.JAVA_SHORT_UNALIGNED, yAt + 2L * i));
            dst[i] = gi * (xi - yi) / Math.max((-xi + 1f) * xi, BCE_EPSILON) * w * scale;
        }
    }

    static void bceBackwardUniform(DType dtype, float g, MemorySegment x, long xAt, MemorySegment y, long yAt,
            float w, float scale, MemorySegment out, long outAt, int n) {
        switch (dtype) {
            case FLOAT -> bceUniformF32(g, x, xAt, y, yAt, w, scale, out, outAt, n);
            case BF16 -> bceUniformBf16(g, x, xAt, y, yAt, w, scale, out, outAt, n);
            case FLOAT16 -> bceUniformF16(g, x, xAt, y, yAt, w, scale, out, outAt, n);
            default -> throw unsupported(dtype);
        }
    }

    private static void bceUniformF32(float g, MemorySegment x, long xAt, MemorySegment y, long yAt, float w,
            float scale, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        out = (MemorySegment) NATIVE.cast(out);
        FloatVector gv = FloatVector.broadcast(F, g);
        FloatVector wv = FloatVector.broadcast(F, w);
        for (long o = 0, end = 4L * n; o < end; o += F_BYTES) {
            FloatVector xv = FloatVector.fromMemorySegment(F, x, xAt + o, ORDER);
            FloatVector v = xv.neg().add(1f).mul(xv); // max(v, ε) as in bceBackward
            gv.mul(xv.sub(FloatVector.fromMemorySegment(F, y, yAt + o, ORDER)))
                    .div(v.blend(BCE_EPSILON, v.compare(VectorOperators.LT, BCE_EPSILON))).mul(wv).mul(scale)
                    .intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    private static void bceUniformBf16(float g, MemorySegment x, long xAt, MemorySegment y, long yAt, float w,
            float scale, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        out = (MemorySegment) NATIVE.cast(out);
        FloatVector gv = FloatVector.broadcast(F, g);
        FloatVector wv = FloatVector.broadcast(F, w);
        for (long o = 0, end = 2L * n; o < end; o += F_BYTES) {
            IntVector xp = IntVector.fromMemorySegment(I, x, xAt + o, ORDER);
            IntVector yp = IntVector.fromMemorySegment(I, y, yAt + o, ORDER);
            FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
            FloatVector y0 = yp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector y1 = yp.and(HIGH).reinterpretAsFloats();
            FloatVector v0 = x0.neg().add(1f).mul(x0); // max(v, ε) as in bceBackward
            FloatVector v1 = x1.neg().add(1f).mul(x1);
            IntVector r0 = gv.mul(x0.sub(y0)).div(v0.blend(BCE_EPSILON, v0.compare(VectorOperators.LT, BCE_EPSILON)))
                    .mul(wv).mul(scale).reinterpretAsInts();
            IntVector r1 = gv.mul(x1.sub(y1)).div(v1.blend(BCE_EPSILON, v1.compare(VectorOperators.LT, BCE_EPSILON)))
                    .mul(wv).mul(scale).reinterpretAsInts();
            // round to nearest even (add 0x7FFF plus the kept bit), NaN as 0x7FC0, then pack
            r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r0.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r1.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    private static void bceUniformF16(float g, MemorySegment x, long xAt, MemorySegment y, long yAt, float w,
            float scale, MemorySegment out, long outAt, int n) {
        out = (MemorySegment) NATIVE.cast(out); // for toHalves, which rows also give heap segments
        float[] run = Scratch.get().stageA;
        for (int at = 0; at < n; at += STAGE) {
            int len = Math.min(STAGE, n - at);
            bceHalves(g, x, xAt + 2L * at, y, yAt + 2L * at, w, scale, run, len);
            HalfFloats.toHalves(run, 0, out, outAt + 2L * at, len);
        }
    }

    /**
     * BCE backward of {@code n} FLOAT16 elements into {@code dst}, widening as it goes: a plain loop
     * that C2 vectorizes (as {@link GroupNormBackwardVectorLoops#updateHalves}), the operations of {@link #bceUniformF32} in its
     * order, so its bits ({@code Math.max} gives what the blend does).
     */
    private static void bceHalves(float g, MemorySegment x, long xAt, MemorySegment y, long yAt, float w,
            float scale, float[] dst, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        for (int i = 0; i < n; i++) {
            float xi = Float.float16ToFloat(x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xAt + 2L * i));
            float yi = Float.float16ToFloat(y.get(ValueLayout.JAVA_SHORT_UNALIGNED, yAt + 2L * i));
            dst[i] = g * (xi - yi) / Math.max((-xi + 1f) * xi, BCE_EPSILON) * w * scale;
        }
    }
}
