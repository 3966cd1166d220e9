package io.github.aclnn4j.runtime;

/** An {@code aclrtContext}: binds a thread to a device. */
public final class Context {
    private final int deviceId;
    private volatile boolean destroyed;
    /** aclrtCtxSetSysParamOpt's values, by option. */
    private final long[] params = new long[SystemParams.CONTEXT_OPTIONS];

    Context(int deviceId) {
        this.deviceId = deviceId;
    }

    public int deviceId() {
        return deviceId;
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    synchronized void setParam(int option, long value) {
        params[option] = value;
    }

    synchronized long param(int option) {
        return params[option];
    }

    void destroy() {
        destroyed = true;
    }
}
