package io.github.aclnn4j.nn;

/**
 * A failure of a layer-2 call: the status layer 1 returned for the same call
 * ({@code 161001} a missing input, {@code 161002} an invalid one, {@code 361001} a failure while
 * running, {@code 1000xx} a runtime error, ...) and, as the message, layer 1's
 * {@code aclGetRecentErrMsg} text.
 */
public class AclnnException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    /** A failure with layer 1's {@code status} and {@code message}. */
    public AclnnException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The {@code aclnnStatus} or {@code aclError} of the failure. */
    public int status() {
        return status;
    }
}
