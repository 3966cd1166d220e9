package io.github.aclnn4j.nn;

import io.github.aclnn4j.acl.AclDataType;

/** Element types of a {@link Tensor}, each with its CANN {@code aclDataType} and size. */
public enum DType {
    /** 32-bit IEEE float. */
    FLOAT(AclDataType.ACL_FLOAT),
    /** 16-bit IEEE half float. */
    FLOAT16(AclDataType.ACL_FLOAT16),
    /** bfloat16: float's exponent with an 8-bit significand. */
    BFLOAT16(AclDataType.ACL_BF16),
    /** 64-bit IEEE float. */
    DOUBLE(AclDataType.ACL_DOUBLE),
    /** 64-bit signed integer. */
    INT64(AclDataType.ACL_INT64),
    /** 32-bit signed integer. */
    INT32(AclDataType.ACL_INT32),
    /** 8-bit unsigned integer. */
    UINT8(AclDataType.ACL_UINT8),
    /** One byte, 0 or 1. */
    BOOL(AclDataType.ACL_BOOL);

    /** The library's own type of the same {@code aclDataType}: sizes and promotion come from there. */
    private final io.github.aclnn4j.tensor.DType internal;

    DType(int aclDataType) {
        this.internal = io.github.aclnn4j.tensor.DType.of(aclDataType);
    }

    /** The {@code aclDataType} value layer 1 takes for this type. */
    public int aclDataType() {
        return internal.code;
    }

    /** Bytes per element. */
    public int byteSize() {
        return internal.byteSize;
    }

    /** Whether the type holds floating-point values (FLOAT, FLOAT16, BFLOAT16, DOUBLE). */
    public boolean isFloatingPoint() {
        return internal.isFloating();
    }

    /** The type layer 1 computes {@code a} and {@code b} in together: one type, DOUBLE with DOUBLE, else FLOAT. */
    static DType promote(DType a, DType b) {
        return of(io.github.aclnn4j.tensor.DType.promote(a.internal, b.internal));
    }

    private static DType of(io.github.aclnn4j.tensor.DType internal) {
        for (DType t : values()) {
            if (t.internal == internal) {
                return t;
            }
        }
        throw new IllegalArgumentException(internal + " has no layer-2 type");
    }
}
