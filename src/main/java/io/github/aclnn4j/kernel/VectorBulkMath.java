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
        DoubleVector acc = DoubleVector.zero(D);
        for (int i = 0; i < n; i += F.length()) {
            VectorMask<Float> in = F.indexInRange(i, n);
            FloatVector xv = FloatVector.fromArray(F, x, i, in);
            FloatVector yv = FloatVector.fromArray(F, y, i, in);
            FloatVector pv = pw == null ? null : FloatVector.fromArray(F, pw, i, in);
            FloatVector wv = w == null ? null : FloatVector.fromArray(F, w, i, in);
            FloatVector softplus = log1pOfUnit(expOfNegative(xv.abs()));
            for (int part = 0; part < 2; part++) {
                DoubleVector xd = half(xv, part);
                DoubleVector yd = half(yv, part);
                DoubleVector logSigmoid = xd.min(0).sub(half(softplus, part));
                DoubleVector posFactor = pv == null ? DoubleVector.broadcast(D, 1) : half(pv, part).sub(1).mul(yd).add(1);
                DoubleVector loss = yd.neg().add(1).mul(xd).sub(posFactor.mul(logSigmoid));
                if (wv != null) {
                    loss = loss.mul(half(wv, part));
                }
                int from = i + part * D.length();
                if (store) {
                    ((FloatVector) loss.convertShape(VectorOperators.D2F, F, 0))
                            .intoArray(x, from, F.indexInRange(from, Math.min(n, from + D.length())));
                } else {
                    acc = acc.add(loss, D.indexInRange(from, n));
                }
            }
        }
        return store ? 0 : sumLanes(acc);
    }

    // exp and log1p from IEEE add, mul, fma and div only: the Vector API's own EXP and LOG1P give
    // different last bits interpreted and JIT-compiled, which would break run-to-run determinism.
    private static final float LOG2E = 1.44269504f;
    private static final float LN2_HI = 0.693145752f;
    private static final float LN2_LO = 1.42860677e-6f;
    /** 1/k! for k = 5 … 0, after the first Horner step (1/7!, 1/6!). */
    private static final float[] EXP_SERIES = {1f / 120, 1f / 24, 1f / 6, 0.5f, 1f, 1f};
    /** 1/(2k+1) for k = 5 … 0, after the first Horner step (1/15, 1/13). */
    private static final float[] ATANH_SERIES = {1f / 11, 1f / 9, 1f / 7, 1f / 5, 1f / 3, 1f};

    /** {@code exp(−a)} for {@code a ≥ 0} (NaN stays NaN), within a few ulps; 0 once it underflows. */
    static FloatVector expOfNegative(FloatVector a) {
        FloatVector clamped = a.min(104f);
        IntVector k = (IntVector) clamped.fma(LOG2E, 0.5f).convertShape(VectorOperators.F2I, I, 0);
        FloatVector kf = (FloatVector) k.convertShape(VectorOperators.I2F, F, 0);
        // r = a − k·ln2 in [−ln2/2, ln2/2]; e^−a = 2^−k · e^−r, e^−r by its Taylor series to r^7
        FloatVector r = kf.neg().fma(splat(LN2_HI), clamped);
        r = kf.neg().fma(splat(LN2_LO), r);
        FloatVector y = r.neg();
        FloatVector p = y.fma(1f / 5040, 1f / 720);
        for (float c : EXP_SERIES) {
            p = p.fma(y, splat(c));
        }
        FloatVector scale = k.neg().add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        return p.mul(scale).blend(0f, k.compare(VectorOperators.GT, 126).cast(F));
    }

    /** {@code log1p(t)} for {@code t ∈ [0, 1]}, as {@code 2·atanh(t / (2 + t))}: no loss for small t. */
    static FloatVector log1pOfUnit(FloatVector t) {
        FloatVector s = t.div(t.add(2f));
        FloatVector s2 = s.mul(s);
        FloatVector series = s2.fma(1f / 15, 1f / 13);
        for (float c : ATANH_SERIES) {
            series = series.fma(s2, splat(c));
        }
        return s.add(s).mul(series);
    }

    private static FloatVector splat(float c) {
        return FloatVector.broadcast(F, c);
    }

    /** Lanes [part·D, (part+1)·D) of {@code v}, widened to double. */
    private static DoubleVector half(FloatVector v, int part) {
        return (DoubleVector) v.convertShape(VectorOperators.F2D, D, part);
    }

    @Override
    public double preluRow(float[] x, float[] g, int from, int to, float w) {
        FloatVector acc = FloatVector.zero(F);
        int i = from;
        for (int bound = from + F.loopBound(to - from); i < bound; i += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, x, i);
            FloatVector gv = FloatVector.fromArray(F, g, i);
            acc = xv.min(0f).fma(gv, acc);
            gv.mul(w).blend(gv, xv.compare(VectorOperators.GT, 0f)).intoArray(x, i);
        }
        double sum = sumLanes(acc);
        for (; i < to; i++) {
            float xi = x[i];
            float gi = g[i];
            sum += Math.min(xi, 0f) * gi;
            x[i] = xi > 0 ? gi : w * gi;
        }
        return sum;
    }

    /** The lanes of {@code v} added in double, in lane order. */
    private static double sumLanes(FloatVector v) {
        return sumLanes(half(v, 0)) + sumLanes(half(v, 1));
    }

    /**
     * The lanes of {@code v} added one by one in lane order: {@code reduceLanes(ADD)} leaves the
     * order open, and it differs between the interpreted and the compiled code.
     */
    private static double sumLanes(DoubleVector v) {
        double sum = 0;
        for (int i = 0; i < D.length(); i++) {
            sum += v.lane(i);
        }
        return sum;
    }

    @Override
    public void affine(float[] a, float[] b, int n, double ca, double cb, double bias) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector av = FloatVector.fromArray(F, a, i);
            FloatVector bv = FloatVector.fromArray(F, b, i);
            for (int part = 0; part < 2; part++) {
                DoubleVector r = half(av, part).mul(ca).add(half(bv, part).mul(cb)).add(bias);
                ((FloatVector) r.convertShape(VectorOperators.D2F, F, 0))
                        .intoArray(a, i + part * D.length(), F.indexInRange(0, D.length()));
            }
        }
        for (; i < n; i++) {
            a[i] = (float) (ca * a[i] + cb * b[i] + bias);
        }
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
        double s = sumLanes(s0.add(s1));
        double d = sumLanes(d0.add(d1));
        for (; i < n; i++) {
            s += a[i];
            d += (double) a[i] * b[i];
        }
        out[0] = s;
        out[1] = d;
    }
}
