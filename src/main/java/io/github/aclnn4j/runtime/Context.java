package io.github.aclnn4j.runtime;

/** An {@code aclrtContext}: binds a thread to a device. */
public final class Context {
    private final int deviceId;
    private volatile boolean destroyed;

    Context(int deviceId) {
        this.deviceId = deviceId;
    }

    public int deviceId() {
        return deviceId;
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    void destroy() {
        destroyed = true;
    }
}
