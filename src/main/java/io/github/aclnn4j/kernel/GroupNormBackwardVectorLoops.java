package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorBulkMath.D4;
import static io.github.aclnn4j.kernel.VectorBulkMath.F4;
import static io.github.aclnn4j.kernel.VectorBulkMath.D8;
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
import jdk.incubator.vector.VectorOperators;

/**
 * GroupNorm backward's Vector API loops for {@link VectorDirectMath}: the row sums, FLOAT's affine
 * update and the 16-bit types' fp32 update; see {@link VectorLanes} for the rules they follow.
 */
final class GroupNormBackwardVectorLoops {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private GroupNormBackwardVectorLoops() {}

    static void groupSums(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, long rows, long rowLength,
            long n, MemorySegment sums, long sumsAt) {
        switch (dtype) {
            case FLOAT -> groupSumsF32(a, aAt, b, bAt, rows, rowLength, n, sums, sumsAt);
            case BF16 -> groupSumsBf16(a, aAt, b, bAt, rows, rowLength, n, sums, sumsAt);
            case FLOAT16 -> groupSumsF16(a, aAt, b, bAt, rows, rowLength, n, sums, sumsAt);
            default -> throw unsupported(dtype);
        }
    }

    private static void groupSumsF32(MemorySegment a, long aAt, MemorySegment b, long bAt, long rows, long rowLength,
            long n, MemorySegment sums, long sumsAt) {
        a = (MemorySegment) NATIVE.cast(a);
        b = (MemorySegment) NATIVE.cast(b);
        double[] lanes = Scratch.get().lanes; // the lanes of SumOrder
        for (long r = 0; r < rows; r++) {
            long aRow = aAt + 4L * rowLength * r;
            long bRow = bAt + 4L * rowLength * r;
            long i = VectorBulkMath.WIDE ? rowLanesWide(a, aRow, b, bRow, n, lanes)
                    : rowLanesHalves(a, aRow, b, bRow, n, lanes);
            double s = SumOrder.sumLanes(lanes, 0);
            double d = SumOrder.sumLanes(lanes, SumOrder.LANES);
            for (; i < n; i++) { // the row's last elements, in order, as BulkMath#sumAndDot adds them
                float ai = a.get(F32, aRow + 4L * i);
                s += ai;
                d += (double) ai * b.get(F32, bRow + 4L * i);
            }
            sums.set(F64, sumsAt + 16L * r, s);
            sums.set(F64, sumsAt + 16L * r + 8, d);
        }
    }

    /**
     * One row's whole steps: Σa into SumOrder's lanes at {@code lanes[0, 8)}, Σa·b at
     * {@code lanes[8, 16)}, as BulkMath#sumAndDot; returns where the steps end.
     */
    static long rowLanesWide(MemorySegment a, long aRow, MemorySegment b, long bRow, long n, double[] lanes) {
        a = (MemorySegment) NATIVE.cast(a); // each loop casts its own segments (see VectorLanes)
        b = (MemorySegment) NATIVE.cast(b);
        DoubleVector sum = DoubleVector.zero(D8);
        DoubleVector dot = DoubleVector.zero(D8);
        long bound = n - n % F8.length();
        for (long i = 0; i < bound; i += F8.length()) {
            DoubleVector ad = (DoubleVector) FloatVector.fromMemorySegment(F8, a, aRow + 4L * i, ORDER)
                    .convertShape(VectorOperators.F2D, D8, 0);
            DoubleVector bd = (DoubleVector) FloatVector.fromMemorySegment(F8, b, bRow + 4L * i, ORDER)
                    .convertShape(VectorOperators.F2D, D8, 0);
            sum = sum.add(ad);
            dot = ad.fma(bd, dot);
        }
        sum.intoArray(lanes, 0);
        dot.intoArray(lanes, SumOrder.LANES);
        return bound;
    }

    /** As {@link #rowLanesWide}, the lanes in two 256-bit halves. */
    static long rowLanesHalves(MemorySegment a, long aRow, MemorySegment b, long bRow, long n,
            double[] lanes) {
        a = (MemorySegment) NATIVE.cast(a); // each loop casts its own segments (see VectorLanes)
        b = (MemorySegment) NATIVE.cast(b);
        DoubleVector sum0 = DoubleVector.zero(D4);
        DoubleVector sum1 = DoubleVector.zero(D4);
        DoubleVector dot0 = DoubleVector.zero(D4);
        DoubleVector dot1 = DoubleVector.zero(D4);
        long bound = n - n % F8.length();
        for (long i = 0; i < bound; i += F8.length()) {
            long ai = aRow + 4L * i;
            long bi = bRow + 4L * i;
            DoubleVector a0 = (DoubleVector) FloatVector.fromMemorySegment(F4, a, ai, ORDER)
                    .convertShape(VectorOperators.F2D, D4, 0);
            DoubleVector a1 = (DoubleVector) FloatVector.fromMemorySegment(F4, a, ai + 16, ORDER)
                    .convertShape(VectorOperators.F2D, D4, 0);
            sum0 = sum0.add(a0);
            sum1 = sum1.add(a1);
            dot0 = a0.fma((DoubleVector) FloatVector.fromMemorySegment(F4, b, bi, ORDER)
                    .convertShape(VectorOperators.F2D, D4, 0), dot0);
            dot1 = a1.fma((DoubleVector) FloatVector.fromMemorySegment(F4, b, bi + 16, ORDER)
                    .convertShape(VectorOperators.F2D, D4, 0), dot1);
        }
        sum0.intoArray(lanes, 0);
        sum1.intoArray(lanes, D4.length());
        dot0.intoArray(lanes, SumOrder.LANES);
        dot1.intoArray(lanes, SumOrder.LANES + D4.length());
        return bound;
    }

    private static void groupSumsBf16(MemorySegment a, long aAt, MemorySegment b, long bAt, long rows, long rowLength,
            long n, MemorySegment sums, long sumsAt) {
        a = (MemorySegment) NATIVE.cast(a);
        b = (MemorySegment) NATIVE.cast(b);
        Scratch scratch = Scratch.get();
        double[] sumLanes = scratch.lanes; // lane sums in a fixed order (see VectorBulkMath#sumLanes)
        double[] dotLanes = scratch.dotLanes;
        // hoisted: C2 loaded the mask from the constant pool at every use in the loop
        IntVector high = IntVector.broadcast(I, HIGH);
        for (long r = 0; r < rows; r++) {
            Arrays.fill(sumLanes, 0, D.length(), 0.0);
            Arrays.fill(dotLanes, 0, D.length(), 0.0);
            // fp32 lanes within chunks of SUM_CHUNK elements, chunk sums added in double
            for (long chunk = 0; chunk < n; chunk += SUM_CHUNK) {
                int len = (int) Math.min(SUM_CHUNK, n - chunk);
                long aChunk = aAt + 2L * (rowLength * r + chunk);
                long bChunk = bAt + 2L * (rowLength * r + chunk);
                FloatVector sum0 = FloatVector.zero(F);
                FloatVector sum1 = FloatVector.zero(F);
                FloatVector dot0 = FloatVector.zero(F);
                FloatVector dot1 = FloatVector.zero(F);
                for (int i = 0; i < len; i += 2 * F.length()) {
                    long o = 2L * i;
                    IntVector ap = IntVector.fromMemorySegment(I, a, aChunk + o, ORDER);
                    IntVector bp = IntVector.fromMemorySegment(I, b, bChunk + o, ORDER);
                    FloatVector a0 = ap.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                    FloatVector a1 = ap.and(high).reinterpretAsFloats();
                    sum0 = sum0.add(a0);
                    sum1 = sum1.add(a1);
                    dot0 = a0.fma(bp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats(), dot0);
                    dot1 = a1.fma(bp.and(high).reinterpretAsFloats(), dot1);
                }
                sum0.intoArray(scratch.chunkLanes, 0);
                sum1.intoArray(scratch.chunkLanes, F.length());
                dot0.intoArray(scratch.chunkLanes, 2 * F.length());
                dot1.intoArray(scratch.chunkLanes, 3 * F.length());
                SumOrder.addChunkPairs(sumLanes, dotLanes, scratch.chunkLanes, D.length());
            }
            sums.set(F64, sumsAt + 16L * r, VectorBulkMath.sumLanes(sumLanes));
            sums.set(F64, sumsAt + 16L * r + 8, VectorBulkMath.sumLanes(dotLanes));
        }
    }

    private static void groupSumsF16(MemorySegment a, long aAt, MemorySegment b, long bAt, long rows, long rowLength,
            long n, MemorySegment sums, long sumsAt) {
        Scratch scratch = Scratch.get();
        float[] as = scratch.stageA;
        float[] bs = scratch.stageB;
        double[] sumLanes = scratch.lanes; // lane sums in a fixed order (see VectorBulkMath#sumLanes)
        double[] dotLanes = scratch.dotLanes;
        for (long r = 0; r < rows; r++) {
            long row = 2L * rowLength * r;
            Arrays.fill(sumLanes, 0, D.length(), 0.0);
            Arrays.fill(dotLanes, 0, D.length(), 0.0);
            // fp32 lanes within chunks of SUM_CHUNK elements (one run each), chunk sums added in double
            for (long chunk = 0; chunk < n; chunk += SUM_CHUNK) {
                int len = (int) Math.min(SUM_CHUNK, n - chunk);
                widenPair(a, aAt + row + 2 * chunk, b, bAt + row + 2 * chunk, as, bs, len);
                FloatVector sum0 = FloatVector.zero(F);
                FloatVector sum1 = FloatVector.zero(F);
                FloatVector dot0 = FloatVector.zero(F);
                FloatVector dot1 = FloatVector.zero(F);
                for (int i = 0; i < len; i += 2 * F.length()) {
                    FloatVector a0 = FloatVector.fromArray(F, as, i);
                    FloatVector a1 = FloatVector.fromArray(F, as, i + F.length());
                    sum0 = sum0.add(a0);
                    sum1 = sum1.add(a1);
                    dot0 = a0.fma(FloatVector.fromArray(F, bs, i), dot0);
                    dot1 = a1.fma(FloatVector.fromArray(F, bs, i + F.length()), dot1);
                }
                sum0.intoArray(scratch.chunkLanes, 0);
                sum1.intoArray(scratch.chunkLanes, F.length());
                dot0.intoArray(scratch.chunkLanes, 2 * F.length());
                dot1.intoArray(scratch.chunkLanes, 3 * F.length());
                SumOrder.addChunkPairs(sumLanes, dotLanes, scratch.chunkLanes, D.length());
            }
            sums.set(F64, sumsAt + 16L * r, VectorBulkMath.sumLanes(sumLanes));
            sums.set(F64, sumsAt + 16L * r + 8, VectorBulkMath.sumLanes(dotLanes));
        }
    }

    static void affine(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, double ca, double cb,
            double bias, MemorySegment out, long outAt, int n) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        a = (MemorySegment) NATIVE.cast(a);
        b = (MemorySegment) NATIVE.cast(b);
        out = (MemorySegment) NATIVE.cast(out);
        long end = 4L * (n - n % FD.length());
        for (long o = 0; o < end; o += FD_BYTES) {
            DoubleVector ad = (DoubleVector) FloatVector.fromMemorySegment(FD, a, aAt + o, ORDER)
                    .convertShape(VectorOperators.F2D, D, 0);
            DoubleVector bd = (DoubleVector) FloatVector.fromMemorySegment(FD, b, bAt + o, ORDER)
                    .convertShape(VectorOperators.F2D, D, 0);
            DoubleVector r = ad.mul(ca).add(bd.mul(cb)).add(bias);
            ((FloatVector) r.convertShape(VectorOperators.D2F, FD, 0)).intoMemorySegment(out, outAt + o, ORDER);
        }
        for (long o = end; o < 4L * n; o += 4) { // the last elements, with the same operations
            out.set(F32, outAt + o, (float) (ca * a.get(F32, aAt + o) + cb * b.get(F32, bAt + o) + bias));
        }
    }

    static void affineScaled(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, MemorySegment gamma,
            long gammaAt, double rs, double cb, double bias, MemorySegment out, long outAt, int n) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        a = (MemorySegment) NATIVE.cast(a);
        b = (MemorySegment) NATIVE.cast(b);
        gamma = (MemorySegment) NATIVE.cast(gamma);
        out = (MemorySegment) NATIVE.cast(out);
        long end = 4L * (n - n % FD.length());
        for (long o = 0; o < end; o += FD_BYTES) {
            DoubleVector ca = DoubleVector.fromMemorySegment(D, gamma, gammaAt + 2 * o, ORDER).mul(rs);
            DoubleVector ad = (DoubleVector) FloatVector.fromMemorySegment(FD, a, aAt + o, ORDER)
                    .convertShape(VectorOperators.F2D, D, 0);
            DoubleVector bd = (DoubleVector) FloatVector.fromMemorySegment(FD, b, bAt + o, ORDER)
                    .convertShape(VectorOperators.F2D, D, 0);
            DoubleVector r = ad.mul(ca).add(bd.mul(cb)).add(bias);
            ((FloatVector) r.convertShape(VectorOperators.D2F, FD, 0)).intoMemorySegment(out, outAt + o, ORDER);
        }
        for (long o = end; o < 4L * n; o += 4) { // the last elements, with the same operations
            double ca = rs * gamma.get(F64, gammaAt + 2 * o);
            out.set(F32, outAt + o, (float) (ca * a.get(F32, aAt + o) + cb * b.get(F32, bAt + o) + bias));
        }
    }

    static void groupNormUpdate(DType dtype, MemorySegment dy, long dyAt, MemorySegment x, long xAt, int rows,
            long rowLength, long n, float[] cdy, float cx, float mean, float k, MemorySegment out, long outAt) {
        switch (dtype) {
            case BF16 -> groupNormUpdateBf16(dy, dyAt, x, xAt, rows, rowLength, n, cdy, cx, mean, k, out, outAt);
            case FLOAT16 -> groupNormUpdateF16(dy, dyAt, x, xAt, rows, rowLength, n, cdy, cx, mean, k, out, outAt);
            default -> throw unsupported(dtype);
        }
    }

    private static void groupNormUpdateBf16(MemorySegment dy, long dyAt, MemorySegment x, long xAt, int rows,
            long rowLength, long n, float[] cdy, float cx, float mean, float k, MemorySegment out, long outAt) {
        dy = (MemorySegment) NATIVE.cast(dy);
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        FloatVector cxv = FloatVector.broadcast(F, cx);
        for (int r = 0; r < rows; r++) {
            float c = cdy[r];
            for (long piece = 0; piece < n; piece += PIECE) {
                int len = (int) Math.min(PIECE, n - piece);
                long at = 2L * (rowLength * r + piece);
                long dyPiece = dyAt + at;
                long xPiece = xAt + at;
                long outPiece = outAt + at;
                for (int i = 0; i < len; i += 2 * F.length()) {
                    long o = 2L * i;
                    IntVector dp = IntVector.fromMemorySegment(I, dy, dyPiece + o, ORDER);
                    IntVector xp = IntVector.fromMemorySegment(I, x, xPiece + o, ORDER);
                    FloatVector inner0 = dp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().fma(c, k);
                    FloatVector inner1 = dp.and(HIGH).reinterpretAsFloats().fma(c, k);
                    FloatVector f0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().sub(mean)
                            .fma(cxv, inner0);
                    FloatVector f1 = xp.and(HIGH).reinterpretAsFloats().sub(mean).fma(cxv, inner1);
                    IntVector r0 = f0.reinterpretAsInts();
                    IntVector r1 = f1.reinterpretAsInts();
                    // NaN found by comparing the float with itself, one operation where testing its bits
                    // takes two: 8% of this compute-bound loop
                    r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                            .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
                    r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                            .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
                    r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outPiece + o, ORDER);
                }
            }
        }
    }

    private static void groupNormUpdateF16(MemorySegment dy, long dyAt, MemorySegment x, long xAt, int rows,
            long rowLength, long n, float[] cdy, float cx, float mean, float k, MemorySegment out, long outAt) {
        out = (MemorySegment) NATIVE.cast(out); // for toHalves, which rows also give heap segments
        float[] ds = Scratch.get().stageA;
        for (int r = 0; r < rows; r++) {
            float c = cdy[r];
            long row = 2L * rowLength * r;
            for (long run = 0; run < n; run += STAGE) {
                int len = (int) Math.min(STAGE, n - run);
                updateHalves(dy, dyAt + row + 2 * run, x, xAt + row + 2 * run, ds, len, c, cx, mean, k);
                HalfFloats.toHalves(ds, 0, out, outAt + row + 2 * run, len);
            }
        }
    }

    /**
     * GroupNorm's fp32 update of {@code n} FLOAT16 elements into {@code dst}, widening as it goes:
     * a plain loop, which C2 compiles to the processor's conversions and vector fmas (it does so for
     * a loop from memory segments into an array), one pass where widening first took three.
     */
    private static void updateHalves(MemorySegment dy, long dyAt, MemorySegment x, long xAt, float[] dst, int n,
            float c, float cx, float mean, float k) {
        dy = (MemorySegment) NATIVE.cast(dy);
        x = (MemorySegment) NATIVE.cast(x);
        for (int i = 0; i < n; i++) {
            float d = Float.float16ToFloat(dy.get(ValueLayout.JAVA_SHORT_UNALIGNED, dyAt + 2L * i));
            float v = Float.float16ToFloat(x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xAt + 2L * i));
            dst[i] = Math.fma(cx, v - mean, Math.fma(c, d, k));
        }
    }
}
