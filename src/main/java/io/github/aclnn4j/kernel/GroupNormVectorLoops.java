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
        double s = SumOrder.sumLanes(lanes);
        for (int i = bound; i < n; i++) { // the last elements, in order, as BulkMath#sumAndDot adds them
            float v = x.get(F32, xAt + 4L * i);
            dst[i] = v;
            s += v;
        }
        return s;
    }

    /** readAndSum's whole steps: copied, and added into SumOrder's lanes; returns where they end. */
    static int readLanesWide(MemorySegment x, long xAt, float[] dst, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        DoubleVector sum = DoubleVector.zero(D8);
        int bound = n - n % F8.length();
        for (int i = 0; i < bound; i += F8.length()) {
            FloatVector v = FloatVector.fromMemorySegment(F8, x, xAt + 4L * i, ORDER);
            v.intoArray(dst, i);
            sum = sum.add((DoubleVector) v.convertShape(VectorOperators.F2D, D8, 0));
        }
        sum.intoArray(lanes, 0);
        return bound;
    }

    /** As {@link #readLanesWide}, the lanes in two 256-bit halves. */
    static int readLanesHalves(MemorySegment x, long xAt, float[] dst, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x); // each loop casts its own segments (see VectorLanes)
        DoubleVector sum0 = DoubleVector.zero(D4);
        DoubleVector sum1 = DoubleVector.zero(D4);
        int bound = n - n % F8.length();
        for (int i = 0; i < bound; i += F8.length()) {
            FloatVector v0 = FloatVector.fromMemorySegment(F4, x, xAt + 4L * i, ORDER);
            FloatVector v1 = FloatVector.fromMemorySegment(F4, x, xAt + 4L * i + 16, ORDER);
            v0.intoArray(dst, i);
            v1.intoArray(dst, i + 4);
            sum0 = sum0.add((DoubleVector) v0.convertShape(VectorOperators.F2D, D4, 0));
            sum1 = sum1.add((DoubleVector) v1.convertShape(VectorOperators.F2D, D4, 0));
        }
        sum0.intoArray(lanes, 0);
        sum1.intoArray(lanes, D4.length());
        return bound;
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
            ((FloatVector) v.mul(k).add(v.mul(0.0)).add(bias).convertShape(VectorOperators.D2F, FD, 0))
                    .intoMemorySegment(out, outAt + 4L * i, ORDER);
        }
        for (int i = bound; i < n; i++) {
            double k = rstd * coefficients.get(F64, gammaAt + 8L * i);
            double bias = coefficients.get(F64, betaAt + 8L * i) - mean * k;
            float xi = src[from + i];
            out.set(F32, outAt + 4L * i, (float) (k * xi + 0.0 * xi + bias));
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
            // BulkMath#affine's operations with cb = 0 (0·x kept: the same bits, signed zeros included)
            ((FloatVector) v.mul(k).add(v.mul(0.0)).add(bias).convertShape(VectorOperators.D2F, FD, 0))
                    .intoMemorySegment(out, outAt + 4L * i, ORDER);
        }
        for (int i = bound; i < n; i++) {
            float xi = src[from + i];
            out.set(F32, outAt + 4L * i, (float) (k * xi + 0.0 * xi + bias));
        }
    }
}
