package io.github.aclnn4j.nativeabi;

import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclFloatArray;
import io.github.aclnn4j.acl.AclIntArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclScalar;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtContext;
import io.github.aclnn4j.acl.AclrtEvent;
import io.github.aclnn4j.acl.AclrtStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The C handles ({@code aclTensor*}, {@code aclrtStream}, {@code aclOpExecutor*}, ...) given out to C:
 * opaque ids mapped to the layer-1 objects they stand for. C never dereferences them, so a handle
 * is only ever looked up here; one that was never given out, was released, or names an object of
 * another type is rejected instead of trusted. Ids are never reused, so a stale handle stays invalid.
 */
final class Handles {
    /** High bits that keep ids away from small integers, typical heap addresses and each other's low bits. */
    private static final long TAG = 0x0AC1_0000_0000_0000L;
    private static final AtomicLong NEXT = new AtomicLong();
    private static final Map<Long, Object> LIVE = new ConcurrentHashMap<>();

    /** The C names of the handle types, for messages. */
    private static final Map<Class<?>, String> C_NAMES = Map.of(
            AclTensor.class, "aclTensor",
            AclBoolArray.class, "aclBoolArray",
            AclIntArray.class, "aclIntArray",
            AclFloatArray.class, "aclFloatArray",
            AclScalar.class, "aclScalar",
            ExecutorHandle.class, "aclOpExecutor",
            AclrtStream.class, "aclrtStream",
            AclrtContext.class, "aclrtContext",
            AclrtEvent.class, "aclrtEvent",
            ListHandle.class, "aclTensorList or aclScalarList");

    /**
     * An {@code aclTensorList*} or {@code aclScalarList*}: the layer-1 list and the C handles of its
     * elements, released with it (destroying a list destroys what is in it).
     */
    record ListHandle(Object list, long[] elements) {}

    /** An {@code aclOpExecutor*}: the layer-1 holder, and whether it may run more than once. */
    static final class ExecutorHandle {
        final AclOpExecutor holder;
        volatile boolean repeatable;

        ExecutorHandle(AclOpExecutor holder) {
            this.holder = holder;
        }
    }

    private Handles() {}

    /** A new handle for {@code object}; null gives 0, the C null pointer. */
    static long register(Object object) {
        if (object == null) {
            return 0;
        }
        long handle = TAG | (NEXT.incrementAndGet() << 4);
        LIVE.put(handle, object);
        return handle;
    }

    /**
     * The handle of the context {@code holder} holds: the one C already has for it (from
     * aclrtCreateContext or an earlier call), else a new one (the default context aclrtSetDevice
     * made has none until it is asked for).
     */
    static synchronized long contextHandle(AclrtContext holder) {
        for (Map.Entry<Long, Object> e : LIVE.entrySet()) {
            if (holder.equals(e.getValue())) {
                return e.getKey();
            }
        }
        return register(holder);
    }

    /** Forgets {@code handle}, whatever it stands for. */
    static void release(long handle) {
        LIVE.remove(handle);
    }

    /** Forgets {@code handle} if it still stands for {@code object}. */
    static void release(long handle, Object object) {
        LIVE.remove(handle, object);
    }

    /**
     * The object of {@code type} that {@code handle} stands for; null for the C null pointer.
     * Anything else is rejected with {@code status}, naming the function and the argument.
     */
    static <T> T find(long handle, Class<T> type, int status, String function, String argument) {
        if (handle == 0) {
            return null;
        }
        Object object = LIVE.get(handle);
        if (!type.isInstance(object)) {
            String where = function + ": " + argument + " (0x" + Long.toHexString(handle) + ") is ";
            if (object != null) {
                throw new Rejected(status, where + "an " + C_NAMES.get(object.getClass()) + ", not an "
                        + C_NAMES.get(type));
            }
            throw new Rejected(status, where + "not a live " + C_NAMES.get(type) + (type == ExecutorHandle.class
                    ? " (already run: an executor is single-use unless aclSetAclOpExecutorRepeatable was called;"
                            + " or destroyed, or not from a GetWorkspaceSize call)"
                    : " (not made by aclnn4j, or already destroyed)"));
        }
        return type.cast(object);
    }
}
