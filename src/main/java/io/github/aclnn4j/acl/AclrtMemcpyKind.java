package io.github.aclnn4j.acl;

/** The C enum {@code aclrtMemcpyKind}: the direction of {@link AclRt#memcpy}. */
public final class AclrtMemcpyKind {
    private AclrtMemcpyKind() {}

    /** Both {@code src} and {@code dst} are host memory. */
    public static final int ACL_MEMCPY_HOST_TO_HOST = 0;
    /** {@code src} is host memory, {@code dst} device memory. */
    public static final int ACL_MEMCPY_HOST_TO_DEVICE = 1;
    /** {@code src} is device memory, {@code dst} host memory. */
    public static final int ACL_MEMCPY_DEVICE_TO_HOST = 2;
    /** Both {@code src} and {@code dst} are device memory. */
    public static final int ACL_MEMCPY_DEVICE_TO_DEVICE = 3;
    /** The direction is taken from where the two pointers lie. */
    public static final int ACL_MEMCPY_DEFAULT = 4;
}
