package io.github.aclnn4j.acl;

/** The {@code aclError} codes returned by the runtime functions ({@link Acl}, {@link AclRt}). */
public final class AclError {
    private AclError() {}

    /** 0: success. */
    public static final int ACL_SUCCESS = 0;
    /** 100000: an argument is invalid (null, out of range, a copy past a buffer). */
    public static final int ACL_ERROR_INVALID_PARAM = 100000;
    /** 100001: {@link Acl#init} has not been called, or {@link Acl#finalizeAcl} has. */
    public static final int ACL_ERROR_UNINITIALIZE = 100001;
    /** 100002: {@link Acl#init} called again without {@link Acl#finalizeAcl}. */
    public static final int ACL_ERROR_REPEAT_INITIALIZE = 100002;
    /** 200000: memory allocation failed. */
    public static final int ACL_ERROR_BAD_ALLOC = 200000;
    /** 500000: an internal error; the recent message says what went wrong. */
    public static final int ACL_ERROR_INTERNAL_ERROR = 500000;
}
