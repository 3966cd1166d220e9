package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT16;
import static io.github.aclnn4j.acl.AclDataType.ACL_BF16;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_BAD_ALLOC;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_INVALID;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.testing.TestDevice;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Faults: allocation failure is ACL_ERROR_BAD_ALLOC with nothing half-made; a failing run (an NLL
 * target out of range) does not poison its stream; destroying a stream with queued work waits for
 * that work and returns its failure (docs/behaviour.md).
 */
class FaultTest {
    private static final int RUNTIME_ERROR = 361001;
    private static final int LARGE = 100_000;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    @Test
    void askingForMoreThanTheMachineHasIsBadAlloc() {
        long physical = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        long used = AclRuntime.usedDeviceBytes(0);
        for (long size : new long[] {physical + 1, 4 * physical, Long.MAX_VALUE}) {
            Pointer p = new Pointer();
            assertEquals(ACL_ERROR_BAD_ALLOC, AclRt.malloc(p, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc(" + size
                    + ")");
            assertNotNull(Acl.getRecentErrMsg(), "BAD_ALLOC without a message");
            assertTrue(p.isNull(), "a failed aclrtMalloc filled its pointer");
            assertEquals(used, AclRuntime.usedDeviceBytes(0), "a failed aclrtMalloc changed the memory in use");
        }
        // host memory has no capacity but the machine's: sizes no address space holds, so nothing is touched
        for (long size : new long[] {1L << 62, Long.MAX_VALUE}) {
            Pointer host = new Pointer();
            assertEquals(ACL_ERROR_BAD_ALLOC, AclRt.mallocHost(host, size), "aclrtMallocHost(" + size + ")");
            assertNotNull(Acl.getRecentErrMsg(), "BAD_ALLOC without a message");
            assertTrue(host.isNull(), "a failed aclrtMallocHost filled its pointer");
        }
    }

    /**
     * A device of 1 MiB ({@code -Daclnn4j.deviceMemoryBytes}, read at aclInit) filled up: the
     * allocation past the capacity fails cleanly, and once memory is freed, allocations and operators
     * work again.
     */
    @Test
    void aFullDeviceRefusesThenRecovers() {
        long capacity = 1 << 20;
        String before = System.getProperty("aclnn4j.deviceMemoryBytes");
        List<Pointer> blocks = new ArrayList<>();
        assertEquals(0, Acl.finalizeAcl(), Acl::getRecentErrMsg);
        System.setProperty("aclnn4j.deviceMemoryBytes", Long.toString(capacity));
        try {
            TestDevice.init();
            long block = 96 * 1024;
            while (true) {
                Pointer p = new Pointer();
                int status = AclRt.malloc(p, block, ACL_MEM_MALLOC_HUGE_FIRST);
                if (status != 0) {
                    assertEquals(ACL_ERROR_BAD_ALLOC, status, Acl::getRecentErrMsg);
                    Acl.getRecentErrMsg();
                    assertTrue(p.isNull(), "a failed aclrtMalloc filled its pointer");
                    break;
                }
                blocks.add(p);
                assertTrue(blocks.size() * block <= capacity, "more memory was handed out than the device has");
            }
            long used = AclRuntime.usedDeviceBytes(0);
            assertEquals(blocks.size() * block, used);
            Pointer rest = new Pointer();
            assertEquals(0, AclRt.malloc(rest, capacity - used, ACL_MEM_MALLOC_HUGE_FIRST), "the exact remainder");
            assertEquals(ACL_ERROR_BAD_ALLOC, AclRt.malloc(new Pointer(), 1, ACL_MEM_MALLOC_HUGE_FIRST),
                    "one byte more");
            Acl.getRecentErrMsg();
            blocks.add(rest);
            for (int i = 0; i < 6; i++) { // room for the workload below
                TestDevice.free(blocks.remove(blocks.size() - 1));
            }
            try (Workload w = new Workload(Workload.Op.GROUP_NORM_BACKWARD, ACL_FLOAT, 4000, 5, false)) {
                assertEquals(0, w.launch(null), Acl::getRecentErrMsg);
                assertEquals(0, AclRt.synchronizeStream(null), Acl::getRecentErrMsg);
            }
        } finally {
            blocks.forEach(TestDevice::free);
            Acl.finalizeAcl();
            if (before == null) {
                System.clearProperty("aclnn4j.deviceMemoryBytes");
            } else {
                System.setProperty("aclnn4j.deviceMemoryBytes", before);
            }
            TestDevice.init();
        }
    }

    /**
     * Good work before and after a failing NLL run on the same stream all runs: synchronize reports
     * the failure once (naming the bad row and value), every good result is what the call gives
     * alone, and the stream then keeps working.
     */
    @Test
    void aFailingRunDoesNotPoisonItsStream() {
        AclrtStream stream = newStream();
        try (Workload before = new Workload(Workload.Op.BCE_WITH_LOGITS, ACL_FLOAT16, LARGE, 7, false);
                Workload bad = Workload.badNllTarget(LARGE, 8);
                Workload after = new Workload(Workload.Op.PRELU_BACKWARD, ACL_BF16, LARGE, 9, true);
                Workload later = new Workload(Workload.Op.NLL_LOSS_BACKWARD, ACL_FLOAT, LARGE, 10, false)) {
            byte[][] beforeAlone = alone(before);
            byte[][] afterAlone = alone(after);
            byte[][] laterAlone = alone(later);
            assertEquals(0, before.launch(stream), Acl::getRecentErrMsg);
            assertEquals(0, bad.launch(stream), Acl::getRecentErrMsg);
            assertEquals(0, after.launch(stream), Acl::getRecentErrMsg);
            assertEquals(RUNTIME_ERROR, AclRt.synchronizeStream(stream));
            String message = Acl.getRecentErrMsg();
            long badRow = LARGE / 17 / 2;
            assertTrue(message != null && message.contains("aclnnNLLLossBackward") && message.contains("17")
                    && message.contains(Long.toString(badRow)), "the message should name the operator, row " + badRow
                    + " and value 17: " + message);
            assertOutputs(beforeAlone, before, "work queued before the failing run");
            assertOutputs(afterAlone, after, "work queued after the failing run");
            assertEquals(0, AclRt.synchronizeStream(stream), "the failure was reported a second time");
            assertEquals(0, later.launch(stream), Acl::getRecentErrMsg);
            assertEquals(0, AclRt.synchronizeStream(stream), Acl::getRecentErrMsg);
            assertOutputs(laterAlone, later, "work launched after the failure was reported");
        } finally {
            assertEquals(0, AclRt.destroyStream(stream), Acl::getRecentErrMsg);
        }
    }

    @Test
    void destroyingAStreamWaitsForItsWorkAndReturnsItsFailure() {
        try (Workload first = new Workload(Workload.Op.GROUP_NORM_BACKWARD, ACL_FLOAT, LARGE, 11, true);
                Workload bad = Workload.badNllTarget(LARGE, 12);
                Workload last = new Workload(Workload.Op.BCE_BACKWARD, ACL_FLOAT, LARGE, 13, false)) {
            byte[][] firstAlone = alone(first);
            byte[][] lastAlone = alone(last);

            AclrtStream healthy = newStream();
            assertEquals(0, first.launch(healthy), Acl::getRecentErrMsg);
            assertEquals(0, last.launch(healthy), Acl::getRecentErrMsg);
            assertEquals(0, AclRt.destroyStream(healthy), "destroying a stream whose work succeeds");
            assertOutputs(firstAlone, first, "work queued before aclrtDestroyStream");
            assertOutputs(lastAlone, last, "work queued before aclrtDestroyStream");

            AclrtStream failing = newStream();
            assertEquals(0, first.launch(failing), Acl::getRecentErrMsg);
            assertEquals(0, bad.launch(failing), Acl::getRecentErrMsg);
            assertEquals(0, last.launch(failing), Acl::getRecentErrMsg);
            Calls.fails(RUNTIME_ERROR, "aclnnNLLLossBackward", "is out of range", "aclrtDestroyStream of a stream "
                    + "whose queued work fails", () -> AclRt.destroyStream(failing));
            assertOutputs(firstAlone, first, "work queued before a failing run and aclrtDestroyStream");
            assertOutputs(lastAlone, last, "work queued after a failing run and before aclrtDestroyStream");

            Calls.fails(ACLNN_ERR_PARAM_INVALID, null, "stream was destroyed", "launching on a destroyed stream",
                    () -> last.launch(failing));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream", "stream was destroyed",
                    "synchronizing a destroyed stream", () -> AclRt.synchronizeStream(failing));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream", "already destroyed", "destroying a stream twice",
                    () -> AclRt.destroyStream(failing));
            first.retire();
            bad.retire();
            last.retire();
        }
    }

    /** The workload's outputs when it runs alone on the default stream; its outputs are then reset. */
    private static byte[][] alone(Workload w) {
        assertEquals(0, w.launch(null), Acl::getRecentErrMsg);
        assertEquals(0, AclRt.synchronizeStream(null), Acl::getRecentErrMsg);
        w.retire();
        byte[][] outputs = w.writtenOutputs();
        w.resetOutputs();
        return outputs;
    }

    private static void assertOutputs(byte[][] expected, Workload w, String what) {
        byte[][] got = w.outputs();
        for (int k = 0; k < got.length; k++) {
            assertArrayEquals(expected[k], got[k], what + ": output " + k + " of " + w + " is not its result alone");
        }
        w.resetOutputs();
    }

    private static AclrtStream newStream() {
        AclrtStream stream = new AclrtStream();
        assertEquals(0, AclRt.createStream(stream), Acl::getRecentErrMsg);
        return stream;
    }
}
