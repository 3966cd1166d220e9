package io.github.aclnn4j.nativeabi;

import io.github.aclnn4j.runtime.ErrorLog;

/**
 * What the C side calls when an entry threw. The entries are called through JNI rather than
 * through FFM upcall stubs: per call the two cost the same (about 0.05 to 0.2 us), but the first
 * upcall stub of a JVM costs 150 ms or more to make, and each further C function's stub
 * milliseconds, all at start-up; and an exception that reaches an upcall stub ends the JVM,
 * while under JNI it is a pending exception that the C side hands to {@link #failed}.
 */
final class Bridge {
    private Bridge() {}

    /**
     * Records the message of {@code thrown}, which the entry named by the C string at
     * {@code function} threw, for aclGetRecentErrMsg; returns the status its C function gives: a
     * {@link Rejected}'s own, else {@code internalStatus}.
     */
    static int failed(Throwable thrown, long function, int internalStatus) {
        try {
            if (thrown instanceof Rejected r) {
                ErrorLog.record(r.getMessage());
                return r.status;
            }
            ErrorLog.record(NativeMemory.trustedString(function) + ": internal error in the aclnn4j C bridge: " + thrown);
        } catch (Throwable ignored) { // the status still tells, and nothing may be left pending
        }
        return internalStatus;
    }
}
