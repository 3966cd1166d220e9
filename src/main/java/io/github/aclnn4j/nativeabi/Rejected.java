package io.github.aclnn4j.nativeabi;

/**
 * A call the bridge refuses before it reaches layer 1, because an argument is a handle or address
 * it does not know. {@link Bridge} turns it into the status code and the recent error message.
 */
final class Rejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int status;

    Rejected(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }
}
