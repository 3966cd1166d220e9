package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.HalfFloats;
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

    /** The lanes that {@code convertShape(D2F, F, -1)} fills. */
    private static final VectorMask<Float> UPPER_HALF = F.indexInRange(-D.length(), D.length());

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
            dst[i] = HalfFloats.toBf16(src[srcAt + i]);
        }
    }

    @Override
    public double bceWithLogits(float[] x, float[] y, float[] w, float[] pw, int n, boolean store) {
        DoubleVector acc = DoubleVector.zero(D);
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, x, i);
            FloatVector yv = FloatVector.fromArray(F, y, i);
            FloatVector wv = w == null ? null : FloatVector.fromArray(F, w, i);
            FloatVector pv = pw == null ? null : FloatVector.fromArray(F, pw, i);
            FloatVector softplus = log1pOfUnit(expOfNegative(xv.abs()));
            DoubleVector lo = bceLoss(xv, yv, wv, pv, softplus, 0);
            DoubleVector hi = bceLoss(xv, yv, wv, pv, softplus, 1);
            if (store) {
                narrow(lo, hi).intoArray(x, i);
            } else {
                acc = acc.add(lo).add(hi);
            }
        }
        double sum = store ? 0 : sumLanes(acc);
        if (i < n) { // the tail, zero-padded to one vector so that it gets the same arithmetic
            int rest = n - i;
            float[][] tails = Scratch.get().tails;
            FloatVector xv = FloatVector.fromArray(F, tail(x, i, rest, tails[0]), 0);
            FloatVector yv = FloatVector.fromArray(F, tail(y, i, rest, tails[1]), 0);
            FloatVector wv = w == null ? null : FloatVector.fromArray(F, tail(w, i, rest, tails[2]), 0);
            FloatVector pv = pw == null ? null : FloatVector.fromArray(F, tail(pw, i, rest, tails[3]), 0);
            FloatVector softplus = log1pOfUnit(expOfNegative(xv.abs()));
            DoubleVector lo = bceLoss(xv, yv, wv, pv, softplus, 0);
            DoubleVector hi = bceLoss(xv, yv, wv, pv, softplus, 1);
            if (store) {
                narrow(lo, hi).intoArray(tails[0], 0);
                System.arraycopy(tails[0], 0, x, i, rest);
            } else {
                for (int lane = 0; lane < rest; lane++) {
                    sum += lane < D.length() ? lo.lane(lane) : hi.lane(lane - D.length());
                }
            }
        }
        return sum;
    }

    /** Half {@code part} of one vector's losses, combined in double (the terms can cancel). */
    private static DoubleVector bceLoss(FloatVector xv, FloatVector yv, FloatVector wv, FloatVector pv,
            FloatVector softplus, int part) {
        DoubleVector xd = half(xv, part);
        DoubleVector yd = half(yv, part);
        DoubleVector logSigmoid = xd.min(0).sub(half(softplus, part));
        DoubleVector posFactor = pv == null ? DoubleVector.broadcast(D, 1) : half(pv, part).sub(1).mul(yd).add(1);
        DoubleVector loss = yd.neg().add(1).mul(xd).sub(posFactor.mul(logSigmoid));
        return wv == null ? loss : loss.mul(half(wv, part));
    }

    /** {@code a[from, from + n)} copied into {@code buffer}, zero-padded to one vector's length. */
    private static float[] tail(float[] a, int from, int n, float[] buffer) {
        System.arraycopy(a, from, buffer, 0, n);
        java.util.Arrays.fill(buffer, n, F.length(), 0f);
        return buffer;
    }

    /** Two double halves rounded back into one float vector, low half first. */
    private static FloatVector narrow(DoubleVector lo, DoubleVector hi) {
        FloatVector low = (FloatVector) lo.convertShape(VectorOperators.D2F, F, 0);
        FloatVector high = (FloatVector) hi.convertShape(VectorOperators.D2F, F, -1);
        return low.blend(high, UPPER_HALF);
    }

    // exp and log1p from IEEE add, mul, fma and div only: the Vector API's own EXP and LOG1P give
    // different last bits interpreted and JIT-compiled, which would break run-to-run determinism.
    private static final float LOG2E = 1.44269504f;
    private static final float LN2_HI = 0.693145752f;
    private static final float LN2_LO = 1.42860677e-6f;

    /** {@code exp(−a)} for {@code a ≥ 0} (NaN stays NaN), within a few ulps, subnormal results included. */
    static FloatVector expOfNegative(FloatVector a) {
        FloatVector clamped = a.min(104f);
        IntVector k = (IntVector) clamped.fma(splat(LOG2E), splat(0.5f)).convertShape(VectorOperators.F2I, I, 0);
        FloatVector kf = (FloatVector) k.convertShape(VectorOperators.I2F, F, 0);
        // r = a − k·ln2 in [−ln2/2, ln2/2]; e^−a = 2^−k · e^−r, e^−r by its Taylor series to r^7
        FloatVector r = kf.neg().fma(splat(LN2_HI), clamped);
        r = kf.neg().fma(splat(LN2_LO), r);
        FloatVector y = r.neg();
        FloatVector p = y.fma(splat(1f / 5040), splat(1f / 720)).fma(y, splat(1f / 120)).fma(y, splat(1f / 24))
                .fma(y, splat(1f / 6)).fma(y, splat(0.5f)).fma(y, splat(1f)).fma(y, splat(1f));
        // 2^−k in two normal factors, so that a subnormal result is rounded once, correctly
        IntVector kHalf = k.lanewise(VectorOperators.LSHR, 1);
        return p.mul(powerOfTwo(kHalf.neg())).mul(powerOfTwo(kHalf.sub(k)));
    }

    /** {@code 2^e} for {@code −126 ≤ e ≤ 127}, by building the float's exponent field. */
    private static FloatVector powerOfTwo(IntVector e) {
        return e.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
    }

    /** {@code log1p(t)} for {@code t ∈ [0, 1]}, as {@code 2·atanh(t / (2 + t))}: no loss for small t. */
    static FloatVector log1pOfUnit(FloatVector t) {
        FloatVector s = t.div(t.add(2f));
        FloatVector s2 = s.mul(s);
        FloatVector series = s2.fma(splat(1f / 15), splat(1f / 13)).fma(s2, splat(1f / 11)).fma(s2, splat(1f / 9))
                .fma(s2, splat(1f / 7)).fma(s2, splat(1f / 5)).fma(s2, splat(1f / 3)).fma(s2, splat(1f));
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
            narrow(half(av, 0).mul(ca).add(half(bv, 0).mul(cb)).add(bias),
                    half(av, 1).mul(ca).add(half(bv, 1).mul(cb)).add(bias)).intoArray(a, i);
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
