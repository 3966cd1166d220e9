package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link BulkMath} on the Vector API, in the machine's preferred width. Loaded by reflection only
 * when {@code jdk.incubator.vector} is present.
 *
 * <p>Rules that keep it fast and deterministic: loops whose math mixes float and double use float
 * vectors with as many lanes as a double vector ({@link #FD}), so every conversion is lane for lane
 * (BCE with logits, all fp32 but its sum, widens a full vector in two halves instead); vectors
 * never pass through helpers the JIT might not inline (a boxed vector costs ten times the math);
 * and only IEEE add, mul, fma and div are used, since the API's EXP, LOG1P and reduceLanes(ADD)
 * give different last bits interpreted and JIT-compiled.
 */
final class VectorBulkMath implements BulkMath {
    static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    /** Float lanes matching {@link #D}'s. */
    static final VectorSpecies<Float> FD = VectorSpecies.of(float.class,
            VectorShape.forBitSize(D.vectorBitSize() / 2));
    /**
     * Whether one double vector holds {@link SumOrder}'s lanes (512-bit vectors): its sums then keep
     * them in one accumulator, else in two 256-bit halves ({@link #D4}); both add in the same order,
     * the one accumulator with half the instructions (GroupNorm's FLOAT calls 5-10% faster).
     */
    static final boolean WIDE = D.length() == SumOrder.LANES;
    /**
     * {@link #D} and {@link #F} where {@link #WIDE}, named so that the wide sums are the same code on
     * every processor: the tests run them (in the Vector API's Java fallback) where vectors are narrower.
     */
    static final VectorSpecies<Double> D8 = DoubleVector.SPECIES_512;
    static final VectorSpecies<Float> F16 = FloatVector.SPECIES_512;
    /** The halves of {@link SumOrder}'s lanes where a double vector holds fewer. */
    static final VectorSpecies<Double> D4 = DoubleVector.SPECIES_256;
    /** Eight floats: the step of the halves' loops. */
    static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
    /**
     * Four floats, one half of an {@link #F8} step, loaded on its own and widened into a {@link #D4}:
     * widening the upper half of a loaded F8 took C2 a lane permutation and a blend per vector on
     * AVX2, where a second load is free (GroupNorm backward's row sums 15-20% faster on Zen 3).
     */
    static final VectorSpecies<Float> F4 = FloatVector.SPECIES_128;
    /** Full-width floats, for float-only loops. */
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = F.withLanes(int.class);
    private static final VectorSpecies<Short> S = VectorSpecies.of(short.class,
            VectorShape.forBitSize(F.vectorBitSize() / 2));
    /** Pairs of floats as longs, full width, and their low halves as ints: {@link #loadEveryOther}. */
    private static final VectorSpecies<Long> PAIRS = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> EVENS = VectorSpecies.of(int.class,
            VectorShape.forBitSize(PAIRS.vectorBitSize() / 2));
    private static final VectorSpecies<Float> HALF_F = VectorSpecies.of(float.class,
            VectorShape.forBitSize(PAIRS.vectorBitSize() / 2));
    /** The even lanes of a full-width float vector: the low halves of {@link #PAIRS}' lanes. */
    private static final VectorMask<Float> EVEN_LANES = VectorMask.fromLong(
            VectorSpecies.of(float.class, PAIRS.vectorShape()), 0x5555_5555_5555_5555L);

    /**
     * Elements whose BCE-with-logits losses are added in fp32 lanes (8 terms per lane at 512 bits)
     * before the lanes go into the double sum; a power of two. Converting every loss vector to
     * double cost more than its log1p (7 of 31 cycles per vector, measured on Zen 5).
     */
    static final int LOSS_CHUNK = SumOrder.CHUNK;
    /**
     * Elements per pass of {@link #bceLosses}' two loops; a multiple of {@link #LOSS_CHUNK}, so that
     * the fp32 chunks, and with them the sums' bits, do not depend on it. 128 rather than 512 on
     * Sapphire Rapids: the direct FLOAT loops 9-11% faster, both orders of bench ab (mean 7.71 ->
     * 6.87 and 7.54 -> 6.90 ms, none 8.60 -> 7.66 and 8.25 -> 7.55); shorter runs were neutral on
     * Zen 3.
     */
    static final int EXP_RUN = 128;

    private static final float LOG2E = Fp32Math.LOG2E;
    private static final float LN2_HI = Fp32Math.LN2_HI;
    private static final float LN2_LO = Fp32Math.LN2_LO;
    private static final float SQRT2 = Fp32Math.SQRT2;
    private static final float SQRT_HALF = Fp32Math.SQRT_HALF;

    /** Whether {@link #storeEveryOther} stores under {@link #EVEN_LANES}. */
    private final boolean maskedStores;

    /**
     * Refuses a processor without 256-bit vectors, whose sums could not keep {@link SumOrder} fast;
     * masked stores where {@link MaskedStores} finds them fast.
     */
    VectorBulkMath() {
        this(MaskedStores.fast(PAIRS.vectorBitSize()));
    }

    /** As the processor would have it, but with masked stores or not as given (tests take both ways). */
    VectorBulkMath(boolean maskedStores) {
        if (VectorShape.preferredShape().vectorBitSize() < 256) {
            throw new UnsupportedOperationException("vectors of " + VectorShape.preferredShape().vectorBitSize()
                    + " bits: the plain-Java kernels are used");
        }
        this.maskedStores = maskedStores;
    }

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
            dst[dstAt + i] = HalfFloats.fromBf16(src[i]);
        }
    }

    @Override
    public void floatToBf16(float[] src, int srcAt, short[] dst, int n) {
        toBf16(src, srcAt, dst, 0, n);
    }

    /** {@link #floatToBf16} into {@code dst[dstAt, dstAt + n)}. */
    private static void toBf16(float[] src, int srcAt, short[] dst, int dstAt, int n) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            IntVector bits = FloatVector.fromArray(F, src, srcAt + i).reinterpretAsInts();
            IntVector rounded = bits.add(bits.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .lanewise(VectorOperators.LSHR, 16);
            VectorMask<Integer> nan = bits.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000);
            ((ShortVector) rounded.blend(0x7FC0, nan).convertShape(VectorOperators.I2S, S, 0))
                    .intoArray(dst, dstAt + i);
        }
        for (; i < n; i++) {
            dst[dstAt + i] = HalfFloats.toBf16(src[srcAt + i]);
        }
    }

    @Override
    public double bceWithLogits(float[] x, float[] y, float[] w, float[] pw, int n) {
        int full = F.loopBound(n);
        bceLosses(x, y, w, pw, full);
        if (full < n) { // the tail, padded to one vector
            int rest = n - full;
            float[][] tails = Scratch.get().tails;
            float[] tx = tail(x, full, rest, tails[0], 0f);
            bceLosses(tx, tail(y, full, rest, tails[1], 0f), tail(w, full, rest, tails[2], 0f),
                    tail(pw, full, rest, tails[3], 1f), F.length());
            System.arraycopy(tx, 0, x, full, rest);
        }
        return chunkedSum(x, n);
    }

    /**
     * The losses of whole vectors {@code [0, n)}, written over {@code x} (summed apart, in
     * {@link SumOrder#chunkedSum}'s order); everything inline (see the class comment). The loss is
     * computed as {@code w·(c·x + lw·softplus)}: with {@code lw = 1 + (pw − 1)·y} and
     * {@code softplus = log1p(exp(−|x|))}, the spec's {@code (1 − y)·x − lw·logσ(x)} is that with
     * {@code c = 1 − y} for {@code x ≥ 0} and {@code c = −pw·y} for {@code x < 0}. For targets in
     * [0, 1] and {@code pw ≥ 0} both terms are non-negative, so fp32 loses nothing to cancellation;
     * the {@code fma} keeps {@code c·x} exact.
     *
     * <p>Two loops per {@link #EXP_RUN} elements, the first computing {@code exp(−|x|)} into
     * scratch, the second the rest. In one loop, each step's chain of about twenty dependent
     * operations (some 120 cycles) kept its forty-odd vector operations waiting in the scheduler,
     * which then held too few steps to fill the pipes; two loops with half the chain each overlap
     * twice as many steps. Same operations, same bits; on Zen 3 (AVX2, both builds in one JVM)
     * 2^24 elements took 18.2 → 14.0 ms in FLOAT, 20.4 → 16.9 in BFLOAT16, 21.5 → 17.9 in FLOAT16.
     * A third loop (the log1p apart) was slower again, shorter runs too.
     */
    private static void bceLosses(float[] x, float[] y, float[] w, float[] pw, int n) {
        float[] exps = Scratch.get().exps;
        for (int run = 0; run < n; run += EXP_RUN) {
            int end = Math.min(n, run + EXP_RUN);
            expNegAbs(x, run, end, exps);
            for (int i = run; i < end; i += F.length()) {
                FloatVector xv = FloatVector.fromArray(F, x, i);
                FloatVector e = FloatVector.fromArray(F, exps, i - run);
                // softplus = log1p(e) = 2·atanh(s) = s·(2 + 2s²/3 + 2s⁴/5 + …) with s = e / (2 + e) ≤ 1/3
                FloatVector s = e.div(e.add(2f));
                FloatVector s2 = s.mul(s);
                FloatVector softplus = s2.fma(2 * (1f / 15), 2 * (1f / 13))
                        .fma(s2, FloatVector.broadcast(F, 2 * (1f / 11))).fma(s2, FloatVector.broadcast(F, 2 * (1f / 9)))
                        .fma(s2, FloatVector.broadcast(F, 2 * (1f / 7)))
                        .fma(s2, FloatVector.broadcast(F, 2 * (1f / 5))).fma(s2, FloatVector.broadcast(F, 2 * (1f / 3)))
                        .fma(s2, FloatVector.broadcast(F, 2f)).mul(s);
                FloatVector yv = FloatVector.fromArray(F, y, i);
                FloatVector pv = FloatVector.fromArray(F, pw, i);
                FloatVector lw = pv.sub(1f).fma(yv, FloatVector.broadcast(F, 1f));
                FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                        .blend(pv.mul(yv).neg(), xv.compare(VectorOperators.LT, 0f))
                        .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
                FloatVector loss = c.fma(xv, lw.mul(softplus)).mul(FloatVector.fromArray(F, w, i));
                loss.intoArray(x, i);
            }
        }
    }

    @Override
    public void bceWithLogitsBackward(float[] x, float[] y, float[] g, float[] w, float[] pw, float scale, int n) {
        int full = F.loopBound(n);
        bceWithLogitsGradients(x, y, g, w, pw, scale, full);
        if (full < n) { // the tail, padded to one vector
            int rest = n - full;
            float[][] tails = Scratch.get().tails;
            float[] tx = tail(x, full, rest, tails[0], 0f);
            bceWithLogitsGradients(tx, tail(y, full, rest, tails[1], 0f), tail(g, full, rest, tails[2], 0f),
                    tail(w, full, rest, tails[3], 0f), tail(pw, full, rest, tails[4], 1f), scale, F.length());
            System.arraycopy(tx, 0, x, full, rest);
        }
    }

    /**
     * The gradients of whole vectors {@code [0, n)} in fp32, written over {@code x}: σ(x) from
     * {@code e = exp(−|x|)} as {@link #bceLosses} computes it, {@code 1/(1 + e)} for x ≥ 0 and
     * {@code e/(1 + e)} below (no overflow either way), then {@code fma(pw·y + (1 − y), σ, −pw·y)}
     * (one rounding where the two terms cancel; {@code 1 − y} first, exact for y in [½, 1], where
     * CANN's and PyTorch's {@code (pw·y + 1) − y} lose a small {@code pw·y} to the 1), times g, w
     * and the scale.
     */
    private static void bceWithLogitsGradients(float[] x, float[] y, float[] g, float[] w, float[] pw, float scale,
            int n) {
        float[] exps = Scratch.get().exps;
        for (int run = 0; run < n; run += EXP_RUN) {
            int end = Math.min(n, run + EXP_RUN);
            expNegAbs(x, run, end, exps);
            for (int i = run; i < end; i += F.length()) {
                FloatVector xv = FloatVector.fromArray(F, x, i);
                FloatVector e = FloatVector.fromArray(F, exps, i - run);
                FloatVector sigmoid = FloatVector.broadcast(F, 1f).blend(e, xv.compare(VectorOperators.LT, 0f))
                        .div(e.add(1f));
                FloatVector yv = FloatVector.fromArray(F, y, i);
                FloatVector pt = FloatVector.fromArray(F, pw, i).mul(yv);
                pt.add(FloatVector.broadcast(F, 1f).sub(yv)).fma(sigmoid, pt.neg()).mul(FloatVector.fromArray(F, g, i))
                        .mul(FloatVector.fromArray(F, w, i)).mul(scale).intoArray(x, i);
            }
        }
    }

    @Override
    public double binaryCrossEntropy(float[] x, float[] y, float[] w, int n) {
        int full = F.loopBound(n);
        bceForwardLosses(x, y, w, full);
        if (full < n) { // the tail, padded to one vector
            int rest = n - full;
            float[][] tails = Scratch.get().tails;
            float[] tx = tail(x, full, rest, tails[0], 0.5f);
            bceForwardLosses(tx, tail(y, full, rest, tails[1], 0.5f), tail(w, full, rest, tails[2], 0f), F.length());
            System.arraycopy(tx, 0, x, full, rest);
        }
        return chunkedSum(x, n);
    }

    /** {@link SumOrder#chunkedSum} of {@code v[0, n)}, in this processor's register layout. */
    private static double chunkedSum(float[] v, int n) {
        return WIDE ? chunkedSumWide(v, n) : chunkedSumHalves(v, n);
    }

    /**
     * {@link SumOrder#chunkedSum} with one 16-lane fp32 chunk and one 8-lane double accumulator (512-bit
     * vectors); a pass of its own over the losses, which are in L1, so that the order of the sum does
     * not depend on the width of the loop that computed them.
     */
    static double chunkedSumWide(float[] v, int n) {
        int full = n - n % SumOrder.FLOAT_LANES;
        DoubleVector acc = DoubleVector.zero(D8);
        FloatVector chunk = FloatVector.zero(F16);
        for (int i = 0; i < full; i += F16.length()) {
            chunk = chunk.add(FloatVector.fromArray(F16, v, i));
            if (((i + F16.length()) & (SumOrder.CHUNK - 1)) == 0 || i + F16.length() >= full) {
                acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D8, 0))
                        .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D8, 1));
                chunk = FloatVector.zero(F16);
            }
        }
        double[] lanes = Scratch.get().lanes;
        acc.intoArray(lanes, 0);
        double sum = SumOrder.sumLanes(lanes);
        if (full == n) {
            return sum;
        }
        FloatVector last = FloatVector.fromArray(F16, v, full, F16.indexInRange(full, n));
        ((DoubleVector) DoubleVector.zero(D8).add((DoubleVector) last.convertShape(VectorOperators.F2D, D8, 0)))
                .add((DoubleVector) last.convertShape(VectorOperators.F2D, D8, 1)).intoArray(lanes, 0);
        return sum + SumOrder.sumLanes(lanes);
    }

    /** As {@link #chunkedSumWide}, the 16 fp32 lanes in two 8-lane halves and the double lanes in two 4-lane ones. */
    static double chunkedSumHalves(float[] v, int n) {
        int full = n - n % SumOrder.FLOAT_LANES;
        DoubleVector acc0 = DoubleVector.zero(D4);
        DoubleVector acc1 = DoubleVector.zero(D4);
        FloatVector chunk0 = FloatVector.zero(F8);
        FloatVector chunk1 = FloatVector.zero(F8);
        for (int i = 0; i < full; i += SumOrder.FLOAT_LANES) {
            chunk0 = chunk0.add(FloatVector.fromArray(F8, v, i));
            chunk1 = chunk1.add(FloatVector.fromArray(F8, v, i + F8.length()));
            if (((i + SumOrder.FLOAT_LANES) & (SumOrder.CHUNK - 1)) == 0 || i + SumOrder.FLOAT_LANES >= full) {
                acc0 = acc0.add((DoubleVector) chunk0.convertShape(VectorOperators.F2D, D4, 0))
                        .add((DoubleVector) chunk1.convertShape(VectorOperators.F2D, D4, 0));
                acc1 = acc1.add((DoubleVector) chunk0.convertShape(VectorOperators.F2D, D4, 1))
                        .add((DoubleVector) chunk1.convertShape(VectorOperators.F2D, D4, 1));
                chunk0 = FloatVector.zero(F8);
                chunk1 = FloatVector.zero(F8);
            }
        }
        double[] lanes = Scratch.get().lanes;
        acc0.intoArray(lanes, 0);
        acc1.intoArray(lanes, D4.length());
        double sum = SumOrder.sumLanes(lanes);
        if (full == n) {
            return sum;
        }
        FloatVector last0 = FloatVector.fromArray(F8, v, full, F8.indexInRange(full, n));
        FloatVector last1 = FloatVector.fromArray(F8, v, full + F8.length(), F8.indexInRange(full + F8.length(), n));
        DoubleVector.zero(D4).add((DoubleVector) last0.convertShape(VectorOperators.F2D, D4, 0))
                .add((DoubleVector) last1.convertShape(VectorOperators.F2D, D4, 0)).intoArray(lanes, 0);
        DoubleVector.zero(D4).add((DoubleVector) last0.convertShape(VectorOperators.F2D, D4, 1))
                .add((DoubleVector) last1.convertShape(VectorOperators.F2D, D4, 1)).intoArray(lanes, D4.length());
        return sum + SumOrder.sumLanes(lanes);
    }

    /**
     * The BCE losses of whole vectors {@code [0, n)} in fp32, written over {@code x} (their sum
     * follows, in {@link SumOrder#chunkedSum}'s order). For probabilities and targets in [0, 1]
     * both terms have one sign, so nothing cancels.
     *
     * <p>log(a) for a = x and for a = 1 − x, written out side by side (in helpers the JIT left
     * uninlined, every vector was boxed: 2.4 times the time): a = 2^e·m with m in [√½, √2)
     * (subnormals scaled by 2^23 first), log m = log1p(f) with f = m − 1 by the series below, plus
     * e·ln 2 in two parts; 0 gives −∞ (then −100), negative numbers and NaN give NaN. Where 1 − x lies
     * in [√½, √2), log1p(−x) is the series on −x itself, so that a loss near 0 keeps its digits.
     * The series: log1p(f) = 2·atanh(s), s = f / (2 + f), |s| ≤ 0.172, to s⁹ (the next term is below
     * 2^-28 of the result).
     */
    private static void bceForwardLosses(float[] x, float[] y, float[] w, int n) {
        FloatVector one = FloatVector.broadcast(F, 1f);
        for (int i = 0; i < n; i += F.length()) {
            FloatVector ax = FloatVector.fromArray(F, x, i);
            FloatVector am = one.sub(ax);
            VectorMask<Float> tinyX = ax.compare(VectorOperators.LT, 0x1p-126f);
            VectorMask<Float> tinyM = am.compare(VectorOperators.LT, 0x1p-126f);
            IntVector bitsX = ax.blend(ax.mul(0x1p23f), tinyX).reinterpretAsInts();
            IntVector bitsM = am.blend(am.mul(0x1p23f), tinyM).reinterpretAsInts();
            FloatVector mX = bitsX.and(0x007FFFFF).or(0x3F800000).reinterpretAsFloats();
            FloatVector mM = bitsM.and(0x007FFFFF).or(0x3F800000).reinterpretAsFloats();
            VectorMask<Float> highX = mX.compare(VectorOperators.GT, SQRT2);
            VectorMask<Float> highM = mM.compare(VectorOperators.GT, SQRT2);
            FloatVector eX = (FloatVector) bitsX.lanewise(VectorOperators.LSHR, 23)
                    .sub(IntVector.broadcast(I, 127).blend(150, tinyX.cast(I)))
                    .add(IntVector.zero(I).blend(1, highX.cast(I))).convertShape(VectorOperators.I2F, F, 0);
            FloatVector eM = (FloatVector) bitsM.lanewise(VectorOperators.LSHR, 23)
                    .sub(IntVector.broadcast(I, 127).blend(150, tinyM.cast(I)))
                    .add(IntVector.zero(I).blend(1, highM.cast(I))).convertShape(VectorOperators.I2F, F, 0);
            VectorMask<Float> near1 = am.compare(VectorOperators.GT, SQRT_HALF).and(am.compare(VectorOperators.LT, SQRT2));
            FloatVector fX = mX.blend(mX.mul(0.5f), highX).sub(1f);
            FloatVector fM = mM.blend(mM.mul(0.5f), highM).sub(1f).blend(ax.neg(), near1);
            eM = eM.blend(0f, near1);
            FloatVector sX = fX.div(fX.add(2f));
            FloatVector sM = fM.div(fM.add(2f));
            FloatVector zX = sX.mul(sX);
            FloatVector zM = sM.mul(sM);
            FloatVector pX = zX.fma(2f / 9, 2f / 7).fma(zX, FloatVector.broadcast(F, 2f / 5))
                    .fma(zX, FloatVector.broadcast(F, 2f / 3));
            FloatVector pM = zM.fma(2f / 9, 2f / 7).fma(zM, FloatVector.broadcast(F, 2f / 5))
                    .fma(zM, FloatVector.broadcast(F, 2f / 3));
            FloatVector logX = eX.fma(FloatVector.broadcast(F, LN2_LO), sX.mul(zX).fma(pX, sX.add(sX)))
                    .add(eX.mul(LN2_HI));
            FloatVector logM = eM.fma(FloatVector.broadcast(F, LN2_LO), sM.mul(zM).fma(pM, sM.add(sM)))
                    .add(eM.mul(LN2_HI));
            logX = logX.blend(Float.NEGATIVE_INFINITY, ax.compare(VectorOperators.EQ, 0f))
                    .blend(Float.NaN, ax.compare(VectorOperators.LT, 0f).or(ax.compare(VectorOperators.NE, ax)))
                    .blend(Float.POSITIVE_INFINITY, ax.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY)).max(-100f);
            logM = logM.blend(Float.NEGATIVE_INFINITY, am.compare(VectorOperators.EQ, 0f))
                    .blend(Float.NaN, am.compare(VectorOperators.LT, 0f).or(am.compare(VectorOperators.NE, am)))
                    .blend(Float.POSITIVE_INFINITY, am.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY)).max(-100f);
            FloatVector yv = FloatVector.fromArray(F, y, i);
            FloatVector loss = yv.mul(logX).add(one.sub(yv).mul(logM)).neg().mul(FloatVector.fromArray(F, w, i));
            loss.intoArray(x, i);
        }
    }

    /**
     * {@code exps[i − from] = exp(−|x[i]|)} for i in [from, to), whole vectors, in fp32: k =
     * round(|x|·log2 e), u = |x| − k·ln2 in [−ln2/2, ln2/2], e = 2^−k · e^−u, e^−u by its Taylor
     * polynomial in u (signs alternate, so no negation; 1/7! the last term). A loop of its own
     * over arrays, so that no vector crosses a call (see the class comment); BCE with logits'
     * backward direct loop writes the same operations out in its own loop.
     */
    static void expNegAbs(float[] x, int from, int to, float[] exps) {
        for (int i = from; i < to; i += F.length()) {
            FloatVector ax = FloatVector.fromArray(F, x, i).abs();
            FloatVector a = ax.blend(104f, ax.compare(VectorOperators.GT, 104f)); // min(|x|, 104), NaN kept
            IntVector k = (IntVector) a.fma(LOG2E, 0.5f).convertShape(VectorOperators.F2I, I, 0);
            FloatVector kf = (FloatVector) k.convertShape(VectorOperators.I2F, F, 0);
            FloatVector r = kf.fma(FloatVector.broadcast(F, -LN2_HI), a);
            FloatVector u = kf.fma(FloatVector.broadcast(F, -LN2_LO), r);
            FloatVector p = u.fma(-1f / 5040, 1f / 720).fma(u, FloatVector.broadcast(F, -1f / 120))
                    .fma(u, FloatVector.broadcast(F, 1f / 24)).fma(u, FloatVector.broadcast(F, -1f / 6))
                    .fma(u, FloatVector.broadcast(F, 0.5f)).fma(u, FloatVector.broadcast(F, -1f))
                    .fma(u, FloatVector.broadcast(F, 1f));
            // 2^−k as 2^(25 − k), normal for every k here (0 to 150), then 2^−25: the first product is
            // exact, so a subnormal e is rounded once (the same bits as two factors 2^−⌊k/2⌋ and
            // 2^−⌈k/2⌉ gave, checked over every non-negative float; four vector operations fewer)
            p.mul(IntVector.broadcast(I, 152).sub(k).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(0x1p-25f)
                    .intoArray(exps, i - from);
        }
    }

    /** {@code a[from, from + n)} copied into {@code buffer}, padded with {@code pad} to one vector. */
    private static float[] tail(float[] a, int from, int n, float[] buffer, float pad) {
        System.arraycopy(a, from, buffer, 0, n);
        Arrays.fill(buffer, n, F.length(), pad);
        return buffer;
    }

    @Override
    public double preluRow(float[] x, float[] g, int from, int to, float w) {
        double[] lanes = Scratch.get().lanes;
        int i = WIDE ? preluLanesWide(x, g, from, to, w, lanes) : preluLanesHalves(x, g, from, to, w, lanes);
        double sum = SumOrder.sumLanes(lanes);
        for (; i < to; i++) {
            float xi = x[i];
            float gi = g[i];
            sum += xi > 0 ? 0.0 : (double) xi * gi;
            x[i] = xi > 0 ? gi : w * gi;
        }
        return sum;
    }

    /** preluRow's whole steps: gradInput written, Σ min(x, 0)·g into SumOrder's lanes; returns where they end. */
    static int preluLanesWide(float[] x, float[] g, int from, int to, float w, double[] lanes) {
        DoubleVector acc = DoubleVector.zero(D8);
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += F8.length()) {
            FloatVector xv = FloatVector.fromArray(F8, x, i);
            FloatVector gv = FloatVector.fromArray(F8, g, i);
            VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
            // min(x, 0)·g, with g taken as 0 where x > 0: the term 0 whatever g holds (0·inf is NaN)
            DoubleVector xd = (DoubleVector) xv.blend(0f, up).convertShape(VectorOperators.F2D, D8, 0);
            acc = xd.fma((DoubleVector) gv.blend(0f, up).convertShape(VectorOperators.F2D, D8, 0), acc);
            gv.mul(w).blend(gv, up).intoArray(x, i);
        }
        acc.intoArray(lanes, 0);
        return i;
    }

    /** As {@link #preluLanesWide}, the lanes in two 256-bit halves. */
    static int preluLanesHalves(float[] x, float[] g, int from, int to, float w, double[] lanes) {
        DoubleVector acc0 = DoubleVector.zero(D4);
        DoubleVector acc1 = DoubleVector.zero(D4);
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += F8.length()) {
            FloatVector x0 = FloatVector.fromArray(F4, x, i);
            FloatVector g0 = FloatVector.fromArray(F4, g, i);
            FloatVector x1 = FloatVector.fromArray(F4, x, i + 4);
            FloatVector g1 = FloatVector.fromArray(F4, g, i + 4);
            VectorMask<Float> up0 = x0.compare(VectorOperators.GT, 0f);
            VectorMask<Float> up1 = x1.compare(VectorOperators.GT, 0f);
            acc0 = ((DoubleVector) x0.blend(0f, up0).convertShape(VectorOperators.F2D, D4, 0)) // as preluLanesWide
                    .fma((DoubleVector) g0.blend(0f, up0).convertShape(VectorOperators.F2D, D4, 0), acc0);
            acc1 = ((DoubleVector) x1.blend(0f, up1).convertShape(VectorOperators.F2D, D4, 0))
                    .fma((DoubleVector) g1.blend(0f, up1).convertShape(VectorOperators.F2D, D4, 0), acc1);
            g0.mul(w).blend(g0, up0).intoArray(x, i);
            g1.mul(w).blend(g1, up1).intoArray(x, i + 4);
        }
        acc0.intoArray(lanes, 0);
        acc1.intoArray(lanes, D4.length());
        return i;
    }

    @Override
    public void preluChannelRows(float[] x, float[] g, int from, int to, float[] w, int channels, double[] acc) {
        int whole = FD.loopBound(channels);
        for (int row = from; row < to; row += channels) {
            int c = 0;
            for (; c < whole; c += FD.length()) {
                FloatVector xv = FloatVector.fromArray(FD, x, row + c);
                FloatVector gv = FloatVector.fromArray(FD, g, row + c);
                VectorMask<Float> up = xv.compare(VectorOperators.GT, 0f);
                DoubleVector xd = (DoubleVector) xv.blend(0f, up).convertShape(VectorOperators.F2D, D, 0); // min(x, 0)
                DoubleVector gd = (DoubleVector) gv.blend(0f, up).convertShape(VectorOperators.F2D, D, 0); // 0 if x > 0
                xd.fma(gd, DoubleVector.fromArray(D, acc, c)).intoArray(acc, c); // the product is exact
                gv.mul(FloatVector.fromArray(FD, w, c)).blend(gv, up).intoArray(x, row + c);
            }
            for (; c < channels; c++) {
                float xi = x[row + c];
                float gi = g[row + c];
                acc[c] += xi > 0 ? 0.0 : (double) xi * gi;
                x[row + c] = xi > 0 ? gi : w[c] * gi;
            }
        }
    }

    @Override
    public void prelu(float[] x, int from, int to, float w) {
        int i = from;
        for (int bound = from + F.loopBound(to - from); i < bound; i += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, x, i);
            xv.mul(w).blend(xv, xv.compare(VectorOperators.GT, 0f)).intoArray(x, i);
        }
        for (; i < to; i++) {
            float xi = x[i];
            x[i] = xi > 0 ? xi : w * xi;
        }
    }

    @Override
    public void preluWeighted(float[] x, float[] w, int from, int to) {
        int i = from;
        for (int bound = from + F.loopBound(to - from); i < bound; i += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, x, i);
            xv.mul(FloatVector.fromArray(F, w, i)).blend(xv, xv.compare(VectorOperators.GT, 0f)).intoArray(x, i);
        }
        for (; i < to; i++) {
            float xi = x[i];
            x[i] = xi > 0 ? xi : w[i] * xi;
        }
    }

    @Override
    public void affine(float[] a, float[] b, int from, int to, double ca, double cb, double bias) {
        int i = from;
        for (int bound = from + FD.loopBound(to - from); i < bound; i += FD.length()) {
            DoubleVector ad = (DoubleVector) FloatVector.fromArray(FD, a, i).convertShape(VectorOperators.F2D, D, 0);
            DoubleVector bd = (DoubleVector) FloatVector.fromArray(FD, b, i).convertShape(VectorOperators.F2D, D, 0);
            ((FloatVector) ad.mul(ca).add(bd.mul(cb)).add(bias).convertShape(VectorOperators.D2F, FD, 0))
                    .intoArray(a, i);
        }
        for (; i < to; i++) {
            a[i] = (float) (ca * a[i] + cb * b[i] + bias);
        }
    }

    @Override
    public void groupNormUpdate(float[] dy, float[] x, int from, int to, float cdy, float cx, float mean, float k) {
        FloatVector cxv = FloatVector.broadcast(F, cx);
        int i = from;
        for (int bound = from + F.loopBound(to - from); i < bound; i += F.length()) {
            FloatVector inner = FloatVector.fromArray(F, dy, i).fma(cdy, k);
            FloatVector.fromArray(F, x, i).sub(mean).fma(cxv, inner).intoArray(dy, i);
        }
        for (; i < to; i++) {
            dy[i] = Math.fma(cx, x[i] - mean, Math.fma(cdy, dy[i], k));
        }
    }

    @Override
    public void sumAndDot(float[] a, float[] b, int from, int to, double[] out) {
        sumAndDotRow(a, b, from, to, out, 0, Scratch.get().lanes);
    }

    @Override
    public void sumAndDotRows(float[] a, float[] b, int rows, int length, double[] out) {
        double[] lanes = Scratch.get().lanes;
        for (int r = 0; r < rows; r++) {
            sumAndDotRow(a, b, r * length, (r + 1) * length, out, 2 * r, lanes);
        }
    }

    @Override
    public void addChannelSums(float[] a, int rows, int channels, double[] sum) {
        int bound = FD.loopBound(channels);
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector av = (DoubleVector) FloatVector.fromArray(FD, a, at + c).convertShape(VectorOperators.F2D, D, 0);
                DoubleVector.fromArray(D, sum, c).add(av).intoArray(sum, c);
            }
            for (; c < channels; c++) {
                sum[c] += a[at + c];
            }
        }
    }

    @Override
    public void addChannelRows(float[] a, float[] b, int rows, int channels, double[] sum, double[] dot) {
        int bound = FD.loopBound(channels);
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector av = (DoubleVector) FloatVector.fromArray(FD, a, at + c).convertShape(VectorOperators.F2D, D, 0);
                DoubleVector.fromArray(D, sum, c).add(av).intoArray(sum, c);
                DoubleVector bv = (DoubleVector) FloatVector.fromArray(FD, b, at + c).convertShape(VectorOperators.F2D, D, 0);
                av.fma(bv, DoubleVector.fromArray(D, dot, c)).intoArray(dot, c);
            }
            for (; c < channels; c++) {
                sum[c] += a[at + c];
                dot[c] = Math.fma(a[at + c], (double) b[at + c], dot[c]);
            }
        }
    }

    @Override
    public void addChannelSquaredDeviations(float[] a, int rows, int channels, double[] shift, double[] acc) {
        int bound = FD.loopBound(channels);
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector d = ((DoubleVector) FloatVector.fromArray(FD, a, at + c)
                        .convertShape(VectorOperators.F2D, D, 0)).sub(DoubleVector.fromArray(D, shift, c));
                d.fma(d, DoubleVector.fromArray(D, acc, c)).intoArray(acc, c);
            }
            for (; c < channels; c++) {
                double d = a[at + c] - shift[c];
                acc[c] = Math.fma(d, d, acc[c]);
            }
        }
    }

    @Override
    public void affineChannelRows(float[] a, int rows, int channels, double[] k, double[] bias) {
        int bound = FD.loopBound(channels);
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector av = (DoubleVector) FloatVector.fromArray(FD, a, at + c).convertShape(VectorOperators.F2D, D, 0);
                ((FloatVector) DoubleVector.fromArray(D, k, c).fma(av, DoubleVector.fromArray(D, bias, c))
                        .convertShape(VectorOperators.D2F, FD, 0)).intoArray(a, at + c);
            }
            for (; c < channels; c++) {
                a[at + c] = (float) Math.fma(k[c], a[at + c], bias[c]);
            }
        }
    }

    @Override
    public void affineChannelPairs(float[] a, float[] b, int rows, int channels, double[] ca, double[] cb,
            double[] bias) {
        int bound = FD.loopBound(channels);
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            int c = 0;
            for (; c < bound; c += FD.length()) {
                DoubleVector ad = (DoubleVector) FloatVector.fromArray(FD, a, at + c).convertShape(VectorOperators.F2D, D, 0);
                DoubleVector bd = (DoubleVector) FloatVector.fromArray(FD, b, at + c).convertShape(VectorOperators.F2D, D, 0);
                ((FloatVector) ad.mul(DoubleVector.fromArray(D, ca, c)).add(bd.mul(DoubleVector.fromArray(D, cb, c)))
                        .add(DoubleVector.fromArray(D, bias, c)).convertShape(VectorOperators.D2F, FD, 0))
                        .intoArray(a, at + c);
            }
            for (; c < channels; c++) {
                a[at + c] = (float) (ca[c] * a[at + c] + cb[c] * b[at + c] + bias[c]);
            }
        }
    }

    @Override
    public double squaredDeviations(float[] a, int from, int to, double shift) {
        double[] lanes = Scratch.get().lanes;
        int i = WIDE ? squaresWide(a, from, to, shift, lanes) : squaresHalves(a, from, to, shift, lanes);
        double s = SumOrder.foldGroupLanes(lanes);
        for (; i < to; i++) {
            double d = a[i] - shift;
            s += d * d;
        }
        return s;
    }

    @Override
    public double groupSum(float[] a, int from, int to) {
        double[] lanes = Scratch.get().lanes;
        int i = WIDE ? sumsWide(a, from, to, lanes) : sumsHalves(a, from, to, lanes);
        double s = SumOrder.foldGroupLanes(lanes);
        for (; i < to; i++) {
            s += a[i];
        }
        return s;
    }

    /*
     * The GROUP_LANES loops take one whole step of 8 elements at a time into lanes 8·(t mod 4) for
     * step t. Their accumulators rotate after each step, so each waits on itself only every fourth
     * step, and every step runs the same code whatever the count: no branch for the steps left
     * after the last 32 elements, which C2 compiles as a trap when the sizes it saw never took it
     * (a GroupNorm call of another size then deoptimized the loop). storeRotated puts each
     * accumulator back at its lanes.
     */

    /** squaredDeviations' whole steps into the {@link SumOrder#GROUP_LANES} lanes; returns where they end. */
    static int squaresWide(float[] a, int from, int to, double shift, double[] lanes) {
        DoubleVector s0 = DoubleVector.zero(D8);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += 8) {
            DoubleVector d = deviations(a, i, shift, D8);
            DoubleVector next = d.fma(d, s0);
            s0 = s1;
            s1 = s2;
            s2 = s3;
            s3 = next;
        }
        storeRotated(lanes, (i - from) / 8, s0, s1, s2, s3);
        return i;
    }

    /** As {@link #squaresWide}, each 8 lanes in two 256-bit halves. */
    static int squaresHalves(float[] a, int from, int to, double shift, double[] lanes) {
        DoubleVector s0 = DoubleVector.zero(D4);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        DoubleVector s4 = s0;
        DoubleVector s5 = s0;
        DoubleVector s6 = s0;
        DoubleVector s7 = s0;
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += 8) {
            DoubleVector d0 = deviations(a, i, shift, D4);
            DoubleVector d1 = deviations(a, i + 4, shift, D4);
            DoubleVector low = d0.fma(d0, s0);
            DoubleVector high = d1.fma(d1, s1);
            s0 = s2;
            s1 = s3;
            s2 = s4;
            s3 = s5;
            s4 = s6;
            s5 = s7;
            s6 = low;
            s7 = high;
        }
        storeRotated(lanes, (i - from) / 8, s0, s1, s2, s3, s4, s5, s6, s7);
        return i;
    }

    /** {@code a[i, i + species.length())} widened to double, {@code shift} subtracted. */
    private static DoubleVector deviations(float[] a, int i, double shift, VectorSpecies<Double> species) {
        return widened(a, i, species).sub(shift);
    }

    /** groupSum's whole steps into the {@link SumOrder#GROUP_LANES} lanes; returns where they end. */
    static int sumsWide(float[] a, int from, int to, double[] lanes) {
        DoubleVector s0 = DoubleVector.zero(D8);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += 8) {
            DoubleVector next = s0.add(widened(a, i, D8));
            s0 = s1;
            s1 = s2;
            s2 = s3;
            s3 = next;
        }
        storeRotated(lanes, (i - from) / 8, s0, s1, s2, s3);
        return i;
    }

    /** As {@link #sumsWide}, each 8 lanes in two 256-bit halves. */
    static int sumsHalves(float[] a, int from, int to, double[] lanes) {
        DoubleVector s0 = DoubleVector.zero(D4);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        DoubleVector s4 = s0;
        DoubleVector s5 = s0;
        DoubleVector s6 = s0;
        DoubleVector s7 = s0;
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += 8) {
            DoubleVector low = s0.add(widened(a, i, D4));
            DoubleVector high = s1.add(widened(a, i + 4, D4));
            s0 = s2;
            s1 = s3;
            s2 = s4;
            s3 = s5;
            s4 = s6;
            s5 = s7;
            s6 = low;
            s7 = high;
        }
        storeRotated(lanes, (i - from) / 8, s0, s1, s2, s3, s4, s5, s6, s7);
        return i;
    }

    /** {@code a[i, i + species.length())} widened to double. */
    private static DoubleVector widened(float[] a, int i, VectorSpecies<Double> species) {
        VectorSpecies<Float> floats = species == D8 ? F8 : F4;
        return (DoubleVector) FloatVector.fromArray(floats, a, i).convertShape(VectorOperators.F2D, species, 0);
    }

    /**
     * A rotating GROUP_LANES loop's four 512-bit accumulators after {@code steps} steps, in their
     * lanes: {@code s[q]} holds the steps t with t ≡ q + steps (mod 4).
     */
    static void storeRotated(double[] lanes, int steps, DoubleVector s0, DoubleVector s1, DoubleVector s2,
            DoubleVector s3) {
        s0.intoArray(lanes, 8 * (steps & 3));
        s1.intoArray(lanes, 8 * ((steps + 1) & 3));
        s2.intoArray(lanes, 8 * ((steps + 2) & 3));
        s3.intoArray(lanes, 8 * ((steps + 3) & 3));
    }

    /** As {@link #storeRotated(double[], int, DoubleVector, DoubleVector, DoubleVector, DoubleVector)}, halves in pairs. */
    static void storeRotated(double[] lanes, int steps, DoubleVector s0, DoubleVector s1, DoubleVector s2,
            DoubleVector s3, DoubleVector s4, DoubleVector s5, DoubleVector s6, DoubleVector s7) {
        s0.intoArray(lanes, 8 * (steps & 3));
        s1.intoArray(lanes, 8 * (steps & 3) + 4);
        s2.intoArray(lanes, 8 * ((steps + 1) & 3));
        s3.intoArray(lanes, 8 * ((steps + 1) & 3) + 4);
        s4.intoArray(lanes, 8 * ((steps + 2) & 3));
        s5.intoArray(lanes, 8 * ((steps + 2) & 3) + 4);
        s6.intoArray(lanes, 8 * ((steps + 3) & 3));
        s7.intoArray(lanes, 8 * ((steps + 3) & 3) + 4);
    }

    @Override
    public void scaleShift(float[] a, int from, int to, double k, double bias) {
        int i = from;
        for (int bound = from + FD.loopBound(to - from); i < bound; i += FD.length()) {
            DoubleVector v = (DoubleVector) FloatVector.fromArray(FD, a, i).convertShape(VectorOperators.F2D, D, 0);
            ((FloatVector) v.fma(k, bias).convertShape(VectorOperators.D2F, FD, 0)).intoArray(a, i);
        }
        for (; i < to; i++) {
            a[i] = (float) Math.fma(a[i], k, bias);
        }
    }

    /** {@link #sumAndDot} into {@code out[at]} and {@code out[at + 1]}, its lanes summed through {@code lanes}. */
    private static void sumAndDotRow(float[] a, float[] b, int from, int to, double[] out, int at, double[] lanes) {
        int i = WIDE ? sumAndDotWide(a, b, from, to, lanes) : sumAndDotHalves(a, b, from, to, lanes);
        double s = SumOrder.sumLanes(lanes, 0);
        double d = SumOrder.sumLanes(lanes, SumOrder.LANES);
        for (; i < to; i++) {
            s += a[i];
            d += (double) a[i] * b[i];
        }
        out[at] = s;
        out[at + 1] = d;
    }

    /**
     * sumAndDot's whole steps: Σa into SumOrder's lanes at {@code lanes[0, 8)}, Σa·b at
     * {@code lanes[8, 16)}; returns where the steps end.
     */
    static int sumAndDotWide(float[] a, float[] b, int from, int to, double[] lanes) {
        DoubleVector sum = DoubleVector.zero(D8);
        DoubleVector dot = DoubleVector.zero(D8);
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += F8.length()) {
            DoubleVector ad = (DoubleVector) FloatVector.fromArray(F8, a, i).convertShape(VectorOperators.F2D, D8, 0);
            DoubleVector bd = (DoubleVector) FloatVector.fromArray(F8, b, i).convertShape(VectorOperators.F2D, D8, 0);
            sum = sum.add(ad);
            dot = ad.fma(bd, dot);
        }
        sum.intoArray(lanes, 0);
        dot.intoArray(lanes, SumOrder.LANES);
        return i;
    }

    /** As {@link #sumAndDotWide}, the lanes in two 256-bit halves. */
    static int sumAndDotHalves(float[] a, float[] b, int from, int to, double[] lanes) {
        DoubleVector sum0 = DoubleVector.zero(D4);
        DoubleVector sum1 = DoubleVector.zero(D4);
        DoubleVector dot0 = DoubleVector.zero(D4);
        DoubleVector dot1 = DoubleVector.zero(D4);
        int i = from;
        for (int bound = from + F8.loopBound(to - from); i < bound; i += F8.length()) {
            DoubleVector a0 = (DoubleVector) FloatVector.fromArray(F4, a, i).convertShape(VectorOperators.F2D, D4, 0);
            DoubleVector a1 = (DoubleVector) FloatVector.fromArray(F4, a, i + 4).convertShape(VectorOperators.F2D, D4, 0);
            sum0 = sum0.add(a0);
            sum1 = sum1.add(a1);
            dot0 = a0.fma((DoubleVector) FloatVector.fromArray(F4, b, i).convertShape(VectorOperators.F2D, D4, 0), dot0);
            dot1 = a1.fma((DoubleVector) FloatVector.fromArray(F4, b, i + 4).convertShape(VectorOperators.F2D, D4, 0),
                    dot1);
        }
        sum0.intoArray(lanes, 0);
        sum1.intoArray(lanes, D4.length());
        dot0.intoArray(lanes, SumOrder.LANES);
        dot1.intoArray(lanes, SumOrder.LANES + D4.length());
        return i;
    }

    /**
     * The first {@code D.length()} values of {@code lanes}, added in order: a double vector's lanes,
     * stored there by the caller. (reduceLanes leaves the order open; and the vector itself stays
     * in the caller, since a vector passed to a helper the JIT does not inline is boxed.)
     */
    static double sumLanes(double[] lanes) {
        return SumOrder.sumFirst(lanes, D.length());
    }

    /**
     * The panel transposed a block of registers at a time straight into memory
     * ({@link BlockTranspose#transposeInto}), eight memory columns at a time down all the rows. Going
     * through {@code columns} first (transposed there, then each column stored whole) cost a store
     * and a load more per element: `bench ab`, Emerald Rapids, 2048×2048 transposed BCE backward
     * 4.18 → 3.52 ms, channels-last GroupNorm backward into NCHW 4.03 → 3.56 ms.
     */
    @Override
    public void storePanel(float[] buf, int at, int rows, int cols, MemorySegment seg, long off, long colStride,
            float[] columns) {
        BlockTranspose.transposeInto(buf, at, rows, cols, cols, seg, off, colStride);
    }

    /** In 8×8 blocks of 16-bit registers, straight into memory ({@link BlockTranspose}). */
    @Override
    public void storeHalfPanel(short[] src, int rows, int cols, MemorySegment seg, long off, long colStride) {
        BlockTranspose.transposeInto(src, rows, cols, seg, off, colStride);
    }

    @Override
    public void transposeHalves(MemorySegment src, long srcOff, long srcRowStride, int rows, int cols,
            MemorySegment dst, long dstOff, long dstColStride) {
        BlockTranspose.transposeBetween(src, srcOff, srcRowStride, rows, cols, dst, dstOff, dstColStride);
    }

    @Override
    public void transposeFloats(MemorySegment src, long srcOff, long srcRowStride, int rows, int cols,
            MemorySegment dst, long dstOff, long dstColStride) {
        BlockTranspose.transposeFloatsBetween(src, srcOff, srcRowStride, rows, cols, dst, dstOff, dstColStride);
    }

    /**
     * The panel rounded to BFLOAT16 into {@link Scratch#halfRow}, as many of its columns at a time as
     * fit there (the whole panel, as a rule), then stored from there by {@link #storeHalfPanel}:
     * `bench ab`, Emerald Rapids, channels-last PReLU into NCHW 1.85 → 1.45 ms, its backward 3.12 →
     * 2.75, where each float column was transposed through {@code columns}, then rounded and stored
     * (rounding in the float registers before the store instead: slower, 1.73 → 1.85).
     */
    @Override
    public void storeBf16Panel(float[] buf, int at, int rows, int cols, MemorySegment seg, long off, long colStride,
            float[] columns) {
        short[] halves = Scratch.get().halfRow;
        if (rows > halves.length) {
            BulkMath.super.storeBf16Panel(buf, at, rows, cols, seg, off, colStride, columns);
            return;
        }
        int chunk = Math.min(cols, halves.length / rows);
        for (int c = 0; c < cols; c += chunk, off += chunk * colStride) {
            int m = Math.min(chunk, cols - c);
            if (m == cols) {
                toBf16(buf, at, halves, 0, rows * cols); // the rows lie end to end: one pass
            } else {
                for (int r = 0; r < rows; r++) {
                    toBf16(buf, at + r * cols + c, halves, r * m, m);
                }
            }
            storeHalfPanel(halves, rows, m, seg, off, colStride);
        }
    }

    /**
     * Columns of a panel of {@code rows} rows that {@code columns} holds transposed, or 0 where
     * not one column fits and the panel goes element by element.
     */
    private static int panelColumns(int rows, int cols, float[] columns) {
        return rows <= columns.length ? Math.min(cols, columns.length / rows) : 0;
    }

    /**
     * Each pair of floats read as one long and narrowed to its low half, the even float on this
     * little-endian order: one load and one narrowing per vector where element loads took one each
     * (BCE backward over stepped inputs: the loads were 43% of the call). The last element is read
     * alone, as its pair's second float may lie outside the segment.
     */
    @Override
    public void loadEveryOther(MemorySegment seg, long off, float[] dst, int at, int n) {
        if (VectorLanes.ORDER != java.nio.ByteOrder.LITTLE_ENDIAN) {
            BulkMath.super.loadEveryOther(seg, off, dst, at, n);
            return;
        }
        int full = Math.max(0, n - 1) / PAIRS.length() * PAIRS.length();
        for (int i = 0; i < full; i += PAIRS.length()) {
            ((IntVector) LongVector.fromMemorySegment(PAIRS, seg, off + 8L * i, VectorLanes.ORDER)
                    .convertShape(VectorOperators.L2I, EVENS, 0)).reinterpretAsFloats().intoArray(dst, at + i);
        }
        for (int i = full; i < n; i++) {
            dst[at + i] = seg.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 8L * i);
        }
    }

    /**
     * Each float widened to a long's low half, and the vector stored under a mask of its even
     * lanes, which leaves the floats between untouched (another view's elements, maybe another
     * thread's). The last element is stored alone, as a whole vector past it may leave the segment.
     * Where masked stores are slow ({@link MaskedStores}), element stores instead.
     */
    @Override
    public void storeEveryOther(float[] src, int at, int n, MemorySegment seg, long off) {
        if (!maskedStores || VectorLanes.ORDER != java.nio.ByteOrder.LITTLE_ENDIAN) {
            BulkMath.super.storeEveryOther(src, at, n, seg, off);
            return;
        }
        int full = Math.max(0, n - 1) / EVENS.length() * EVENS.length();
        for (int i = 0; i < full; i += EVENS.length()) {
            ((LongVector) FloatVector.fromArray(HALF_F, src, at + i).reinterpretAsInts()
                    .convertShape(VectorOperators.ZERO_EXTEND_I2L, PAIRS, 0)).reinterpretAsFloats()
                    .intoMemorySegment(seg, off + 8L * i, VectorLanes.ORDER, EVEN_LANES);
        }
        for (int i = full; i < n; i++) {
            seg.set(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 8L * i, src[at + i]);
        }
    }

    /**
     * The memory columns copied end to end into {@code columns} as vectors, as many as fit there
     * per pass, then transposed into the rows ({@link BlockTranspose}).
     */
    @Override
    public void loadPanel(MemorySegment seg, long off, long colStride, float[] buf, int at, int rows, int cols,
            float[] columns) {
        int chunk = panelColumns(rows, cols, columns);
        if (chunk == 0) {
            BulkMath.super.loadPanel(seg, off, colStride, buf, at, rows, cols, columns);
        } else {
            loadColumns(seg, off, colStride, buf, at, rows, cols, columns, chunk, false);
        }
    }

    /** As {@link #loadPanel}, each memory column widened from BFLOAT16 (a float's high half). */
    @Override
    public void loadBf16Panel(MemorySegment seg, long off, long colStride, float[] buf, int at, int rows, int cols,
            float[] columns) {
        int chunk = panelColumns(rows, cols, columns);
        if (chunk == 0) {
            BulkMath.super.loadBf16Panel(seg, off, colStride, buf, at, rows, cols, columns);
        } else {
            loadColumns(seg, off, colStride, buf, at, rows, cols, columns, chunk, true);
        }
    }

    /** The panel through {@code columns}, {@code chunk} memory columns at a time. */
    private static void loadColumns(MemorySegment seg, long off, long colStride, float[] buf, int at, int rows,
            int cols, float[] columns, int chunk, boolean bf16) {
        for (int c = 0; c < cols; c += chunk) {
            int m = Math.min(chunk, cols - c);
            for (int j = 0; j < m; j++, off += colStride) {
                if (bf16) {
                    loadBf16Column(seg, off, columns, j * rows, rows);
                } else {
                    loadColumn(seg, off, columns, j * rows, rows);
                }
            }
            BlockTranspose.transpose(columns, 0, m, rows, rows, buf, at + c, cols);
        }
    }

    private static void loadColumn(MemorySegment seg, long off, float[] dst, int from, int n) {
        int i = 0;
        for (; i <= n - F.length(); i += F.length()) {
            FloatVector.fromMemorySegment(F, seg, off + 4L * i, VectorLanes.ORDER).intoArray(dst, from + i);
        }
        for (; i < n; i++) {
            dst[from + i] = seg.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 4L * i);
        }
    }

    private static void loadBf16Column(MemorySegment seg, long off, float[] dst, int from, int n) {
        int i = 0;
        for (; i <= n - F.length(); i += F.length()) {
            ((IntVector) ShortVector.fromMemorySegment(S, seg, off + 2L * i, VectorLanes.ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats().intoArray(dst, from + i);
        }
        for (; i < n; i++) {
            dst[from + i] = HalfFloats.fromBf16(seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, off + 2L * i));
        }
    }

    /** In 8×8 blocks of registers ({@link BlockTranspose}). */
    @Override
    public void transpose(float[] src, int srcAt, int srcRows, int srcCols, float[] dst, int dstAt) {
        BlockTranspose.transpose(src, srcAt, srcRows, srcCols, dst, dstAt);
    }
}
