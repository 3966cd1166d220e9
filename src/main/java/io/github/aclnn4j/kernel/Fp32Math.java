package io.github.aclnn4j.kernel;

/**
 * The fp32 element functions of the Vector API loops, one element at a time: exp(−|x|), the BCE
 * and BCE-with-logits losses and the BCE-with-logits gradient, with the same operations in the
 * same order as every lane of {@link VectorBulkMath} and the direct loops (Java's float arithmetic
 * and {@link Math#fma} round as the vector lanes do), so the same bits. The plain-Java paths
 * ({@link ScalarBulkMath}) compute with them, so that a call's elements do not depend on whether
 * the Vector API is there. The loops hold the derivations.
 */
final class Fp32Math {
    static final float LOG2E = 1.44269504f;
    static final float LN2_HI = 0.693145752f;
    static final float LN2_LO = 1.42860677e-6f;
    static final float SQRT2 = 1.41421356f;
    static final float SQRT_HALF = 0.707106781f;

    private Fp32Math() {}

    /** exp(−|x|), as {@link VectorBulkMath#expNegAbs}. */
    static float expNegAbs(float x) {
        float ax = Math.abs(x);
        float a = ax > 104f ? 104f : ax; // NaN kept
        int k = (int) Math.fma(a, LOG2E, 0.5f);
        float kf = k;
        float r = Math.fma(kf, -LN2_HI, a);
        float u = Math.fma(kf, -LN2_LO, r);
        float p = Math.fma(u, -1f / 5040, 1f / 720);
        p = Math.fma(p, u, -1f / 120);
        p = Math.fma(p, u, 1f / 24);
        p = Math.fma(p, u, -1f / 6);
        p = Math.fma(p, u, 0.5f);
        p = Math.fma(p, u, -1f);
        p = Math.fma(p, u, 1f);
        return p * Float.intBitsToFloat((152 - k) << 23) * 0x1p-25f;
    }

    /** The BCE-with-logits gradient of one element, as VectorBulkMath's bceWithLogitsGradients. */
    static float bceWithLogitsGradient(float x, float y, float g, float w, float pw, float scale) {
        float e = expNegAbs(x);
        float sigmoid = (x < 0f ? e : 1f) / (e + 1f);
        float pt = pw * y;
        return Math.fma(pt + (1f - y), sigmoid, -pt) * g * w * scale;
    }

    /** The BCE-with-logits loss of one element, {@code e = exp(−|x|)} given, as VectorBulkMath's bceLosses. */
    static float bceWithLogitsLoss(float x, float e, float y, float w, float pw) {
        float s = e / (e + 2f);
        float s2 = s * s;
        float softplus = Math.fma(s2, 2 * (1f / 15), 2 * (1f / 13));
        softplus = Math.fma(softplus, s2, 2 * (1f / 11));
        softplus = Math.fma(softplus, s2, 2 * (1f / 9));
        softplus = Math.fma(softplus, s2, 2 * (1f / 7));
        softplus = Math.fma(softplus, s2, 2 * (1f / 5));
        softplus = Math.fma(softplus, s2, 2 * (1f / 3));
        softplus = Math.fma(softplus, s2, 2f) * s;
        float lw = Math.fma(pw - 1f, y, 1f);
        // the coefficient of x: SPEC's (1 − y)·x − lw·min(x, 0) gathered into one term, which is
        // ∞ − ∞ = NaN at x = −∞ (as in PyTorch) where the gathered term alone would be infinite
        float c = x == Float.NEGATIVE_INFINITY ? Float.NaN : x < 0f ? -(pw * y) : 1f - y;
        return Math.fma(c, x, lw * softplus) * w;
    }

    /** The BCE loss of one element, as VectorBulkMath's bceForwardLosses. */
    static float bceLoss(float x, float y, float w) {
        return -(y * log(x, false, 0f) + (1f - y) * log(1f - x, true, -x)) * w;
    }

    /**
     * log(a), at least −100, as the loop computes it: a = 2^e·m with m in [√½, √2) (subnormals
     * scaled first), log1p(m − 1) by the series; with {@code nearOne}, for a in (√½, √2) the series
     * on {@code f} itself (a = 1 − x, f = −x: a loss near 0 keeps its digits).
     */
    private static float log(float a, boolean nearOne, float f) {
        boolean tiny = a < 0x1p-126f;
        int bits = Float.floatToRawIntBits(tiny ? a * 0x1p23f : a);
        float mant = Float.intBitsToFloat(bits & 0x007FFFFF | 0x3F800000);
        boolean high = mant > SQRT2;
        float e = (bits >>> 23) - (tiny ? 150 : 127) + (high ? 1 : 0);
        if (nearOne && a > SQRT_HALF && a < SQRT2) {
            return finish(a, 0f, f);
        }
        return finish(a, e, (high ? mant * 0.5f : mant) - 1f);
    }

    /** e·ln 2 + log1p(f) by the atanh series, with a's special cases, clamped at −100. */
    private static float finish(float a, float e, float f) {
        float s = f / (f + 2f);
        float z = s * s;
        float p = Math.fma(z, 2f / 9, 2f / 7);
        p = Math.fma(p, z, 2f / 5);
        p = Math.fma(p, z, 2f / 3);
        float log = Math.fma(e, LN2_LO, Math.fma(s * z, p, s + s)) + e * LN2_HI;
        if (a == 0f) {
            log = Float.NEGATIVE_INFINITY;
        }
        if (a < 0f || a != a) {
            log = Float.NaN;
        }
        if (a == Float.POSITIVE_INFINITY) {
            log = Float.POSITIVE_INFINITY;
        }
        return Math.max(log, -100f);
    }
}
