package io.github.aclnn4j.nn;

import io.github.aclnn4j.acl.AclDataType;

/** Element types of a {@link Tensor}, each with its CANN {@code aclDataType} and size. */
public enum DType {
    /** 32-bit IEEE float. */
    FLOAT(AclDataType.ACL_FLOAT, 4),
    /** 16-bit IEEE half float. */
    FLOAT16(AclDataType.ACL_FLOAT16, 2),
    /** bfloat16: float's exponent with an 8-bit significand. */
    BFLOAT16(AclDataType.ACL_BF16, 2),
    /** 64-bit IEEE float. */
    DOUBLE(AclDataType.ACL_DOUBLE, 8),
    /** 64-bit signed integer. */
    INT64(AclDataType.ACL_INT64, 8),
    /** 32-bit signed integer. */
    INT32(AclDataType.ACL_INT32, 4),
    /** 8-bit unsigned integer. */
    UINT8(AclDataType.ACL_UINT8, 1),
    /** One byte, 0 or 1. */
    BOOL(AclDataType.ACL_BOOL, 1);

    private final int aclDataType;
    private final int byteSize;

    DType(int aclDataType, int byteSize) {
        this.aclDataType = aclDataType;
        this.byteSize = byteSize;
    }

    /** The {@code aclDataType} value layer 1 takes for this type. */
    public int aclDataType() {
        return aclDataType;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** Whether the type holds floating-point values (FLOAT, FLOAT16, BFLOAT16, DOUBLE). */
    public boolean isFloatingPoint() {
        return this == FLOAT || this == FLOAT16 || this == BFLOAT16 || this == DOUBLE;
    }
}
