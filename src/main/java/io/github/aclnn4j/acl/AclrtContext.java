package io.github.aclnn4j.acl;

import io.github.aclnn4j.runtime.Context;

/** The C {@code aclrtContext}: pass {@code new AclrtContext()} to {@link AclRt#createContext}, which fills it. */
public final class AclrtContext {
    volatile Context context;

    /** An empty holder, the C {@code aclrtContext context = nullptr;}. */
    public AclrtContext() {}

    /** Whether the holder has no context in it (the C null pointer). */
    public boolean isNull() {
        return context == null;
    }
}
