package io.github.aclnn4j.acl;

/** The {@code aclnnStatus} codes returned by the tensor functions and the operators. */
public final class AclnnStatus {
    private AclnnStatus() {}

    public static final int ACLNN_SUCCESS = 0;
    public static final int ACLNN_ERR_PARAM_NULLPTR = 161001;
    public static final int ACLNN_ERR_PARAM_INVALID = 161002;
    public static final int ACLNN_ERR_RUNTIME_ERROR = 361001;
    public static final int ACLNN_ERR_INNER = 561000;
    public static final int ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001;
    public static final int ACLNN_ERR_INNER_TILING_ERROR = 561002;
    public static final int ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003;
    public static final int ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101;
    public static final int ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR = 561102;
    public static final int ACLNN_ERR_INNER_NULLPTR = 561103;
}
