package io.github.aclnn4j.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.aclnn4j.acl.Acl;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Calls into layer 1 for tests: layer 1 promises never to throw, so every call goes through here
 * and an escaping exception fails the test with the call that threw it. Each call starts from a
 * drained recent-error message, so the message read afterwards belongs to that call.
 */
public final class Calls {
    private Calls() {}

    /** The status returned by {@code call}, after clearing any stale recent-error message. */
    public static int status(String what, IntSupplier call) {
        Acl.getRecentErrMsg();
        try {
            return call.getAsInt();
        } catch (Throwable t) {
            return fail(what + " threw " + t + " (layer 1 must report failures by status, never throw)", t);
        }
    }

    /** The handle made by {@code call}, after clearing any stale recent-error message. */
    public static <T> T value(String what, Supplier<T> call) {
        Acl.getRecentErrMsg();
        try {
            return call.get();
        } catch (Throwable t) {
            return fail(what + " threw " + t + " (layer 1 must report failures by status, never throw)", t);
        }
    }

    /** {@code call} must succeed; on failure the recent message is shown. */
    public static void ok(String what, IntSupplier call) {
        int status = status(what, call);
        if (status != 0) {
            fail(what + " returned " + status + ": " + Acl.getRecentErrMsg());
        }
    }

    /**
     * {@code call} must fail with {@code expected} and leave a non-empty recent message that names
     * {@code function} (when not null); the message must be gone after one read. Returns it.
     */
    public static String fails(int expected, String function, String what, IntSupplier call) {
        int status = status(what, call);
        String message = Acl.getRecentErrMsg();
        assertEquals(expected, status, () -> what + ": expected status " + expected + ", got " + status
                + (status == 0 ? "" : " with message: " + message));
        checkMessage(message, function, what);
        return message;
    }

    /** As {@link #fails(int, String, String, IntSupplier)}, and the message must contain {@code saying}. */
    public static String fails(int expected, String function, String saying, String what, IntSupplier call) {
        String message = fails(expected, function, what, call);
        assertTrue(message.contains(saying), () -> what + ": message does not say \"" + saying + "\": " + message);
        return message;
    }

    private static void checkMessage(String message, String function, String what) {
        assertNotNull(message, () -> what + ": failed without a recent error message");
        assertFalse(message.isBlank(), () -> what + ": the recent error message is blank");
        if (function != null) {
            assertTrue(message.contains(function), () -> what + ": message does not name " + function + ": " + message);
        }
        assertNull(Acl.getRecentErrMsg(), () -> what + ": reading the recent error message did not clear it");
    }

    /**
     * Whether {@code message} names the parameter {@code name} as a word; for {@code xxxOptional}
     * the short name {@code xxx} also counts, since the documents use both.
     */
    public static boolean namesParameter(String message, String name) {
        if (Pattern.compile("\\b" + Pattern.quote(name) + "\\b").matcher(message).find()) {
            return true;
        }
        String shortName = name.endsWith("Optional") ? name.substring(0, name.length() - "Optional".length()) : null;
        return shortName != null && Pattern.compile("\\b" + Pattern.quote(shortName) + "\\b").matcher(message).find();
    }

    public static void assertNamesParameter(String message, String name) {
        assertTrue(namesParameter(message, name),
                () -> "the message does not name the parameter " + name + ": " + message);
    }

    /** Runs {@code body} with the SoC profile property set to {@code soc}, restoring the default afterwards. */
    public static void withSoc(String soc, Runnable body) {
        String before = System.getProperty("aclnn4j.soc");
        System.setProperty("aclnn4j.soc", soc);
        try {
            body.run();
        } finally {
            if (before == null) {
                System.clearProperty("aclnn4j.soc");
            } else {
                System.setProperty("aclnn4j.soc", before);
            }
        }
    }
}
