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

    /** Two holders are equal when they hold the same context (C: the same {@code aclrtContext}). */
    @Override
    public boolean equals(Object other) {
        return other instanceof AclrtContext c && c.context == context;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(context);
    }
}
