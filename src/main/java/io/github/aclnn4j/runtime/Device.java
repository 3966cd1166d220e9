package io.github.aclnn4j.runtime;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** One emulated device: its memory, its default stream and the streams created on it. */
final class Device {
    final int id;
    final DeviceMemory memory;
    private final Set<Stream> streams = Collections.newSetFromMap(new IdentityHashMap<>());
    private Stream defaultStream;

    Device(int id) {
        this.id = id;
        this.memory = new DeviceMemory(id);
    }

    synchronized Stream defaultStream() {
        if (defaultStream == null) {
            defaultStream = new Stream(id, true);
        }
        return defaultStream;
    }

    synchronized Stream createStream() {
        Stream s = new Stream(id, false);
        streams.add(s);
        return s;
    }

    synchronized boolean owns(Stream s) {
        return streams.contains(s);
    }

    Failure destroyStream(Stream s) {
        synchronized (this) {
            streams.remove(s);
        }
        return s.destroy();
    }

    /**
     * What memory freed now must wait for before another block may use it: the tasks queued so far
     * on the streams still running some; null when every stream is idle (the usual case: programs
     * free after they synchronize).
     */
    Fence fence() {
        Stream[] all;
        synchronized (this) {
            all = streams.toArray(new Stream[streams.size() + 1]);
            all[all.length - 1] = defaultStream;
        }
        return Fence.of(all);
    }

    /** Waits for every stream of this device; returns the first failure of their work, or null. */
    Failure synchronizeAll() {
        Stream[] all;
        synchronized (this) {
            all = streams.toArray(new Stream[streams.size() + 1]);
            all[all.length - 1] = defaultStream;
        }
        Failure first = null;
        for (Stream s : all) {
            Failure f = s == null ? null : s.synchronize();
            first = first == null ? f : first;
        }
        return first;
    }

    /** Finalize: drain and destroy every stream, free all memory. */
    void release() {
        Stream[] all;
        Stream d;
        synchronized (this) {
            all = streams.toArray(Stream[]::new);
            streams.clear();
            d = defaultStream;
            defaultStream = null;
        }
        for (Stream s : all) {
            s.destroy();
        }
        if (d != null) {
            d.destroy();
        }
        memory.freeAll();
    }
}
