package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_UNINITIALIZE;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_DEVICE;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_INVALID;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_RUNTIME_ERROR;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Use after free: freed device memory, destroyed tensors and handles of a finalized runtime give an
 * error status, never a crash, and never a silent read or write, not even when the allocator has
 * handed the same address to a new, live allocation.
 */
class UseAfterFreeTest {
    private static final int N = 1024;
    private static final long BYTES = N * 4L;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    @Test
    void aFreedPointerNeverReachesTheMemoryThatReusesItsAddress() {
        Pointer old = TestDevice.malloc(BYTES);
        long address = old.address();
        AclTensor overOld = vector(old);
        TestDevice.free(old);
        List<Pointer> fresh = new ArrayList<>();
        Pointer reused = null;
        for (int i = 0; i < 64 && reused == null; i++) { // the allocator usually hands the address back at once
            Pointer p = TestDevice.malloc(BYTES);
            fresh.add(p);
            if (p.address() == address) {
                reused = p;
            }
        }
        Pointer live = reused != null ? reused : fresh.get(0);
        float[] pattern = new float[N];
        Arrays.fill(pattern, 42.5f);
        assertEquals(0, AclRt.memcpy(live, BYTES, Pointer.to(pattern), BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
        try {
            float[] sink = new float[N];
            failsWith(ACL_ERROR_INVALID_PARAM, "points into freed memory", "aclrtMemcpy from freed memory", () -> AclRt.memcpy(Pointer.to(sink), BYTES, old,
                    BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
            assertArrayEquals(new float[N], sink, "aclrtMemcpy from freed memory read something");
            failsWith(ACL_ERROR_INVALID_PARAM, "points into freed memory", "aclrtMemcpy into freed memory", () -> AclRt.memcpy(old, BYTES,
                    Pointer.to(new float[N]), BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
            failsWith(ACL_ERROR_INVALID_PARAM, "points into freed memory", "aclrtMemcpy device to device from freed memory", () -> AclRt.memcpy(live,
                    BYTES, old, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE));
            failsWith(ACL_ERROR_INVALID_PARAM, "points into freed memory", "aclrtMemset of freed memory", () -> AclRt.memset(old, BYTES, 0, BYTES));
            failsWith(ACL_ERROR_INVALID_PARAM, "double free", "aclrtFree twice", () -> AclRt.free(old));
            // an operator over the freed memory: out (a fresh buffer) and the live reuse must stay untouched
            Pointer out = TestDevice.malloc(BYTES);
            fresh.add(out);
            failsWith(ACLNN_ERR_PARAM_INVALID, "self points into freed memory", "phase 1 with self over freed memory", () -> bceBackward(vector(live), overOld,
                    vector(live), vector(out)));
            failsWith(ACLNN_ERR_PARAM_INVALID, "out points into freed memory", "phase 1 with out over freed memory", () -> bceBackward(vector(live), vector(live),
                    vector(live), overOld));
            assertArrayEquals(new float[N], TestDevice.downloadFloats(out, N), "out was written");
            assertArrayEquals(pattern, TestDevice.downloadFloats(live, N),
                    "the memory that reuses the address changed");
        } finally {
            fresh.forEach(TestDevice::free);
            Acl.destroyTensor(overOld);
        }
    }

    @Test
    void destroyedTensorsAreRefused() {
        Pointer a = TestDevice.upload(new float[N]);
        Pointer out = TestDevice.malloc(BYTES);
        try {
            AclTensor self = vector(a);
            assertEquals(0, Acl.destroyTensor(self));
            failsWith(ACLNN_ERR_PARAM_INVALID, "self was destroyed", "phase 1 with a destroyed self", () -> bceBackward(vector(a), self, vector(a),
                    vector(out)));
            failsWith(ACLNN_ERR_PARAM_INVALID, "was destroyed", "aclGetViewShape of a destroyed tensor", () -> Acl.getViewShape(self,
                    new long[1][], new long[1]));
            failsWith(ACLNN_ERR_PARAM_INVALID, "already destroyed", "aclDestroyTensor twice", () -> Acl.destroyTensor(self));
            assertArrayEquals(new float[N], TestDevice.downloadFloats(out, N), "out was written");
        } finally {
            TestDevice.free(a);
            TestDevice.free(out);
        }
    }

    /**
     * Handles of a finalized runtime: an executor planned before aclFinalize, its tensors and stream,
     * and device pointers, are all refused after a new aclInit, even where new allocations take the
     * old addresses; and before the new aclInit, every call is refused too.
     */
    @Test
    void handlesOfAFinalizedRuntimeAreRefused() {
        Pointer in = TestDevice.upload(filled(0.25f));
        Pointer out = TestDevice.malloc(BYTES);
        AclTensor outTensor = vector(out);
        AclrtStream stream = new AclrtStream();
        assertEquals(0, AclRt.createStream(stream));
        AclOpExecutor planned = new AclOpExecutor();
        long[] size = new long[1];
        assertEquals(0, Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(vector(in), vector(in), vector(in), null, 0,
                outTensor, size, planned), Acl::getRecentErrMsg);
        List<Long> oldAddresses = List.of(in.address(), out.address());
        List<Pointer> fresh = new ArrayList<>();
        try {
            assertEquals(0, Acl.finalizeAcl(), Acl::getRecentErrMsg);
            failsWith(ACLNN_ERR_RUNTIME_ERROR, "aclInit has not been called", "phase 2 after aclFinalize",
                    () -> Aclnn.binaryCrossEntropyBackward(new Pointer(), 0, planned, null));
            failsWith(ACLNN_ERR_PARAM_INVALID, "points into freed memory", "phase 1 after aclFinalize", () -> bceBackward(vector(in), vector(in),
                    vector(in), outTensor));
            failsWith(ACL_ERROR_UNINITIALIZE, "aclInit has not been called", "aclrtMemcpy after aclFinalize", () -> AclRt.memcpy(Pointer.to(new float[N]),
                    BYTES, out, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
        } finally {
            TestDevice.init();
        }
        for (int i = 0; i < 16; i++) {
            Pointer p = TestDevice.malloc(BYTES);
            fresh.add(p);
            assertEquals(0, AclRt.memcpy(p, BYTES, Pointer.to(filled(7f)), BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        boolean reused = fresh.stream().anyMatch(p -> oldAddresses.contains(p.address()));
        try {
            failsWith(ACLNN_ERR_PARAM_INVALID, "was freed after phase 1", "phase 2 of an executor planned before aclFinalize",
                    () -> Aclnn.binaryCrossEntropyBackward(new Pointer(), 0, planned, null));
            assertEquals(0, AclRt.synchronizeStream(null), Acl::getRecentErrMsg);
            failsWith(ACLNN_ERR_PARAM_INVALID, "points into freed memory", "phase 1 with tensors of the finalized runtime", () -> bceBackward(vector(in),
                    vector(in), vector(in), outTensor));
            Pointer live = fresh.get(0);
            failsWith(ACLNN_ERR_PARAM_INVALID, "stream was destroyed", "phase 2 on a stream of the finalized runtime", () -> {
                AclOpExecutor e = new AclOpExecutor();
                long[] s = new long[1];
                assertEquals(0, Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(vector(live), vector(live),
                        vector(live), null, 0, vector(live), s, e), Acl::getRecentErrMsg);
                return Aclnn.binaryCrossEntropyBackward(new Pointer(), 0, e, stream);
            });
            failsWith(ACL_ERROR_INVALID_PARAM, "points into freed memory", "aclrtMemcpy from memory of the finalized runtime",
                    () -> AclRt.memcpy(Pointer.to(new float[N]), BYTES, out, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
            for (Pointer p : fresh) {
                assertArrayEquals(filled(7f), TestDevice.downloadFloats(p, N), "new memory "
                        + (reused ? "(some at the old addresses) " : "") + "was touched through old handles");
            }
        } finally {
            fresh.forEach(TestDevice::free);
        }
    }

    private static int bceBackward(AclTensor gradOutput, AclTensor self, AclTensor target, AclTensor out) {
        return Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(gradOutput, self, target, null, 0, out, new long[1],
                new AclOpExecutor());
    }

    private static AclTensor vector(Pointer data) {
        return Acl.createTensor(new long[] {N}, 1, ACL_FLOAT, null, 0, ACL_FORMAT_ND, new long[] {N}, 1, data);
    }

    private static float[] filled(float value) {
        float[] a = new float[N];
        Arrays.fill(a, value);
        return a;
    }

    /** The call returns {@code expected} (never throws) and leaves a message that says {@code saying}. */
    private static void failsWith(int expected, String saying, String what, IntSupplier call) {
        Calls.fails(expected, null, saying, what, call);
    }
}
