package io.github.aclnn4j.acl;

import io.github.aclnn4j.runtime.ErrorLog;
import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;
import java.util.function.Supplier;

/**
 * The boundary of layer 1: runs a call, turns a {@link Failure} into its status code and recent
 * message, and turns anything unexpected into an internal-error code, so that no exception ever
 * reaches the caller.
 */
final class Guard {
    private Guard() {}

    /**
     * A call's body. The functions on a program's usual first path (aclInit, aclrtSetDevice, the
     * streams, aclrtMalloc/Free/Memcpy, tensors, arrays, executors) pass an anonymous class, not a
     * lambda: a JVM spins a class and method-handle forms for each lambda at its first call, about
     * 4 ms apiece before a program's first result; the others keep lambdas.
     */
    @FunctionalInterface
    interface Call {
        void run();
    }

    /** A runtime ({@code aclError}) call. */
    static int acl(String function, Call call) {
        return run(function, call, Status.ACL_INTERNAL_ERROR);
    }

    /** A tensor or operator ({@code aclnnStatus}) call. */
    static int aclnn(String function, Call call) {
        return run(function, call, Status.INNER);
    }

    private static int run(String function, Call call, int internalStatus) {
        try {
            call.run();
            return Status.SUCCESS;
        } catch (Throwable t) {
            return status(function, t, internalStatus);
        }
    }

    /**
     * The status for what a call threw, its message recorded: a {@link Failure}'s own, anything
     * else {@code internalStatus}. For calls that catch themselves rather than hand {@link #acl} a
     * capturing lambda, which would be allocated on every call (phase 2 and synchronize allocate
     * nothing).
     */
    static int status(String function, Throwable thrown, int internalStatus) {
        if (thrown instanceof Failure f) {
            ErrorLog.record(f.getMessage());
            return f.status();
        }
        ErrorLog.record(function + ": internal error: " + thrown);
        return internalStatus;
    }

    /** A call that makes a handle: null (and a recent message) on failure. */
    static <T> T make(String function, Supplier<T> maker) {
        try {
            return maker.get();
        } catch (Failure f) {
            ErrorLog.record(f.getMessage());
            return null;
        } catch (Throwable t) {
            ErrorLog.record(function + ": internal error: " + t);
            return null;
        }
    }

    static Failure nullArg(String function, String name) {
        return Status.nullptr(function + ": " + name + " must not be null");
    }
}
