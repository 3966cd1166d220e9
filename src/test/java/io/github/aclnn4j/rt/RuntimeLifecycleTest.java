package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclError.*;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_RUNTIME_ERROR;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.checks.DeviceArena;
import io.github.aclnn4j.checks.OpArgs;
import io.github.aclnn4j.checks.Operator;
import io.github.aclnn4j.testing.TestDevice;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** SPEC §2: aclInit / aclFinalize, and the recent error message. */
class RuntimeLifecycleTest {

    @Test
    void secondInitIsRepeatInitializeAndHarmless() {
        TestDevice.init();
        Calls.fails(ACL_ERROR_REPEAT_INITIALIZE, "aclInit", "second aclInit", () -> Acl.init(null));
        Calls.fails(ACL_ERROR_REPEAT_INITIALIZE, "aclInit", "third aclInit", () -> Acl.init(""));
        try (DeviceArena arena = new DeviceArena()) {
            Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT).run(null);
        }
    }

    @Test
    void finalizeThenInitAgain() {
        TestDevice.init();
        Pointer before = TestDevice.malloc(64);
        AclrtStream stream = new AclrtStream();
        Calls.ok("aclrtCreateStream", () -> AclRt.createStream(stream));
        DeviceArena arena = new DeviceArena();
        OpArgs args = Operator.PRELU_BACKWARD.baseline(arena, ACL_FLOAT);
        long[] size = new long[1];
        AclOpExecutor queued = args.planned(size);
        AclOpExecutor notYetRun = args.planned(size);
        Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
        Calls.ok("launch", () -> Operator.PRELU_BACKWARD.launchGuarded(workspace, size[0], queued, stream));
        try {
            Calls.ok("aclFinalize with queued work", Acl::finalizeAcl);
            Calls.fails(ACL_ERROR_UNINITIALIZE, "aclFinalize", "second aclFinalize", Acl::finalizeAcl);
            Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtMalloc", "aclrtMalloc after aclFinalize",
                    () -> AclRt.malloc(new Pointer(), 64, ACL_MEM_MALLOC_HUGE_FIRST));
            Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtCreateStream", "aclrtCreateStream after aclFinalize",
                    () -> AclRt.createStream(new AclrtStream()));
            Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtSynchronizeStream", "aclrtSynchronizeStream after aclFinalize",
                    () -> AclRt.synchronizeStream(stream));
            Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtMemcpy", "aclrtMemcpy after aclFinalize",
                    () -> AclRt.memcpy(before, 64,
                    Pointer.to(new byte[64]), 64, ACL_MEMCPY_HOST_TO_DEVICE));
            Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceCount", "aclrtGetDeviceCount after aclFinalize",
                    () -> AclRt.getDeviceCount(new int[1]));
            Calls.fails(ACLNN_ERR_RUNTIME_ERROR, Operator.PRELU_BACKWARD.cName, "aclInit has not been called",
                    "phase 2 after aclFinalize",
                    () -> Operator.PRELU_BACKWARD.launchGuarded(workspace, size[0], notYetRun, null));
        } finally {
            TestDevice.init();
        }
        // memory and streams of the previous session are gone, and using them is an error, not a crash
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy", "aclrtMemcpy into memory of the finalized session",
                () -> AclRt.memcpy(before, 64,
                Pointer.to(new byte[64]), 64, ACL_MEMCPY_HOST_TO_DEVICE));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtFree", "aclrtFree of memory of the finalized session",
                () -> AclRt.free(before));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream",
                "aclrtSynchronizeStream of a stream of the finalized session",
                () -> AclRt.synchronizeStream(stream));
        arena.close();
        try (DeviceArena fresh = new DeviceArena()) {
            Operator.PRELU_BACKWARD.baseline(fresh, ACL_FLOAT).run(null);
        }
    }

    @Test
    void recentErrorMessageIsPerThreadAndReadOnce() throws InterruptedException {
        TestDevice.init();
        Acl.getRecentErrMsg();
        assertNull(Calls.value("aclGetRecentErrMsg", Acl::getRecentErrMsg), "no failure, no message");
        AtomicReference<String> otherThread = new AtomicReference<>();
        Thread t = new Thread(() -> {
            AclRt.malloc(new Pointer(), 0, ACL_MEM_MALLOC_HUGE_FIRST);
            otherThread.set(Acl.getRecentErrMsg());
        });
        t.start();
        t.join();
        assertNotNull(otherThread.get(), "the failing thread sees its message");
        assertNull(Acl.getRecentErrMsg(), "another thread's failure is not this thread's message");
        assertEquals(ACL_ERROR_INVALID_PARAM, Calls.status("aclrtMalloc", () -> AclRt.malloc(new Pointer(), 0,
                ACL_MEM_MALLOC_HUGE_FIRST)));
        assertNotNull(Acl.getRecentErrMsg());
        assertNull(Acl.getRecentErrMsg());
    }
}
