package io.github.aclnn4j.acl;

/** The C enum {@code aclDataType}: element types of tensors and scalars. */
public final class AclDataType {
    private AclDataType() {}

    /** No data type. */
    public static final int ACL_DT_UNDEFINED = -1;
    /** 32-bit IEEE float. */
    public static final int ACL_FLOAT = 0;
    /** 16-bit IEEE float (half precision). */
    public static final int ACL_FLOAT16 = 1;
    /** Signed 8-bit integer. */
    public static final int ACL_INT8 = 2;
    /** Signed 32-bit integer. */
    public static final int ACL_INT32 = 3;
    /** Unsigned 8-bit integer. */
    public static final int ACL_UINT8 = 4;
    /** Signed 16-bit integer. */
    public static final int ACL_INT16 = 6;
    /** Unsigned 16-bit integer. */
    public static final int ACL_UINT16 = 7;
    /** Unsigned 32-bit integer. */
    public static final int ACL_UINT32 = 8;
    /** Signed 64-bit integer. */
    public static final int ACL_INT64 = 9;
    /** Unsigned 64-bit integer. */
    public static final int ACL_UINT64 = 10;
    /** 64-bit IEEE float. */
    public static final int ACL_DOUBLE = 11;
    /** Boolean, one byte per element. */
    public static final int ACL_BOOL = 12;
    /** String. */
    public static final int ACL_STRING = 13;
    /** Complex number of two 32-bit floats. */
    public static final int ACL_COMPLEX64 = 16;
    /** Complex number of two 64-bit floats. */
    public static final int ACL_COMPLEX128 = 17;
    /** bfloat16: a 16-bit float with FLOAT's 8-bit exponent. */
    public static final int ACL_BF16 = 27;
}
