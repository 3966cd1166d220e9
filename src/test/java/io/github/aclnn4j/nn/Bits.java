package io.github.aclnn4j.nn;

/**
 * The 16-bit float formats written out here, independently of the library: FLOAT16 is IEEE
 * binary16 (the JDK's conversions, round to nearest even); BFLOAT16 is the top half of a float,
 * rounded to nearest even, every NaN becoming the quiet NaN 0x7FC0.
 */
final class Bits {
    private Bits() {}

    static short bf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if ((bits & 0x7FFFFFFF) > 0x7F800000) {
            return (short) 0x7FC0;
        }
        int lsb = (bits >>> 16) & 1;
        return (short) ((bits + 0x7FFF + lsb) >>> 16);
    }

    static float fromBf16(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    static short half(float value) {
        return Float.floatToFloat16(value);
    }

    static float fromHalf(short bits) {
        return Float.float16ToFloat(bits);
    }

    /** {@code value} as {@code dtype} stores it, widened back to float. */
    static float round(DType dtype, float value) {
        return switch (dtype) {
            case FLOAT16 -> fromHalf(half(value));
            case BFLOAT16 -> fromBf16(bf16(value));
            default -> value;
        };
    }

    /** The 16-bit patterns of {@code values} in {@code dtype} (FLOAT16 or BFLOAT16). */
    static short[] encode(DType dtype, float[] values) {
        short[] out = new short[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = dtype == DType.FLOAT16 ? half(values[i]) : bf16(values[i]);
        }
        return out;
    }

    /** 16-bit patterns of {@code dtype} widened to float. */
    static float[] decode(DType dtype, short[] bits) {
        float[] out = new float[bits.length];
        for (int i = 0; i < bits.length; i++) {
            out[i] = dtype == DType.FLOAT16 ? fromHalf(bits[i]) : fromBf16(bits[i]);
        }
        return out;
    }
}
