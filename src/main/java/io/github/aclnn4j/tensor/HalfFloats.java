package io.github.aclnn4j.tensor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Exact conversions between float and the two 16-bit formats. FLOAT16 uses the JDK's IEEE
 * binary16 conversions (round to nearest even); BFLOAT16 is the top half of a float, rounded to
 * nearest even, with every NaN stored as the quiet NaN 0x7FC0.
 */
public final class HalfFloats {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private HalfFloats() {}

    public static float fromHalf(short bits) {
        return Float.float16ToFloat(bits);
    }

    public static short toHalf(float value) {
        return Float.floatToFloat16(value);
    }

    public static float fromBf16(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    public static short toBf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if ((bits & 0x7FFFFFFF) > 0x7F800000) {
            return (short) 0x7FC0;
        }
        int roundingBias = 0x7FFF + ((bits >>> 16) & 1);
        return (short) ((bits + roundingBias) >>> 16);
    }

    /**
     * {@code value} as {@code dtype} holds it: rounded to nearest even for FLOAT16 and BFLOAT16,
     * unchanged for any other dtype (null included).
     */
    public static float roundTo(DType dtype, float value) {
        if (dtype == DType.FLOAT16) {
            return fromHalf(toHalf(value));
        }
        return dtype == DType.BF16 ? fromBf16(toBf16(value)) : value;
    }

    /**
     * {@code dst[dstAt + i] = fromHalf(src[srcAt + 2i])} for {@code i < n}, FLOAT16 in native byte order at
     * any byte offset: a plain loop that C2 vectorizes with the processor's conversions when
     * {@code src} is native memory (one instruction per vector, where the Vector API, which has no
     * half-float conversion, needs about ten). It does so from a segment into an array and back,
     * not from segment to segment.
     */
    public static void fromHalves(MemorySegment src, long srcAt, float[] dst, int dstAt, int n) {
        for (int i = 0; i < n; i++) {
            dst[dstAt + i] = Float.float16ToFloat(src.get(I16, srcAt + 2L * i));
        }
    }

    /**
     * {@code dst[dstAt + 2i] = toHalf(src[srcAt + i])} for {@code i < n}; see
     * {@link #fromHalves(MemorySegment, long, float[], int, int)}.
     */
    public static void toHalves(float[] src, int srcAt, MemorySegment dst, long dstAt, int n) {
        for (int i = 0; i < n; i++) {
            dst.set(I16, dstAt + 2L * i, Float.floatToFloat16(src[srcAt + i]));
        }
    }
}
