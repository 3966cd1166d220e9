package io.github.aclnn4j.robust;

import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtStream;
import java.lang.reflect.Field;

/**
 * The library objects behind layer-1 handles. Leak probes must watch these, not the handles: a
 * runtime that kept every tensor descriptor or executor it ever saw would still let the caller's
 * handle objects be collected. Layer 1 hides them (package-private fields), so tests read them
 * reflectively.
 */
final class Internals {
    private Internals() {}

    /** The {@code TensorDesc} of a tensor. */
    static Object of(AclTensor t) {
        return field(AclTensor.class, "desc", t);
    }

    /** The {@code op.Executor} in a holder filled by phase 1. */
    static Object of(AclOpExecutor e) {
        return field(AclOpExecutor.class, "executor", e);
    }

    /** The {@code runtime.Stream} of a created stream. */
    static io.github.aclnn4j.runtime.Stream of(AclrtStream s) {
        return (io.github.aclnn4j.runtime.Stream) field(AclrtStream.class, "stream", s);
    }

    private static Object field(Class<?> type, String name, Object owner) {
        try {
            Field f = type.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(owner);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot read " + type.getSimpleName() + "." + name, e);
        }
    }
}
