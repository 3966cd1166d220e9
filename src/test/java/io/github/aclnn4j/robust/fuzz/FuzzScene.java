package io.github.aclnn4j.robust.fuzz;

import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory of one fuzzed call: device buffers (live or already freed), host arrays, and the
 * tensors and streams made over them, all released by {@link #close()}, which also checks that
 * the device has exactly as many bytes in use as before the call. Snapshots of every live buffer
 * let a property say which bytes a call may have written.
 */
final class FuzzScene implements AutoCloseable {
    /** A region a pointer can point into. Host buffers are Java arrays, read and compared directly. */
    static final class Buffer {
        final Pointer base;
        final long bytes;
        final byte[] host; // null for device memory
        boolean freed;

        private Buffer(Pointer base, long bytes, byte[] host) {
            this.base = base;
            this.bytes = bytes;
            this.host = host;
        }
    }

    /** Bytes [start, end) of a buffer that a call may write. */
    record Region(Buffer buffer, long start, long end) {}

    final FuzzedDataProvider data;
    private final long usedBefore;
    private final List<Buffer> buffers = new ArrayList<>();
    private final List<AclTensor> tensors = new ArrayList<>();
    private final List<AclrtStream> streams = new ArrayList<>();

    FuzzScene(FuzzedDataProvider data) {
        TestDevice.init();
        this.data = data;
        this.usedBefore = AclRuntime.usedDeviceBytes(0);
    }

    /** Device memory of {@code bytes} bytes (at least 1) holding {@code content} from its start. */
    Buffer device(long bytes, byte[] content) {
        Pointer p = new Pointer();
        check("aclrtMalloc", AclRt.malloc(p, Math.max(1, bytes), ACL_MEM_MALLOC_HUGE_FIRST));
        Buffer b = new Buffer(p, Math.max(1, bytes), null);
        buffers.add(b);
        int n = (int) Math.min(content.length, b.bytes);
        if (n > 0) {
            check("aclrtMemcpy", AclRt.memcpy(p, b.bytes, Pointer.to(content), n, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        return b;
    }

    /** Device memory that has already been freed: its pointer dangles. */
    Buffer dangling(long bytes) {
        Buffer b = device(bytes, new byte[0]);
        check("aclrtFree", AclRt.free(b.base));
        b.freed = true;
        return b;
    }

    /** A Java array as host memory: a pointer the operators must not mistake for device memory. */
    Buffer host(int bytes, byte[] content) {
        byte[] array = Arrays.copyOf(content, Math.max(1, bytes));
        Buffer b = new Buffer(Pointer.to(array), array.length, array);
        buffers.add(b);
        return b;
    }

    /** Frees a live device buffer now (memory freed between the phases). */
    void free(Buffer b) {
        if (b.host == null && !b.freed) {
            check("aclrtFree", AclRt.free(b.base));
            b.freed = true;
        }
    }

    AclTensor keep(AclTensor t) {
        if (t != null) {
            tensors.add(t);
        }
        return t;
    }

    AclrtStream stream() {
        AclrtStream s = new AclrtStream();
        check("aclrtCreateStream", AclRt.createStream(s));
        streams.add(s);
        return s;
    }

    /** The bytes of every live buffer now. */
    Map<Buffer, byte[]> snapshot() {
        Map<Buffer, byte[]> snap = new IdentityHashMap<>();
        for (Buffer b : buffers) {
            if (!b.freed) {
                snap.put(b, read(b));
            }
        }
        return snap;
    }

    /** Every byte that changed since {@code before} lies in one of {@code allowed}. */
    void assertWrittenOnlyIn(Map<Buffer, byte[]> before, List<Region> allowed, String what) {
        for (Map.Entry<Buffer, byte[]> e : before.entrySet()) {
            Buffer b = e.getKey();
            if (b.freed) {
                continue;
            }
            byte[] was = e.getValue();
            byte[] now = read(b);
            for (int i = Arrays.mismatch(was, now); i >= 0 && i < was.length; ) {
                Region r = regionAt(allowed, b, i);
                if (r == null) {
                    throw new AssertionError(what + ": byte " + i + " of a " + b.bytes + "-byte "
                            + (b.host == null ? "device" : "host") + " buffer was written (0x"
                            + Integer.toHexString(was[i] & 0xFF) + " -> 0x" + Integer.toHexString(now[i] & 0xFF)
                            + ") outside every output view " + allowed);
                }
                int from = (int) Math.min(r.end, was.length);
                int next = Arrays.mismatch(was, from, was.length, now, from, now.length);
                i = next < 0 ? -1 : from + next;
            }
        }
    }

    private static Region regionAt(List<Region> allowed, Buffer b, long at) {
        for (Region r : allowed) {
            if (r.buffer == b && at >= r.start && at < r.end) {
                return r;
            }
        }
        return null;
    }

    private static byte[] read(Buffer b) {
        if (b.host != null) {
            return b.host.clone();
        }
        byte[] out = new byte[(int) b.bytes];
        check("aclrtMemcpy", AclRt.memcpy(Pointer.to(out), out.length, b.base, out.length, ACL_MEMCPY_DEVICE_TO_HOST));
        return out;
    }

    private static void check(String call, int status) {
        if (status != 0) {
            throw new AssertionError(call + " failed in the fuzz harness: " + status + " " + Acl.getRecentErrMsg());
        }
    }

    /** Waits for the streams, releases everything, and checks that no device memory was left behind. */
    @Override
    public void close() {
        for (AclrtStream s : streams) {
            AclRt.destroyStream(s);
        }
        for (AclTensor t : tensors) {
            Acl.destroyTensor(t);
        }
        for (Buffer b : buffers) {
            free(b);
        }
        Acl.getRecentErrMsg();
        long used = AclRuntime.usedDeviceBytes(0);
        if (used != usedBefore) {
            throw new AssertionError("device memory in use went from " + usedBefore + " to " + used + " bytes");
        }
    }
}
