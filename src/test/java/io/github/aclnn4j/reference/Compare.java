package io.github.aclnn4j.reference;

/** Checks a stored output against the float64 reference. */
public final class Compare {
    private Compare() {}

    /** Slack for fp32 intermediates that fall into the subnormal range. */
    private static final double ABSOLUTE_SLACK = 0x1p-120;

    /**
     * Every element of {@code output} (stored as {@code type}) has the bits {@code what} gave
     * ({@code expectedBits}), except that two FLOAT or FLOAT16 NaNs match whatever their sign and
     * payload: IEEE 754 leaves a NaN result's sign open, and x86's vector instructions make the
     * negative default NaN where Java's constant is positive, so one formula's NaN differs between
     * the vector and the scalar code that two layouts run. BFLOAT16's NaN stays exact (0x7FC0, SPEC §4).
     */
    public static void sameBits(String output, StoredType type, long[] actualBits, long[] expectedBits, String what,
            CaseContext ctx) {
        for (int i = 0; i < actualBits.length; i++) {
            if (actualBits[i] != expectedBits[i] && !(type != StoredType.BF16
                    && Double.isNaN(type.decode(actualBits[i])) && Double.isNaN(type.decode(expectedBits[i])))) {
                throw new AssertionError(output + "[" + i + "] has bits 0x" + Long.toHexString(actualBits[i])
                        + " where " + what + " gives 0x" + Long.toHexString(expectedBits[i]) + "\n" + ctx.describe());
            }
        }
    }

    /**
     * Every element of {@code actualBits} (stored as {@code type}) must be what a correct fp32
     * computation could give once rounded to {@code type}: within [round(r − bound), round(r + bound)]
     * with outward rounding, so that overflow to infinity and underflow to zero are judged exactly.
     * Non-finite expected values must be matched exactly (NaN by NaN), except that in a case with
     * special values ({@link CaseContext#specials}) an expected infinity may also come out NaN: such
     * an infinity is often an infinite input times a factor that is exactly 0 in one correct
     * ordering of the fp32 operations and a rounding residue in another (BCE with logits backward
     * at y = 1 and gradOutput ∞; GroupNorm's {@code rstd·γ·x + bias} form, as PyTorch's, against
     * {@code (x − mean)·rstd·γ} at γ = ∞). An infinity where the reference gives NaN still fails.
     */
    public static void check(String output, StoredType type, Reference.Expected expected, long[] actualBits,
            CaseContext context) {
        double[] value = expected.value();
        if (actualBits.length != value.length) {
            throw new AssertionError(output + ": " + actualBits.length + " elements, expected " + value.length + "\n"
                    + context.describe());
        }
        for (int i = 0; i < value.length; i++) {
            double actual = type.decode(actualBits[i]);
            double r = value[i];
            boolean ok;
            String range;
            if (Double.isFinite(r)) {
                double bound = expected.bound()[i] + ABSOLUTE_SLACK;
                double low = type.roundedLowerBound(r - bound);
                double high = type.roundedUpperBound(r + bound);
                ok = low <= actual && actual <= high;
                range = "[" + low + ", " + high + "]";
            } else {
                ok = Double.isNaN(r) ? Double.isNaN(actual) : actual == r || context.specials() && Double.isNaN(actual);
                range = String.valueOf(r);
            }
            if (!ok) {
                throw new AssertionError(output + "[" + i + "] (row-major view index) = " + actual + " (bits 0x"
                        + Long.toHexString(actualBits[i]) + "), reference " + r + ", allowed " + range + "\n"
                        + context.describe());
            }
        }
    }
}
