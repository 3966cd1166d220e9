package io.github.aclnn4j.runtime;

/**
 * The per-thread message behind {@code aclGetRecentErrMsg}: the last failure of a call made on
 * this thread. A failure replaces it, a success leaves it, reading it clears it.
 */
public final class ErrorLog {
    private static final ThreadLocal<String> RECENT = new ThreadLocal<>();

    private ErrorLog() {}

    public static void record(String message) {
        RECENT.set(message == null || message.isEmpty() ? "unknown error" : message);
    }

    /** The message of this thread's last failure, or null when there is none; clears it. */
    public static String take() {
        String message = RECENT.get();
        RECENT.remove();
        return message;
    }
}
