package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.*;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.checks.DeviceArena;
import io.github.aclnn4j.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * aclrtMalloc's huge-page policies: blocks of 2 MB and more start on a 2 MB boundary in a mapping
 * advised for huge pages (the {@code hg} flag of /proc/self/smaps), are zeroed, hold what is
 * written, and fail after aclrtFree like any block; NORMAL_ONLY and small blocks are not advised;
 * and without native access the library falls back to normal pages silently, with no JDK warning.
 * The suite runs with native access enabled, as the launcher does.
 */
@EnabledOnOs(OS.LINUX)
class HugePageMallocTest {
    private static final long HUGE = 2L << 20;

    @BeforeEach
    void init() {
        io.github.aclnn4j.testing.TestDevice.init();
    }

    private static Pointer malloc(long size, int policy) {
        Pointer p = new Pointer();
        Calls.ok("aclrtMalloc(" + size + ", policy " + policy + ")", () -> AclRt.malloc(p, size, policy));
        return p;
    }

    /** The VmFlags of the mapping that holds {@code address}, from /proc/self/smaps; empty when none does. */
    static List<String> vmFlags(long address) throws IOException {
        boolean inside = false;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+")) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = start <= address && address < end;
            } else if (inside && line.startsWith("VmFlags:")) {
                return List.of(line.substring("VmFlags:".length()).trim().split("\\s+"));
            }
        }
        return List.of();
    }

    @ParameterizedTest
    @ValueSource(ints = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY})
    void largeBlocksAreAdvisedHugePages(int policy) throws IOException {
        long size = 3 * HUGE + 12345; // not a whole number of huge pages
        Pointer p = malloc(size, policy);
        assertEquals(0, p.address() % HUGE, "a huge-page block at 0x" + Long.toHexString(p.address()));
        assertTrue(vmFlags(p.address()).contains("hg"), "MADV_HUGEPAGE not set: " + vmFlags(p.address()));
        assertTrue(vmFlags(p.address() + size - 1).contains("hg"), "the block's last byte is outside the advice");
        Calls.ok("aclrtFree", () -> AclRt.free(p));
    }

    @Test
    void normalOnlyAndSmallBlocksAreNotAdvised() throws IOException {
        Pointer normal = malloc(3 * HUGE, ACL_MEM_MALLOC_NORMAL_ONLY);
        Pointer small = malloc(HUGE - 64, ACL_MEM_MALLOC_HUGE_FIRST);
        assertFalse(vmFlags(normal.address()).contains("hg"), "NORMAL_ONLY: " + vmFlags(normal.address()));
        assertFalse(vmFlags(small.address()).contains("hg"), "under 2 MB: " + vmFlags(small.address()));
        Calls.ok("aclrtFree", () -> AclRt.free(normal));
        Calls.ok("aclrtFree", () -> AclRt.free(small));
    }

    @Test
    void hugePageBlocksAreZeroedHoldDataAndDieWithFree() {
        int size = (int) (2 * HUGE + 4096 + 7);
        Pointer p = malloc(size, ACL_MEM_MALLOC_HUGE_FIRST);
        assertArrayEquals(new byte[size], DeviceArena.readBytes(p, size), "fresh device memory is not zero");
        byte[] data = new byte[size];
        new Random(5).nextBytes(data);
        Calls.ok("H2D", () -> AclRt.memcpy(p, size, Pointer.to(data), size, ACL_MEMCPY_HOST_TO_DEVICE));
        Pointer q = malloc(size, ACL_MEM_MALLOC_HUGE_FIRST);
        Calls.ok("D2D", () -> AclRt.memcpy(q, size, p, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
        assertArrayEquals(data, DeviceArena.readBytes(q, size));
        Calls.ok("aclrtFree", () -> AclRt.free(p));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "copy from a freed huge-page block",
                () -> AclRt.memcpy(q, size, p, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
        Calls.ok("aclrtFree", () -> AclRt.free(q));
    }

    @Test
    void freedBlocksAreUnmapped() throws IOException {
        Pointer[] blocks = new Pointer[40];
        long[] addresses = new long[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = malloc(2 * HUGE, ACL_MEM_MALLOC_HUGE_FIRST);
            addresses[i] = blocks[i].address();
            Pointer block = blocks[i];
            Calls.ok("aclrtMemset", () -> AclRt.memset(block, 2 * HUGE, 0x5A, 2 * HUGE)); // make its pages
        }
        for (Pointer block : blocks) {
            Calls.ok("aclrtFree", () -> AclRt.free(block));
        }
        for (long address : addresses) {
            assertFalse(vmFlags(address).contains("hg"), "a freed block is still mapped at 0x" + Long.toHexString(address));
        }
    }

    @Test
    void withoutNativeAccessBlocksUseNormalPagesWithoutAWarning() throws Exception {
        String out = ChildJvm.runWithout("--enable-native-access", WithoutNativeAccess.class);
        assertTrue(out.contains("normal pages, 0x"), out);
        assertFalse(out.contains("restricted method"), "the JDK warned: " + out);
    }

    /** Child JVM: a 6 MB HUGE_FIRST block, and whether its mapping was advised. */
    public static final class WithoutNativeAccess {
        public static void main(String[] args) throws IOException {
            Acl.init(null);
            AclRt.setDevice(0);
            Pointer p = new Pointer();
            if (AclRt.malloc(p, 3 * HUGE, ACL_MEM_MALLOC_HUGE_FIRST) != 0) {
                throw new AssertionError(Acl.getRecentErrMsg());
            }
            System.out.println((vmFlags(p.address()).contains("hg") ? "huge" : "normal") + " pages, 0x"
                    + Long.toHexString(p.address()));
            AclRt.free(p);
            Acl.finalizeAcl();
        }
    }
}
