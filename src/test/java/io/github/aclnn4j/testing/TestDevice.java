package io.github.aclnn4j.testing;

import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclError;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.Pointer;

/**
 * Shared set-up for tests that use layer 1: the runtime is initialised once per JVM (a test that
 * calls aclFinalize must call {@link #init()} again before it returns), plus device buffers
 * filled from and read back into Java arrays.
 */
public final class TestDevice {
    private TestDevice() {}

    /** aclInit + aclrtSetDevice(0) on this thread, tolerating an earlier aclInit. */
    public static synchronized void init() {
        int ret = Acl.init(null);
        if (ret != AclError.ACL_SUCCESS && ret != AclError.ACL_ERROR_REPEAT_INITIALIZE) {
            throw new AssertionError("aclInit failed: " + ret + " " + Acl.getRecentErrMsg());
        }
        assertEquals(0, AclRt.setDevice(0), () -> "aclrtSetDevice: " + Acl.getRecentErrMsg());
    }

    /** A device buffer of {@code bytes} bytes (at least 1), zero-filled. */
    public static Pointer malloc(long bytes) {
        Pointer p = new Pointer();
        int ret = AclRt.malloc(p, Math.max(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST);
        assertEquals(0, ret, () -> "aclrtMalloc: " + Acl.getRecentErrMsg());
        return p;
    }

    public static Pointer upload(float[] host) {
        Pointer p = malloc(host.length * 4L);
        copy(p, Pointer.to(host), host.length * 4L, ACL_MEMCPY_HOST_TO_DEVICE);
        return p;
    }

    public static Pointer upload(short[] host) {
        Pointer p = malloc(host.length * 2L);
        copy(p, Pointer.to(host), host.length * 2L, ACL_MEMCPY_HOST_TO_DEVICE);
        return p;
    }

    public static Pointer upload(long[] host) {
        Pointer p = malloc(host.length * 8L);
        copy(p, Pointer.to(host), host.length * 8L, ACL_MEMCPY_HOST_TO_DEVICE);
        return p;
    }

    public static Pointer upload(int[] host) {
        Pointer p = malloc(host.length * 4L);
        copy(p, Pointer.to(host), host.length * 4L, ACL_MEMCPY_HOST_TO_DEVICE);
        return p;
    }

    public static Pointer upload(byte[] host) {
        Pointer p = malloc(host.length);
        copy(p, Pointer.to(host), host.length, ACL_MEMCPY_HOST_TO_DEVICE);
        return p;
    }

    public static float[] downloadFloats(Pointer dev, int count) {
        float[] out = new float[count];
        copy(Pointer.to(out), dev, count * 4L, ACL_MEMCPY_DEVICE_TO_HOST);
        return out;
    }

    public static short[] downloadShorts(Pointer dev, int count) {
        short[] out = new short[count];
        copy(Pointer.to(out), dev, count * 2L, ACL_MEMCPY_DEVICE_TO_HOST);
        return out;
    }

    private static void copy(Pointer dst, Pointer src, long bytes, int kind) {
        if (bytes == 0) {
            return;
        }
        int ret = AclRt.memcpy(dst, bytes, src, bytes, kind);
        assertEquals(0, ret, () -> "aclrtMemcpy: " + Acl.getRecentErrMsg());
    }

    public static void free(Pointer p) {
        assertEquals(0, AclRt.free(p), () -> "aclrtFree: " + Acl.getRecentErrMsg());
    }
}
