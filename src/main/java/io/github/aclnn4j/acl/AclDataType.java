package io.github.aclnn4j.acl;

/** The C enum {@code aclDataType}: element types of tensors and scalars. */
public final class AclDataType {
    private AclDataType() {}

    public static final int ACL_DT_UNDEFINED = -1;
    public static final int ACL_FLOAT = 0;
    public static final int ACL_FLOAT16 = 1;
    public static final int ACL_INT8 = 2;
    public static final int ACL_INT32 = 3;
    public static final int ACL_UINT8 = 4;
    public static final int ACL_INT16 = 6;
    public static final int ACL_UINT16 = 7;
    public static final int ACL_UINT32 = 8;
    public static final int ACL_INT64 = 9;
    public static final int ACL_UINT64 = 10;
    public static final int ACL_DOUBLE = 11;
    public static final int ACL_BOOL = 12;
    public static final int ACL_STRING = 13;
    public static final int ACL_COMPLEX64 = 16;
    public static final int ACL_COMPLEX128 = 17;
    public static final int ACL_BF16 = 27;
}
