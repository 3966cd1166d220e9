package io.github.aclnn4j.acl;

/**
 * The C enum {@code aclSysParamOpt} of {@code aclrtSetSysParamOpt} and
 * {@code aclrtCtxSetSysParamOpt}. aclnn4j keeps the values and reads them back, but computes
 * deterministically whatever they say: the same call gives the same bits on any thread count.
 */
public final class AclSysParamOpt {
    private AclSysParamOpt() {}

    /** 0: off, 1: deterministic, 2: strong consistency, 3: batch consistency (in CANN). */
    public static final int ACL_OPT_DETERMINISTIC = 0;
    /** Debug kernels (none here). */
    public static final int ACL_OPT_ENABLE_DEBUG_KERNEL = 1;
    /** Deprecated in CANN: ACL_OPT_DETERMINISTIC with value 2. */
    public static final int ACL_OPT_STRONG_CONSISTENCY = 2;
    /** For the process only ({@code aclrtSetSysParamOpt}), not a context. */
    public static final int ACL_OPT_ENABLE_KERNEL_EARLY_START = 3;
}
