package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.AclDataType;

/**
 * The element types the random cases store, with conversions written independently of the
 * library: a value is stored as the bit pattern of its dtype (held in a long), and read back
 * exactly as a double.
 */
public enum StoredType {
    FLOAT(AclDataType.ACL_FLOAT, 4),
    FLOAT16(AclDataType.ACL_FLOAT16, 2),
    BF16(AclDataType.ACL_BF16, 2),
    INT64(AclDataType.ACL_INT64, 8),
    INT32(AclDataType.ACL_INT32, 4),
    UINT8(AclDataType.ACL_UINT8, 1);

    public final int code;
    public final int bytes;

    StoredType(int code, int bytes) {
        this.code = code;
        this.bytes = bytes;
    }

    public static final StoredType[] FLOATS = {FLOAT, FLOAT16, BF16};

    /** The bits of {@code value} in this type: round to nearest even for floats, truncation for integers. */
    public long encode(double value) {
        return switch (this) {
            case FLOAT -> Float.floatToRawIntBits((float) value) & 0xFFFFFFFFL;
            case FLOAT16 -> Float.floatToFloat16((float) value) & 0xFFFFL;
            case BF16 -> bf16Bits((float) value);
            case INT64 -> (long) value;
            case INT32 -> ((long) (int) (long) value) & 0xFFFFFFFFL;
            case UINT8 -> ((long) value) & 0xFFL;
        };
    }

    public double decode(long bits) {
        return switch (this) {
            case FLOAT -> Float.intBitsToFloat((int) bits);
            case FLOAT16 -> Float.float16ToFloat((short) bits);
            case BF16 -> Float.intBitsToFloat((int) (bits << 16));
            case INT64 -> bits;
            case INT32 -> (int) bits;
            case UINT8 -> bits & 0xFF;
        };
    }

    /** {@code value} as this type would hold it (the double of its nearest-even rounding). */
    public double round(double value) {
        return decode(encode(value));
    }

    /**
     * The largest value of this type that a correctly rounded store of any real {@code >= x} can
     * give, never more: x is first taken down to a float, and rounding is monotonic.
     */
    public double roundedLowerBound(double x) {
        float f = (float) x;
        if (f > x) {
            f = Math.nextDown(f);
        }
        return round(f);
    }

    /** The mirror of {@link #roundedLowerBound}: no correctly rounded store of a real {@code <= x} exceeds it. */
    public double roundedUpperBound(double x) {
        float f = (float) x;
        if (f < x) {
            f = Math.nextUp(f);
        }
        return round(f);
    }

    private static long bf16Bits(float value) {
        int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value)) {
            return 0x7FC0;
        }
        // Round to nearest even on the 16 bits that are dropped.
        int rounded = bits + 0x7FFF + ((bits >>> 16) & 1);
        return (rounded >>> 16) & 0xFFFFL;
    }

    /** The type FLOAT16+FLOAT → FLOAT, BF16+FLOAT → FLOAT, FLOAT16+BF16 → FLOAT, same+same → same. */
    public static StoredType promote(StoredType a, StoredType b) {
        return a == b ? a : FLOAT;
    }
}
