package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclError.ACL_ERROR_BAD_ALLOC;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.*;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.checks.DeviceArena;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SPEC §2: aclrtMalloc / Free / MallocHost / FreeHost / Memcpy / Memset, their bounds and their codes. */
class MemoryApiTest {
    private static final int INVALID = ACL_ERROR_INVALID_PARAM;

    @BeforeEach
    void init() {
        io.github.aclnn4j.testing.TestDevice.init();
    }

    private static Pointer malloc(long size) {
        Pointer p = new Pointer();
        Calls.ok("aclrtMalloc(" + size + ")", () -> AclRt.malloc(p, size, ACL_MEM_MALLOC_HUGE_FIRST));
        return p;
    }

    private static void free(Pointer p) {
        Calls.ok("aclrtFree", () -> AclRt.free(p));
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void mallocOfNoBytesIsInvalid(long size) {
        Pointer p = new Pointer();
        Calls.fails(INVALID, "aclrtMalloc", "aclrtMalloc(" + size + ")", () -> AclRt.malloc(p, size,
                ACL_MEM_MALLOC_HUGE_FIRST));
        assertTrue(p.isNull(), "a failed malloc filled the pointer");
    }

    @ParameterizedTest
    @ValueSource(longs = {1L << 50, Long.MAX_VALUE})
    void hugeMallocIsBadAlloc(long size) {
        Pointer p = new Pointer();
        Calls.fails(ACL_ERROR_BAD_ALLOC, "aclrtMalloc", "aclrtMalloc(" + size + ")", () -> AclRt.malloc(p, size,
                ACL_MEM_MALLOC_HUGE_FIRST));
        assertTrue(p.isNull(), "a failed malloc filled the pointer");
        free(malloc(1024));
    }

    @Test
    void mallocArguments() {
        Calls.fails(INVALID, "aclrtMalloc", "aclrtMalloc(null)",
                () -> AclRt.malloc(null, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        Calls.fails(INVALID, "aclrtMalloc", "aclrtMalloc(policy 3)", () -> AclRt.malloc(new Pointer(), 64, 3));
        Calls.fails(INVALID, "aclrtMalloc", "aclrtMalloc(policy -1)", () -> AclRt.malloc(new Pointer(), 64, -1));
        for (int policy : new int[] {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY}) {
            Pointer p = new Pointer();
            Calls.ok("aclrtMalloc(policy " + policy + ")", () -> AclRt.malloc(p, 100, policy));
            assertFalse(p.isNull());
            free(p);
        }
    }

    @Test
    void deviceMemoryIsAligned() {
        Random random = new Random(11);
        for (int i = 0; i < 32; i++) {
            long size = 1 + random.nextInt(5000);
            Pointer p = malloc(size);
            assertEquals(0, p.address() % 64, "aclrtMalloc(" + size + ") at 0x" + Long.toHexString(p.address()));
            free(p);
        }
    }

    @Test
    void freeMisuse() {
        Pointer p = malloc(128);
        Calls.fails(INVALID, "aclrtFree", "aclrtFree of an interior pointer", () -> AclRt.free(p.withByteOffset(64)));
        free(p);
        Calls.fails(INVALID, "aclrtFree", "second aclrtFree", () -> AclRt.free(p));
        Calls.fails(INVALID, "aclrtFree", "aclrtFree(null)", () -> AclRt.free(null));
        Calls.fails(INVALID, "aclrtFree", "aclrtFree(null pointer)", () -> AclRt.free(new Pointer()));
        Calls.fails(INVALID, "aclrtFree", "aclrtFree of a Java array", () -> AclRt.free(Pointer.to(new float[4])));
        Pointer host = new Pointer();
        Calls.ok("aclrtMallocHost", () -> AclRt.mallocHost(host, 64));
        Calls.fails(INVALID, "aclrtFree", "aclrtFree of aclrtMallocHost memory", () -> AclRt.free(host));
        Calls.ok("aclrtFreeHost", () -> AclRt.freeHost(host));
    }

    @Test
    void hostMemory() {
        Calls.fails(INVALID, "aclrtMallocHost", "aclrtMallocHost(0)", () -> AclRt.mallocHost(new Pointer(), 0));
        Calls.fails(INVALID, "aclrtMallocHost", "aclrtMallocHost(null)", () -> AclRt.mallocHost(null, 64));
        Pointer host = new Pointer();
        Calls.ok("aclrtMallocHost", () -> AclRt.mallocHost(host, 256));
        Pointer dev = malloc(256);
        byte[] data = randomBytes(256, 3);
        Calls.ok("H2H into host memory", () -> AclRt.memcpy(host, 256, Pointer.to(data), 256, ACL_MEMCPY_HOST_TO_HOST));
        Calls.ok("H2D from host memory", () -> AclRt.memcpy(dev, 256, host, 256, ACL_MEMCPY_HOST_TO_DEVICE));
        assertArrayEquals(data, DeviceArena.readBytes(dev, 256));
        Calls.fails(INVALID, "aclrtFreeHost", "aclrtFreeHost of device memory", () -> AclRt.freeHost(dev));
        Calls.fails(INVALID, "aclrtFreeHost", "aclrtFreeHost of a Java array", () -> AclRt.freeHost(Pointer.to(data)));
        Calls.fails(INVALID, "aclrtFreeHost", "aclrtFreeHost of an interior pointer",
                () -> AclRt.freeHost(host.withByteOffset(8)));
        Calls.ok("aclrtFreeHost", () -> AclRt.freeHost(host));
        Calls.fails(INVALID, "aclrtFreeHost", "second aclrtFreeHost", () -> AclRt.freeHost(host));
        Calls.fails(INVALID, "aclrtMemcpy", "copy from freed host memory",
                () -> AclRt.memcpy(dev, 256, host, 256, ACL_MEMCPY_HOST_TO_DEVICE));
        free(dev);
    }

    @Test
    void memcpyInEveryDirection() {
        byte[] data = randomBytes(1000, 5);
        Pointer a = malloc(1000);
        Pointer b = malloc(1000);
        byte[] hostCopy = new byte[1000];
        Calls.ok("H2D", () -> AclRt.memcpy(a, 1000, Pointer.to(data), 1000, ACL_MEMCPY_HOST_TO_DEVICE));
        Calls.ok("D2D", () -> AclRt.memcpy(b, 1000, a, 1000, ACL_MEMCPY_DEVICE_TO_DEVICE));
        Calls.ok("D2H", () -> AclRt.memcpy(Pointer.to(hostCopy), 1000, b, 1000, ACL_MEMCPY_DEVICE_TO_HOST));
        assertArrayEquals(data, hostCopy);
        byte[] hostCopy2 = new byte[1000];
        Calls.ok("H2H", () -> AclRt.memcpy(Pointer.to(hostCopy2), 1000, Pointer.to(hostCopy), 1000,
                ACL_MEMCPY_HOST_TO_HOST));
        assertArrayEquals(data, hostCopy2);
        // DEFAULT: the runtime works out the direction from the pointers
        byte[] other = randomBytes(1000, 6);
        Calls.ok("DEFAULT host to device", () -> AclRt.memcpy(a, 1000, Pointer.to(other), 1000, ACL_MEMCPY_DEFAULT));
        Calls.ok("DEFAULT device to device", () -> AclRt.memcpy(b, 1000, a, 1000, ACL_MEMCPY_DEFAULT));
        byte[] back = new byte[1000];
        Calls.ok("DEFAULT device to host", () -> AclRt.memcpy(Pointer.to(back), 1000, b, 1000, ACL_MEMCPY_DEFAULT));
        assertArrayEquals(other, back);
        byte[] back2 = new byte[1000];
        Calls.ok("DEFAULT host to host", () -> AclRt.memcpy(Pointer.to(back2), 1000, Pointer.to(back), 1000,
                ACL_MEMCPY_DEFAULT));
        assertArrayEquals(other, back2);
        // interior pointers, a segment as host memory
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(100);
            Calls.ok("D2H into a segment", () -> AclRt.memcpy(Pointer.to(seg).withByteOffset(10), 90,
                    b.withByteOffset(500), 90, ACL_MEMCPY_DEVICE_TO_HOST));
            byte[] got = seg.asSlice(10, 90).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            assertArrayEquals(Arrays.copyOfRange(other, 500, 590), got);
        }
        free(a);
        free(b);
    }

    @Test
    void memcpyOutOfBoundsIsInvalidAndWritesNothing() {
        Pointer dev = malloc(64);
        byte[] pattern = randomBytes(64, 7);
        Calls.ok("H2D", () -> AclRt.memcpy(dev, 64, Pointer.to(pattern), 64, ACL_MEMCPY_HOST_TO_DEVICE));
        byte[] big = randomBytes(256, 8);
        byte[] small = new byte[16];
        Object[][] cases = {
            {"count > destMax", dev, 32L, Pointer.to(big), 64L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"past the end of dst (destMax lies)", dev, 256L, Pointer.to(big), 128L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"dst near its end", dev.withByteOffset(60), 8L, Pointer.to(big), 8L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"dst before its start", dev.withByteOffset(-4), 8L, Pointer.to(big), 8L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"past the end of src", dev, 64L, Pointer.to(small), 32L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"src before its start", dev, 64L, Pointer.to(big).withByteOffset(-1), 8L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"negative count", dev, 64L, Pointer.to(big), -1L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"past host dst", Pointer.to(small), 64L, dev, 64L, ACL_MEMCPY_DEVICE_TO_HOST},
            {"H2D into host memory", Pointer.to(small), 16L, Pointer.to(big), 16L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"H2D from device memory", dev, 64L, dev.withByteOffset(0), 16L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"D2H from host memory", Pointer.to(small), 16L, Pointer.to(big), 16L, ACL_MEMCPY_DEVICE_TO_HOST},
            {"D2H into device memory", dev, 64L, dev, 16L, ACL_MEMCPY_DEVICE_TO_HOST},
            {"D2D from host memory", dev, 64L, Pointer.to(big), 16L, ACL_MEMCPY_DEVICE_TO_DEVICE},
            {"H2H into device memory", dev, 64L, Pointer.to(big), 16L, ACL_MEMCPY_HOST_TO_HOST},
            {"kind 5", dev, 64L, Pointer.to(big), 16L, 5},
            {"kind -1", dev, 64L, Pointer.to(big), 16L, -1},
            {"null dst", null, 64L, Pointer.to(big), 16L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"null-pointer dst", new Pointer(), 64L, Pointer.to(big), 16L, ACL_MEMCPY_HOST_TO_DEVICE},
            {"null src", dev, 64L, null, 16L, ACL_MEMCPY_HOST_TO_DEVICE},
        };
        for (Object[] c : cases) {
            Calls.fails(INVALID, "aclrtMemcpy", "aclrtMemcpy " + c[0], () -> AclRt.memcpy((Pointer) c[1], (long) c[2],
                    (Pointer) c[3], (long) c[4], (int) c[5]));
            assertArrayEquals(pattern, DeviceArena.readBytes(dev, 64), "aclrtMemcpy " + c[0] + " wrote the buffer");
            assertArrayEquals(new byte[16], small, "aclrtMemcpy " + c[0] + " wrote the host array");
        }
        Pointer freed = malloc(64);
        free(freed);
        Calls.fails(INVALID, "aclrtMemcpy", "copy into freed memory",
                () -> AclRt.memcpy(freed, 64, Pointer.to(big), 64, ACL_MEMCPY_HOST_TO_DEVICE));
        Calls.fails(INVALID, "aclrtMemcpy", "copy from freed memory",
                () -> AclRt.memcpy(dev, 64, freed, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
        free(dev);
    }

    @Test
    void memsetAndItsBounds() {
        Pointer dev = malloc(64);
        Calls.ok("aclrtMemset", () -> AclRt.memset(dev.withByteOffset(8), 56, 0xAB, 16));
        byte[] expected = new byte[64];
        Arrays.fill(expected, 8, 24, (byte) 0xAB);
        assertArrayEquals(expected, DeviceArena.readBytes(dev, 64));
        Calls.fails(INVALID, "aclrtMemset", "count > maxCount", () -> AclRt.memset(dev, 16, 1, 32));
        Calls.fails(INVALID, "aclrtMemset", "past the end (maxCount lies)", () -> AclRt.memset(dev, 128, 1, 65));
        Calls.fails(INVALID, "aclrtMemset", "near the end", () -> AclRt.memset(dev.withByteOffset(60), 8, 1, 8));
        Calls.fails(INVALID, "aclrtMemset", "before the start", () -> AclRt.memset(dev.withByteOffset(-1), 8, 1, 8));
        Calls.fails(INVALID, "aclrtMemset", "null", () -> AclRt.memset(null, 8, 1, 8));
        assertArrayEquals(expected, DeviceArena.readBytes(dev, 64), "a refused memset wrote the buffer");
        Calls.ok("aclrtMemset whole", () -> AclRt.memset(dev, 64, 0, 64));
        assertArrayEquals(new byte[64], DeviceArena.readBytes(dev, 64));
        free(dev);
        Calls.fails(INVALID, "aclrtMemset", "memset of freed memory", () -> AclRt.memset(dev, 64, 1, 64));
    }
}
