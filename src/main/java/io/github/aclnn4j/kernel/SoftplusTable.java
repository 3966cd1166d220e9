package io.github.aclnn4j.kernel;

/**
 * BCE with logits' {@code softplus = log1p(exp(−|x|))} for every 16-bit value: one float per
 * non-negative BFLOAT16 or FLOAT16 bit pattern (index {@code bits & 0x7FFF}, so 128 KB per dtype),
 * each computed by {@link BulkMath#bceWithLogits}, the row loop, at first use. A lookup therefore
 * returns the very bits the loops compute; only the direct loops use it, which exist only beside
 * the vector row loop whose bits it holds. Building a table runs that loop over 32768 values
 * before C2 has compiled it: 60 to 140 ms once per dtype and JVM (Zen 3), paid by the first
 * call that reaches a direct loop. That loop works in the calling thread's {@link Scratch}, so a
 * caller gets the table before it holds anything there (the first sum of a JVM came out NaN
 * when the lanes it had zeroed were the ones the build summed the table in).
 */
final class SoftplusTable {
    private SoftplusTable() {}

    /** Entries: every bit pattern of a 16-bit value without its sign. */
    static final int SIZE = 1 << 15;

    /** The table for BFLOAT16 bit patterns. */
    static float[] bf16() {
        return Bf16.TABLE;
    }

    /** The table for FLOAT16 bit patterns. */
    static float[] float16() {
        return Float16.TABLE;
    }

    private static final class Bf16 {
        static final float[] TABLE = build(true);
    }

    private static final class Float16 {
        static final float[] TABLE = build(false);
    }

    /**
     * With {@code y = 1}, {@code pw = 1}, {@code w = 1} and {@code x ≥ 0} the row loop's loss is
     * {@code 0·x + 1·softplus}, exactly the softplus. Infinity would make {@code 0·x} NaN; it shares
     * 104's entry, as the loop clamps {@code |x|} to 104 before its exp. NaN stays NaN.
     */
    private static float[] build(boolean bf16) {
        float[] x = new float[SIZE];
        float[] ones = new float[SIZE];
        java.util.Arrays.fill(ones, 1f);
        for (int bits = 0; bits < SIZE; bits++) {
            float v = bf16 ? Float.intBitsToFloat(bits << 16) : Float.float16ToFloat((short) bits);
            x[bits] = Math.min(v, 104f);
        }
        BulkMath.fastest().bceWithLogits(x, ones, ones, ones, SIZE);
        return x;
    }
}
