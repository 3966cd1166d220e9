package io.github.aclnn4j.acl;

/** The {@code aclError} codes returned by the runtime functions ({@link Acl}, {@link AclRt}). */
public final class AclError {
    private AclError() {}

    public static final int ACL_SUCCESS = 0;
    public static final int ACL_ERROR_INVALID_PARAM = 100000;
    public static final int ACL_ERROR_UNINITIALIZE = 100001;
    public static final int ACL_ERROR_REPEAT_INITIALIZE = 100002;
    public static final int ACL_ERROR_BAD_ALLOC = 200000;
    public static final int ACL_ERROR_INTERNAL_ERROR = 500000;
}
