package io.github.aclnn4j.robust.fuzz;

import io.github.aclnn4j.acl.Acl;
import java.util.function.IntSupplier;

/** What the fuzzers of layer-1 calls share: a call's status (nothing may throw) and a property. */
final class FuzzCalls {
    private FuzzCalls() {}

    /** The status {@code call} returns, after clearing any stale recent message; a throw is a finding. */
    static int status(String what, IntSupplier call) {
        Acl.getRecentErrMsg();
        try {
            return call.getAsInt();
        } catch (Throwable t) {
            throw new AssertionError(what + " threw " + t, t);
        }
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
