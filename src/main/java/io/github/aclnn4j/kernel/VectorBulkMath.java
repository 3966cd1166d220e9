package io.github.aclnn4j.kernel;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link BulkMath} on the Vector API, in the machine's preferred width. Loaded by reflection only
 * when {@code jdk.incubator.vector} is present. Sums keep double lanes, combined in a fixed order.
 */
final class VectorBulkMath implements BulkMath {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = F.withLanes(int.class);
    private static final VectorSpecies<Short> S = VectorSpecies.of(short.class,
            VectorShape.forBitSize(F.vectorBitSize() / 2));
    private static final VectorSpecies<Double> D = VectorSpecies.of(double.class,
            VectorShape.forBitSize(F.vectorBitSize()));

    @Override
    public String name() {
        return "vector-" + F.vectorBitSize();
    }

    @Override
    public void bf16ToFloat(short[] src, float[] dst, int dstAt, int n) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            IntVector bits = (IntVector) ShortVector.fromArray(S, src, i)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0);
            bits.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().intoArray(dst, dstAt + i);
        }
        for (; i < n; i++) {
            dst[dstAt + i] = Float.intBitsToFloat((src[i] & 0xFFFF) << 16);
        }
    }

    @Override
    public void floatToBf16(float[] src, int srcAt, short[] dst, int n) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            IntVector bits = FloatVector.fromArray(F, src, srcAt + i).reinterpretAsInts();
            IntVector rounded = bits.add(bits.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .lanewise(VectorOperators.LSHR, 16);
            VectorMask<Integer> nan = bits.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000);
            ((ShortVector) rounded.blend(0x7FC0, nan).convertShape(VectorOperators.I2S, S, 0)).intoArray(dst, i);
        }
        for (; i < n; i++) {
            dst[i] = io.github.aclnn4j.tensor.HalfFloats.toBf16(src[srcAt + i]);
        }
    }

    @Override
    public double bceWithLogits(float[] x, float[] y, float[] w, float[] pw, int n, boolean store) {
        DoubleVector acc0 = DoubleVector.zero(D);
        DoubleVector acc1 = DoubleVector.zero(D);
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, x, i);
            FloatVector yv = FloatVector.fromArray(F, y, i);
            FloatVector softplus = xv.abs().neg().lanewise(VectorOperators.EXP).lanewise(VectorOperators.LOG1P);
            FloatVector logSigmoid = xv.min(0f).sub(softplus);
            FloatVector posFactor = pw == null ? FloatVector.broadcast(F, 1f)
                    : FloatVector.fromArray(F, pw, i).sub(1f).mul(yv).add(1f);
            FloatVector loss = yv.neg().add(1f).mul(xv).sub(posFactor.mul(logSigmoid));
            if (w != null) {
                loss = loss.mul(FloatVector.fromArray(F, w, i));
            }
            if (store) {
                loss.intoArray(x, i);
            } else {
                acc0 = acc0.add((DoubleVector) loss.convertShape(VectorOperators.F2D, D, 0));
                acc1 = acc1.add((DoubleVector) loss.convertShape(VectorOperators.F2D, D, 1));
            }
        }
        double sum = store ? 0 : acc0.add(acc1).reduceLanes(VectorOperators.ADD);
        return sum + ScalarBulkMath.bceWithLogits(x, y, w, pw, i, n, store);
    }

    @Override
    public void sumAndDot(float[] a, float[] b, int n, double[] out) {
        DoubleVector s0 = DoubleVector.zero(D);
        DoubleVector s1 = DoubleVector.zero(D);
        DoubleVector d0 = DoubleVector.zero(D);
        DoubleVector d1 = DoubleVector.zero(D);
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector av = FloatVector.fromArray(F, a, i);
            FloatVector bv = FloatVector.fromArray(F, b, i);
            DoubleVector a0 = (DoubleVector) av.convertShape(VectorOperators.F2D, D, 0);
            DoubleVector a1 = (DoubleVector) av.convertShape(VectorOperators.F2D, D, 1);
            s0 = s0.add(a0);
            s1 = s1.add(a1);
            d0 = a0.fma((DoubleVector) bv.convertShape(VectorOperators.F2D, D, 0), d0);
            d1 = a1.fma((DoubleVector) bv.convertShape(VectorOperators.F2D, D, 1), d1);
        }
        double s = s0.add(s1).reduceLanes(VectorOperators.ADD);
        double d = d0.add(d1).reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            s += a[i];
            d += (double) a[i] * b[i];
        }
        out[0] = s;
        out[1] = d;
    }
}
