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
     * readAndSum's whole steps: copied, and added into the {@link SumOrder#GROUP_LANES} lanes by
     * rotating accumulators, as VectorBulkMath's groupSum loops add; returns where they end.
     */
    static int readLanesWide(MemorySegment x, long xAt, float[] dst, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        DoubleVector s0 = DoubleVector.zero(D8);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        int bound = n - n % F8.length();
        for (int i = 0; i < bound; i += 8) {
            DoubleVector next = s0.add(read(x, xAt, dst, i, D8));
            s0 = s1;
            s1 = s2;
            s2 = s3;
            s3 = next;
        }
        VectorBulkMath.storeRotated(lanes, bound / 8, s0, s1, s2, s3);
        return bound;
    }

    /** As {@link #readLanesWide}, each 8 lanes in two 256-bit halves. */
    static int readLanesHalves(MemorySegment x, long xAt, float[] dst, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        DoubleVector s0 = DoubleVector.zero(D4);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        DoubleVector s4 = s0;
        DoubleVector s5 = s0;
        DoubleVector s6 = s0;
        DoubleVector s7 = s0;
        int bound = n - n % F8.length();
        for (int i = 0; i < bound; i += 8) {
            DoubleVector low = s0.add(read(x, xAt, dst, i, D4));
            DoubleVector high = s1.add(read(x, xAt, dst, i + 4, D4));
            s0 = s2;
            s1 = s3;
            s2 = s4;
            s3 = s5;
            s4 = s6;
            s5 = s7;
            s6 = low;
            s7 = high;
        }
        VectorBulkMath.storeRotated(lanes, bound / 8, s0, s1, s2, s3, s4, s5, s6, s7);
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
