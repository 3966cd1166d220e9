package io.github.aclnn4j.runtime;

/**
 * The options of {@code aclrtSetSysParamOpt} ({@code aclSysParamOpt}): DETERMINISTIC (0),
 * ENABLE_DEBUG_KERNEL (1), STRONG_CONSISTENCY (2) for a context and the process, and
 * ENABLE_KERNEL_EARLY_START (3) for the process only, as CANN's runtime checks them. aclnn4j keeps
 * the values and reads them back; its results are deterministic (the same bits for the same call,
 * on any thread count) whatever they say, and it has no debug kernels or early start.
 */
final class SystemParams {
    /** Options a context takes: 0, 1, 2. */
    static final int CONTEXT_OPTIONS = 3;
    /** Options the process takes: 0, 1, 2, 3. */
    static final int PROCESS_OPTIONS = 4;

    private SystemParams() {}

    static void check(String function, int option, boolean context) {
        int options = context ? CONTEXT_OPTIONS : PROCESS_OPTIONS;
        if (option < 0 || option >= options) {
            throw Status.aclInvalid(function + ": opt " + option + " is not "
                    + (context ? "ACL_OPT_DETERMINISTIC (0), ACL_OPT_ENABLE_DEBUG_KERNEL (1) or ACL_OPT_STRONG_CONSISTENCY (2)"
                            : "ACL_OPT_DETERMINISTIC (0), ACL_OPT_ENABLE_DEBUG_KERNEL (1), "
                                    + "ACL_OPT_STRONG_CONSISTENCY (2) or ACL_OPT_ENABLE_KERNEL_EARLY_START (3)"));
        }
    }
}
