package io.github.aclnn4j.acl;

import io.github.aclnn4j.op.Executor;

/**
 * The C out-parameter {@code aclOpExecutor**}: pass {@code new AclOpExecutor()} to an operator's
 * phase 1, which fills it with the planned work; pass the same object to its phase 2.
 */
public final class AclOpExecutor {
    volatile Executor executor;

    /** An empty holder, the C {@code aclOpExecutor* executor = nullptr;}. */
    public AclOpExecutor() {}

    /** Whether the holder has no executor in it (the C null pointer). */
    public boolean isNull() {
        return executor == null;
    }
}
