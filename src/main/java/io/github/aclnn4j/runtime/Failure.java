package io.github.aclnn4j.runtime;

/**
 * A documented failure on its way to a layer-1 return code: the status to return and the message
 * {@code aclGetRecentErrMsg} will give. Thrown below layer 1 and caught by the facade, which never
 * lets it escape. It carries no stack trace: failures are expected answers, not bugs.
 */
public final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public Failure(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
