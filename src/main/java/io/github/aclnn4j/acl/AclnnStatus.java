package io.github.aclnn4j.acl;

/** The {@code aclnnStatus} codes returned by the tensor functions and the operators. */
public final class AclnnStatus {
    private AclnnStatus() {}

    /** 0: success. */
    public static final int ACLNN_SUCCESS = 0;
    /** 161001: a required argument is null. */
    public static final int ACLNN_ERR_PARAM_NULLPTR = 161001;
    /** 161002: an argument is invalid (dtype, shape, value). */
    public static final int ACLNN_ERR_PARAM_INVALID = 161002;
    /** 361001: a runtime failure, e.g. of work queued on a stream (see {@link AclRt#synchronizeStream}). */
    public static final int ACLNN_ERR_RUNTIME_ERROR = 361001;
    /** 561000: an internal error; the recent message says what went wrong. */
    public static final int ACLNN_ERR_INNER = 561000;
    /** 561001: CANN failed to infer an output shape; not returned by aclnn4j. */
    public static final int ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001;
    /** 561002: CANN failed to tile an NPU kernel; not returned by aclnn4j. */
    public static final int ACLNN_ERR_INNER_TILING_ERROR = 561002;
    /** 561003: CANN found no NPU kernel (the operator package may be missing); not returned by aclnn4j. */
    public static final int ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003;
    /** 561101: CANN failed to create the executor; not returned by aclnn4j. */
    public static final int ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101;
    /**
     * 561102: a CANN operator did not hand its executor over ({@code uniqueExecutor ReleaseTo}); not
     * returned by aclnn4j.
     */
    public static final int ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR = 561102;
    /**
     * 561103: a null pointer inside the API; here, an empty executor given to
     * {@link Acl#setAclOpExecutorRepeatable} or {@link Acl#destroyAclOpExecutor}, and, as in CANN, a null
     * {@code self}, {@code target} or {@code out} of {@code aclnnBinaryCrossEntropy}.
     */
    public static final int ACLNN_ERR_INNER_NULLPTR = 561103;
}
