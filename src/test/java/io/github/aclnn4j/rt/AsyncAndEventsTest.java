package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_COMPLETE;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_DEVICE;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtEvent;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.testing.TestDevice;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stream-ordered copies and fills beside operators, and events between streams, through layer 1
 * as a CANN program uses them. The work is BCE backward with self = 0.5 and target = 0, which
 * makes out = 2 · gradOutput exactly; 2^20 elements, so that it runs on a stream thread.
 */
class AsyncAndEventsTest {
    private static final int N = 1 << 20;
    private static final long BYTES = N * 4L;
    private final AclrtStream first = new AclrtStream();
    private final AclrtStream second = new AclrtStream();
    private Pointer self;
    private Pointer target;

    @BeforeEach
    void init() {
        TestDevice.init();
        Calls.ok("aclrtCreateStream", () -> AclRt.createStream(first));
        Calls.ok("aclrtCreateStream", () -> AclRt.createStream(second));
        float[] halves = new float[N];
        Arrays.fill(halves, 0.5f);
        self = TestDevice.upload(halves);
        target = TestDevice.malloc(BYTES);
    }

    @AfterEach
    void release() {
        Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(first));
        Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(second));
        TestDevice.free(self);
        TestDevice.free(target);
    }

    private static AclTensor vector(Pointer p) {
        long[] shape = {N};
        return Acl.createTensor(shape, 1, ACL_FLOAT, null, 0, ACL_FORMAT_ND, shape, 1, p);
    }

    /** Queues out = 2 · grad on {@code stream}. */
    private void doubling(Pointer grad, Pointer out, AclrtStream stream) {
        long[] size = new long[1];
        AclOpExecutor executor = new AclOpExecutor();
        Calls.ok("phase 1", () -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(vector(grad), vector(self),
                vector(target), null, 0, vector(out), size, executor));
        assertEquals(0, size[0]);
        Calls.ok("phase 2", () -> Aclnn.binaryCrossEntropyBackward(new Pointer(), 0, executor, stream));
    }

    private static float[] randoms(long seed) {
        Random random = new Random(seed);
        float[] values = new float[N];
        for (int i = 0; i < N; i++) {
            values[i] = random.nextFloat() * 4 - 2;
        }
        return values;
    }

    private static float[] doubled(float[] values) {
        float[] out = new float[values.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = 2 * values[i];
        }
        return out;
    }

    @Test
    void asyncCopyInOperatorAsyncCopyOutOneSynchronize() {
        float[] host = randoms(1);
        float[] back = new float[N];
        Pointer grad = TestDevice.malloc(BYTES);
        Pointer out = TestDevice.malloc(BYTES);
        try {
            Calls.ok("aclrtMemcpyAsync in", () -> AclRt.memcpyAsync(grad, BYTES, Pointer.to(host), BYTES,
                    ACL_MEMCPY_HOST_TO_DEVICE, first));
            doubling(grad, out, first);
            Calls.ok("aclrtMemcpyAsync out", () -> AclRt.memcpyAsync(Pointer.to(back), BYTES, out, BYTES,
                    ACL_MEMCPY_DEVICE_TO_HOST, first));
            Calls.ok("aclrtMemsetAsync", () -> AclRt.memsetAsync(out, BYTES, 0, BYTES, first));
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(first));
            assertArrayEquals(doubled(host), back, "the copy out ran after the operator, the operator after the copy in");
            assertArrayEquals(new float[N], TestDevice.downloadFloats(out, N), "the fill ran last");
        } finally {
            TestDevice.free(grad);
            TestDevice.free(out);
        }
    }

    @Test
    void anEventOrdersTwoStreamsWithoutTheHost() {
        float[] host = randoms(2);
        Pointer grad = TestDevice.upload(host);
        Pointer out = TestDevice.malloc(BYTES);
        Pointer copy = TestDevice.malloc(BYTES);
        AclrtEvent done = new AclrtEvent();
        Calls.ok("aclrtCreateEvent", () -> AclRt.createEvent(done));
        try {
            doubling(grad, out, first);
            doubling(out, out, first); // out = 4 · grad, twice the work before the record
            Calls.ok("aclrtRecordEvent", () -> AclRt.recordEvent(done, first));
            Calls.ok("aclrtStreamWaitEvent", () -> AclRt.streamWaitEvent(second, done));
            Calls.ok("aclrtMemcpyAsync", () -> AclRt.memcpyAsync(copy, BYTES, out, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE,
                    second));
            Calls.ok("aclrtSynchronizeStream(second)", () -> AclRt.synchronizeStream(second));
            assertArrayEquals(doubled(doubled(host)), TestDevice.downloadFloats(copy, N),
                    "the second stream copied before the first had finished");
            int[] status = new int[1];
            Calls.ok("aclrtQueryEventStatus", () -> AclRt.queryEventStatus(done, status));
            assertEquals(ACL_EVENT_RECORDED_STATUS_COMPLETE, status[0]);
        } finally {
            Calls.ok("aclrtSynchronizeStream(first)", () -> AclRt.synchronizeStream(first));
            Calls.ok("aclrtDestroyEvent", () -> AclRt.destroyEvent(done));
            TestDevice.free(grad);
            TestDevice.free(out);
            TestDevice.free(copy);
        }
    }

    @Test
    void elapsedTimeIsBetweenTwoRecords() {
        AclrtEvent start = new AclrtEvent();
        AclrtEvent end = new AclrtEvent();
        Calls.ok("aclrtCreateEvent", () -> AclRt.createEvent(start));
        Calls.ok("aclrtCreateEvent", () -> AclRt.createEvent(end));
        float[] ms = {-1};
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime", "never recorded", "before any record",
                () -> AclRt.eventElapsedTime(ms, start, end));
        Pointer grad = TestDevice.malloc(BYTES);
        Pointer out = TestDevice.malloc(BYTES);
        try {
            Calls.ok("aclrtRecordEvent", () -> AclRt.recordEvent(start, first));
            for (int i = 0; i < 4; i++) {
                doubling(grad, out, first);
            }
            Calls.ok("aclrtRecordEvent", () -> AclRt.recordEvent(end, first));
            Calls.ok("aclrtSynchronizeEvent", () -> AclRt.synchronizeEvent(end));
            Calls.ok("aclrtEventElapsedTime", () -> AclRt.eventElapsedTime(ms, start, end));
            assertTrue(ms[0] > 0, "elapsed " + ms[0] + " ms");
        } finally {
            Calls.ok("aclrtDestroyEvent", () -> AclRt.destroyEvent(start));
            Calls.ok("aclrtDestroyEvent", () -> AclRt.destroyEvent(end));
            TestDevice.free(grad);
            TestDevice.free(out);
        }
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent", "destroyed", "a destroyed event",
                () -> AclRt.recordEvent(start, first));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent", "destroyed", "destroyed twice",
                () -> AclRt.destroyEvent(start));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeEvent", "must not be null", "an empty holder",
                () -> AclRt.synchronizeEvent(new AclrtEvent()));
    }

    @Test
    void asyncCopiesAreCheckedWhenCalled() {
        Pointer dev = TestDevice.malloc(64);
        try {
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync", "exceeds destMax", "count > destMax",
                    () -> AclRt.memcpyAsync(dev, 32, Pointer.to(new float[16]), 64, ACL_MEMCPY_HOST_TO_DEVICE, first));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync", "lies outside", "past the block",
                    () -> AclRt.memcpyAsync(dev, 128, Pointer.to(new float[32]), 128, ACL_MEMCPY_HOST_TO_DEVICE, first));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync", "copy kind says", "a kind that lies",
                    () -> AclRt.memcpyAsync(dev, 64, Pointer.to(new float[16]), 64, ACL_MEMCPY_DEVICE_TO_DEVICE, first));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtMemsetAsync", "exceeds maxCount", "count > maxCount",
                    () -> AclRt.memsetAsync(dev, 8, 0, 64, first));
        } finally {
            TestDevice.free(dev);
        }
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtMemsetAsync", "freed memory", "a freed block",
                () -> AclRt.memsetAsync(dev, 64, 0, 64, first));
    }
}
