package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorBulkMath.D4;
import static io.github.aclnn4j.kernel.VectorBulkMath.F4;
import static io.github.aclnn4j.kernel.VectorBulkMath.D8;
import static io.github.aclnn4j.kernel.VectorBulkMath.F8;
import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * GroupNorm forward's Vector API loops for {@link VectorDirectMath}, FLOAT: the group's read fused
 * with its sum, and the per-channel update fused with the write, so that the arithmetic overlaps the
 * memory traffic instead of following a copy; see {@link VectorLanes} for the rules they follow.
 */
final class GroupNormVectorLoops {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private GroupNormVectorLoops() {}

    static double readAndSum(DType dtype, MemorySegment x, long xAt, float[] dst, int n) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        x = (MemorySegment) NATIVE.cast(x);
        double[] lanes = Scratch.get().lanes;
        int bound = VectorBulkMath.WIDE ? readLanesWide(x, xAt, dst, n, lanes) : readLanesHalves(x, xAt, dst, n, lanes);
        double s = SumOrder.foldGroupLanes(lanes);
        for (int i = bound; i < n; i++) { // the last elements, in order, as BulkMath#groupSum adds them
            float v = x.get(F32, xAt + 4L * i);
            dst[i] = v;
            s += v;
        }
        return s;
    }

    /**
     * readAndSum's whole steps: copied, and added into the {@link SumOrder#GROUP_LANES} lanes as
     * four 512-bit accumulators; returns where they end.
     */
    static int readLanesWide(MemorySegment x, long xAt, float[] dst, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        DoubleVector s0 = DoubleVector.zero(D8);
        DoubleVector s1 = DoubleVector.zero(D8);
        DoubleVector s2 = DoubleVector.zero(D8);
        DoubleVector s3 = DoubleVector.zero(D8);
        int bound = n - n % F8.length();
        int i = 0;
        for (; i + 32 <= bound; i += 32) {
            s0 = s0.add(read(x, xAt, dst, i, D8));
            s1 = s1.add(read(x, xAt, dst, i + 8, D8));
            s2 = s2.add(read(x, xAt, dst, i + 16, D8));
            s3 = s3.add(read(x, xAt, dst, i + 24, D8));
        }
        if (i < bound) { // up to three whole steps left, to lanes 0, 8 and 16 in turn
            s0 = s0.add(read(x, xAt, dst, i, D8));
            i += 8;
        }
        if (i < bound) {
            s1 = s1.add(read(x, xAt, dst, i, D8));
            i += 8;
        }
        if (i < bound) {
            s2 = s2.add(read(x, xAt, dst, i, D8));
        }
        s0.intoArray(lanes, 0);
        s1.intoArray(lanes, 8);
        s2.intoArray(lanes, 16);
        s3.intoArray(lanes, 24);
        return bound;
    }

    /** As {@link #readLanesWide}, each 8 lanes in two 256-bit halves (eight accumulators). */
    static int readLanesHalves(MemorySegment x, long xAt, float[] dst, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        DoubleVector s0 = DoubleVector.zero(D4);
        DoubleVector s1 = DoubleVector.zero(D4);
        DoubleVector s2 = DoubleVector.zero(D4);
        DoubleVector s3 = DoubleVector.zero(D4);
        DoubleVector s4 = DoubleVector.zero(D4);
        DoubleVector s5 = DoubleVector.zero(D4);
        DoubleVector s6 = DoubleVector.zero(D4);
        DoubleVector s7 = DoubleVector.zero(D4);
        int bound = n - n % F8.length();
        int i = 0;
        for (; i + 32 <= bound; i += 32) {
            s0 = s0.add(read(x, xAt, dst, i, D4));
            s1 = s1.add(read(x, xAt, dst, i + 4, D4));
            s2 = s2.add(read(x, xAt, dst, i + 8, D4));
            s3 = s3.add(read(x, xAt, dst, i + 12, D4));
            s4 = s4.add(read(x, xAt, dst, i + 16, D4));
            s5 = s5.add(read(x, xAt, dst, i + 20, D4));
            s6 = s6.add(read(x, xAt, dst, i + 24, D4));
            s7 = s7.add(read(x, xAt, dst, i + 28, D4));
        }
        if (i < bound) { // up to three whole steps left, to lanes 0, 8 and 16 in turn
            s0 = s0.add(read(x, xAt, dst, i, D4));
            s1 = s1.add(read(x, xAt, dst, i + 4, D4));
            i += 8;
        }
        if (i < bound) {
            s2 = s2.add(read(x, xAt, dst, i, D4));
            s3 = s3.add(read(x, xAt, dst, i + 4, D4));
            i += 8;
        }
        if (i < bound) {
            s4 = s4.add(read(x, xAt, dst, i, D4));
            s5 = s5.add(read(x, xAt, dst, i + 4, D4));
        }
        s0.intoArray(lanes, 0);
        s1.intoArray(lanes, 4);
        s2.intoArray(lanes, 8);
        s3.intoArray(lanes, 12);
        s4.intoArray(lanes, 16);
        s5.intoArray(lanes, 20);
        s6.intoArray(lanes, 24);
        s7.intoArray(lanes, 28);
        return bound;
    }

    /** Elements {@code [i, i + species.length())} of x: copied to {@code dst}, returned widened. */
    private static DoubleVector read(MemorySegment x, long xAt, float[] dst, int i, VectorSpecies<Double> species) {
        FloatVector v = FloatVector.fromMemorySegment(species == D8 ? F8 : F4, x, xAt + 4L * i, ORDER);
        v.intoArray(dst, i);
        return (DoubleVector) v.convertShape(VectorOperators.F2D, species, 0);
    }

    static void affineStoreScaled(DType dtype, float[] src, int from, int n, MemorySegment coefficients,
            long gammaAt, long betaAt, double rstd, double mean, MemorySegment out, long outAt) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        coefficients = (MemorySegment) NATIVE.cast(coefficients);
        out = (MemorySegment) NATIVE.cast(out);
        int bound = n - n % FD.length();
        for (int i = 0; i < bound; i += FD.length()) {
            // a row's k and bias, as GroupNormKernel forms them, for each element
            DoubleVector k = DoubleVector.fromMemorySegment(D, coefficients, gammaAt + 8L * i, ORDER).mul(rstd);
            DoubleVector bias = DoubleVector.fromMemorySegment(D, coefficients, betaAt + 8L * i, ORDER).sub(k.mul(mean));
            DoubleVector v = (DoubleVector) FloatVector.fromArray(FD, src, from + i)
                    .convertShape(VectorOperators.F2D, D, 0);
            ((FloatVector) v.fma(k, bias).convertShape(VectorOperators.D2F, FD, 0))
                    .intoMemorySegment(out, outAt + 4L * i, ORDER);
        }
        for (int i = bound; i < n; i++) {
            double k = rstd * coefficients.get(F64, gammaAt + 8L * i);
            double bias = coefficients.get(F64, betaAt + 8L * i) - mean * k;
            out.set(F32, outAt + 4L * i, (float) Math.fma(src[from + i], k, bias));
        }
    }

    static void affineStore(DType dtype, float[] src, int from, int n, double k, double bias, MemorySegment out,
            long outAt) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        out = (MemorySegment) NATIVE.cast(out);
        int bound = n - n % FD.length();
        for (int i = 0; i < bound; i += FD.length()) {
            DoubleVector v = (DoubleVector) FloatVector.fromArray(FD, src, from + i)
                    .convertShape(VectorOperators.F2D, D, 0);
            // BulkMath#scaleShift's operation
            ((FloatVector) v.fma(k, bias).convertShape(VectorOperators.D2F, FD, 0))
                    .intoMemorySegment(out, outAt + 4L * i, ORDER);
        }
        for (int i = bound; i < n; i++) {
            out.set(F32, outAt + 4L * i, (float) Math.fma(src[from + i], k, bias));
        }
    }
}
