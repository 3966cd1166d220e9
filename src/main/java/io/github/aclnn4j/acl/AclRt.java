package io.github.aclnn4j.acl;

import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.runtime.Context;
import io.github.aclnn4j.runtime.DeviceBlock;
import io.github.aclnn4j.runtime.Event;
import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.HostBlock;
import io.github.aclnn4j.runtime.MemoryBlock;
import io.github.aclnn4j.runtime.SocProfile;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.runtime.Stream;
import java.lang.foreign.MemorySegment;

/**
 * The {@code aclrt*} functions of acl.h: devices, contexts, streams and memory. Every method returns
 * the C {@code aclError} and never throws.
 */
public final class AclRt {
    private AclRt() {}

    /**
     * {@code aclrtSetDevice}: makes {@code deviceId} the device of this thread, and of the threads that
     * set none; an id out of range is ACL_ERROR_INVALID_PARAM.
     */
    public static int setDevice(int deviceId) {
        return Guard.acl("aclrtSetDevice", new Guard.Call() {
            @Override
            public void run() {
                AclRuntime.setDevice(deviceId);
            }
        });
    }

    /** {@code aclrtResetDevice}: waits for the device's streams and unbinds it from this thread. */
    public static int resetDevice(int deviceId) {
        return Guard.acl("aclrtResetDevice", new Guard.Call() {
            @Override
            public void run() {
                AclRuntime.resetDevice(deviceId);
            }
        });
    }

    /** {@code aclrtGetDevice}: element 0 of {@code deviceId} is written. */
    public static int getDevice(int[] deviceId) {
        return Guard.acl("aclrtGetDevice", () -> {
            checkOut("aclrtGetDevice", "deviceId", deviceId);
            deviceId[0] = AclRuntime.currentDeviceId("aclrtGetDevice");
        });
    }

    /** {@code aclrtGetDeviceCount}: element 0 of {@code count} is written. */
    public static int getDeviceCount(int[] count) {
        return Guard.acl("aclrtGetDeviceCount", () -> {
            checkOut("aclrtGetDeviceCount", "count", count);
            count[0] = AclRuntime.deviceCount();
        });
    }

    private static void checkOut(String function, String name, int[] out) {
        if (out == null || out.length < 1) {
            throw Status.aclInvalid(function + ": " + name + " must be an array of at least one element");
        }
    }

    private static void checkOut(String function, String name, long[] out) {
        if (out == null || out.length < 1) {
            throw Status.aclInvalid(function + ": " + name + " must be an array of at least one element");
        }
    }

    /** {@code aclrtCreateContext}: fills {@code context} and makes it current on this thread. */
    public static int createContext(AclrtContext context, int deviceId) {
        return Guard.acl("aclrtCreateContext", () -> {
            if (context == null) {
                throw Status.aclInvalid("aclrtCreateContext: context must not be null");
            }
            context.context = AclRuntime.createContext(deviceId);
        });
    }

    /**
     * {@code aclrtSetCurrentContext}: makes {@code context} current on this thread; an empty holder or a
     * destroyed context is ACL_ERROR_INVALID_PARAM.
     */
    public static int setCurrentContext(AclrtContext context) {
        return Guard.acl("aclrtSetCurrentContext", () -> AclRuntime.setCurrentContext(contextOf("aclrtSetCurrentContext", context)));
    }

    /**
     * {@code aclrtDestroyContext}: destroys {@code context}; an empty holder or a context already destroyed
     * is ACL_ERROR_INVALID_PARAM.
     */
    public static int destroyContext(AclrtContext context) {
        return Guard.acl("aclrtDestroyContext", () -> AclRuntime.destroyContext(contextOf("aclrtDestroyContext", context)));
    }

    private static Context contextOf(String function, AclrtContext context) {
        Context c = context == null ? null : context.context;
        if (c == null) {
            throw Status.aclInvalid(function + ": context must not be null");
        }
        return c;
    }

    /** {@code aclrtCreateStream}: fills {@code stream} with a new in-order stream on the current device. */
    public static int createStream(AclrtStream stream) {
        return Guard.acl("aclrtCreateStream", new Guard.Call() {
            @Override
            public void run() {
                if (stream == null) {
                    throw Status.aclInvalid("aclrtCreateStream: stream must not be null");
                }
                stream.stream = AclRuntime.createStream();
            }
        });
    }

    /**
     * {@code aclrtDestroyStream}: waits for the work queued on the stream, then destroys it. A
     * failure of that work is reported here as ACLNN_ERR_RUNTIME_ERROR (the stream is gone either way).
     */
    public static int destroyStream(AclrtStream stream) {
        return Guard.acl("aclrtDestroyStream", new Guard.Call() {
            @Override
            public void run() {
                Stream s = stream == null ? null : stream.stream;
                if (s == null) {
                    throw Status.aclInvalid("aclrtDestroyStream: stream must not be null");
                }
                Failure failure = AclRuntime.destroyStream(s);
                if (failure != null) {
                    throw failure;
                }
            }
        });
    }

    /**
     * {@code aclrtSynchronizeStream}: waits for everything queued on the stream (null: the default
     * stream) and returns the first failure of that work, 361001 with its message.
     */
    public static int synchronizeStream(AclrtStream stream) {
        try { // no lambda: see Guard.status
            Stream s = stream == null ? null : stream.stream;
            if (s == null) {
                AclRuntime.requireInit("aclrtSynchronizeStream");
                s = AclRuntime.defaultStream("aclrtSynchronizeStream");
            } else {
                AclRuntime.checkStream("aclrtSynchronizeStream", s);
            }
            Failure failure = s.synchronize();
            if (failure != null) {
                throw failure;
            }
            return Status.SUCCESS;
        } catch (Throwable t) {
            return Guard.status("aclrtSynchronizeStream", t, Status.ACL_INTERNAL_ERROR);
        }
    }

    /** {@code aclrtCreateEvent}: fills {@code event} with a new event, never recorded. */
    public static int createEvent(AclrtEvent event) {
        return Guard.acl("aclrtCreateEvent", () -> {
            AclRuntime.requireInit("aclrtCreateEvent");
            if (event == null) {
                throw Status.aclInvalid("aclrtCreateEvent: event must not be null");
            }
            event.event = new Event();
        });
    }

    /**
     * {@code aclrtDestroyEvent}: an empty holder or an event destroyed already is
     * ACL_ERROR_INVALID_PARAM. Work already queued that records or waits for it still runs.
     */
    public static int destroyEvent(AclrtEvent event) {
        return Guard.acl("aclrtDestroyEvent", () -> eventOf("aclrtDestroyEvent", event).destroy("aclrtDestroyEvent"));
    }

    /**
     * {@code aclrtRecordEvent}: queues a record of {@code event} on {@code stream} (null: the default
     * stream); it completes, with the time, when the stream's work reaches it.
     */
    public static int recordEvent(AclrtEvent event, AclrtStream stream) {
        return Guard.acl("aclrtRecordEvent", () -> eventOf("aclrtRecordEvent", event).recordOn("aclrtRecordEvent",
                streamOf("aclrtRecordEvent", stream)));
    }

    /**
     * {@code aclrtStreamWaitEvent}: the work queued on {@code stream} (null: the default stream)
     * after this call waits until {@code event}'s last record so far has completed, without the host
     * waiting; an event never recorded makes no wait.
     */
    public static int streamWaitEvent(AclrtStream stream, AclrtEvent event) {
        return Guard.acl("aclrtStreamWaitEvent", () -> eventOf("aclrtStreamWaitEvent", event).awaitOn(
                "aclrtStreamWaitEvent", streamOf("aclrtStreamWaitEvent", stream)));
    }

    /** {@code aclrtSynchronizeEvent}: waits until the event's last record so far has completed. */
    public static int synchronizeEvent(AclrtEvent event) {
        return Guard.acl("aclrtSynchronizeEvent", () -> {
            Event e = eventOf("aclrtSynchronizeEvent", event);
            e.await(e.lastRecorded("aclrtSynchronizeEvent"));
        });
    }

    /**
     * {@code aclrtQueryEventStatus}: element 0 of {@code status} is written with
     * {@link AclrtEventRecordedStatus#ACL_EVENT_RECORDED_STATUS_COMPLETE} when the event's last record
     * has completed (or it was never recorded), else {@code ACL_EVENT_RECORDED_STATUS_NOT_READY}.
     */
    public static int queryEventStatus(AclrtEvent event, int[] status) {
        return Guard.acl("aclrtQueryEventStatus", () -> {
            Event e = eventOf("aclrtQueryEventStatus", event);
            checkOut("aclrtQueryEventStatus", "status", status);
            status[0] = e.isComplete("aclrtQueryEventStatus")
                    ? AclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_COMPLETE
                    : AclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_NOT_READY;
        });
    }

    /**
     * {@code aclrtEventElapsedTime}: element 0 of {@code ms} is written with the milliseconds between
     * the times the two events' last records ran; both must have been recorded and completed.
     */
    public static int eventElapsedTime(float[] ms, AclrtEvent startEvent, AclrtEvent endEvent) {
        return Guard.acl("aclrtEventElapsedTime", () -> {
            if (ms == null || ms.length < 1) {
                throw Status.aclInvalid("aclrtEventElapsedTime: ms must be an array of at least one element");
            }
            long start = eventOf("aclrtEventElapsedTime", startEvent).completedNanos("aclrtEventElapsedTime",
                    "startEvent");
            long end = eventOf("aclrtEventElapsedTime", endEvent).completedNanos("aclrtEventElapsedTime", "endEvent");
            ms[0] = (float) ((end - start) / 1e6);
        });
    }

    private static Event eventOf(String function, AclrtEvent holder) {
        AclRuntime.requireInit(function);
        Event e = holder == null ? null : holder.event;
        if (e == null) {
            throw Status.aclInvalid(function + ": event must not be null");
        }
        return e;
    }

    /** The runtime stream of {@code holder}: the default stream for null, checked to take work. */
    private static Stream streamOf(String function, AclrtStream holder) {
        Stream s = holder == null ? null : holder.stream;
        if (s == null) {
            AclRuntime.requireInit(function);
            return AclRuntime.defaultStream(function);
        }
        AclRuntime.checkStream(function, s);
        return s;
    }

    /**
     * {@code aclrtMemcpyAsync}: checks the copy as {@link #memcpy} does, then queues it on
     * {@code stream} (null: the default stream), after the work queued before it. Host memory must
     * stay valid, and is read or written, when the stream reaches the copy.
     */
    public static int memcpyAsync(Pointer dst, long destMax, Pointer src, long count, int kind, AclrtStream stream) {
        return Guard.acl("aclrtMemcpyAsync", () -> {
            AclRuntime.requireInit("aclrtMemcpyAsync");
            checkCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind);
            MemorySegment to = range("aclrtMemcpyAsync", "dst", dst, count);
            MemorySegment from = range("aclrtMemcpyAsync", "src", src, count);
            MemoryBlock toBlock = dst.block();
            MemoryBlock fromBlock = src.block();
            streamOf("aclrtMemcpyAsync", stream).submit(ws -> {
                requireLive("aclrtMemcpyAsync", "dst", toBlock);
                requireLive("aclrtMemcpyAsync", "src", fromBlock);
                MemorySegment.copy(from, 0, to, 0, count);
            }, MemorySegment.NULL, count <= INLINE_COPY_BYTES);
        });
    }

    /**
     * {@code aclrtMemsetAsync}: checks the range as {@link #memset} does, then queues the fill on
     * {@code stream} (null: the default stream).
     */
    public static int memsetAsync(Pointer devPtr, long maxCount, int value, long count, AclrtStream stream) {
        return Guard.acl("aclrtMemsetAsync", () -> {
            AclRuntime.requireInit("aclrtMemsetAsync");
            if (count > maxCount) {
                throw Status.aclInvalid("aclrtMemsetAsync: count " + count + " exceeds maxCount " + maxCount);
            }
            MemorySegment dst = range("aclrtMemsetAsync", "devPtr", devPtr, count);
            MemoryBlock block = devPtr.block();
            streamOf("aclrtMemsetAsync", stream).submit(ws -> {
                requireLive("aclrtMemsetAsync", "devPtr", block);
                dst.fill((byte) value);
            }, MemorySegment.NULL, count <= INLINE_COPY_BYTES);
        });
    }

    /** Copies up to this size run on the caller when the stream is idle, as small operator calls do. */
    private static final long INLINE_COPY_BYTES = 1 << 20;

    /** A block freed between the call and its task: the task reports it instead of touching the memory. */
    private static void requireLive(String function, String name, MemoryBlock block) {
        if (!block.isLive()) {
            throw new Failure(Status.RUNTIME_ERROR, function + ": device memory was freed while a task was using it: "
                    + name + " (" + block.describe() + ")");
        }
    }

    /**
     * {@code aclrtSynchronizeDevice}: waits for every stream of the current device, and returns the
     * first failure of their work (361001 with its message), as {@link #synchronizeStream} does.
     */
    public static int synchronizeDevice() {
        return Guard.acl("aclrtSynchronizeDevice", () -> {
            Failure failure = AclRuntime.synchronizeDevice();
            if (failure != null) {
                throw failure;
            }
        });
    }

    /**
     * {@code aclrtGetCurrentContext}: fills {@code context} with the calling thread's context (the one
     * {@link #setDevice} or {@link #createContext} made current, else the process default).
     */
    public static int getCurrentContext(AclrtContext context) {
        return Guard.acl("aclrtGetCurrentContext", () -> {
            if (context == null) {
                throw Status.aclInvalid("aclrtGetCurrentContext: context must not be null");
            }
            context.context = AclRuntime.currentContext("aclrtGetCurrentContext");
        });
    }

    /**
     * {@code aclrtSetSysParamOpt}: sets a runtime option of the process ({@link AclSysParamOpt}; 0 to
     * 3). aclnn4j is always deterministic: the value is kept for {@link #getSysParamOpt}.
     */
    public static int setSysParamOpt(int opt, long value) {
        return Guard.acl("aclrtSetSysParamOpt", () -> AclRuntime.setSysParam("aclrtSetSysParamOpt", null, opt, value));
    }

    /** {@code aclrtGetSysParamOpt}: element 0 of {@code value} is written (0 for an option never set). */
    public static int getSysParamOpt(int opt, long[] value) {
        return Guard.acl("aclrtGetSysParamOpt", () -> {
            checkOut("aclrtGetSysParamOpt", "value", value);
            value[0] = AclRuntime.sysParam("aclrtGetSysParamOpt", null, opt);
        });
    }

    /**
     * {@code aclrtCtxSetSysParamOpt}: sets an option of the current context (0 to 2, see
     * {@link AclSysParamOpt}); kept for {@link #ctxGetSysParamOpt}.
     */
    public static int ctxSetSysParamOpt(int opt, long value) {
        return Guard.acl("aclrtCtxSetSysParamOpt", () -> AclRuntime.setSysParam("aclrtCtxSetSysParamOpt",
                AclRuntime.currentContext("aclrtCtxSetSysParamOpt"), opt, value));
    }

    /** {@code aclrtCtxGetSysParamOpt}: element 0 of {@code value} is written (0 for an option never set). */
    public static int ctxGetSysParamOpt(int opt, long[] value) {
        return Guard.acl("aclrtCtxGetSysParamOpt", () -> {
            checkOut("aclrtCtxGetSysParamOpt", "value", value);
            value[0] = AclRuntime.sysParam("aclrtCtxGetSysParamOpt",
                    AclRuntime.currentContext("aclrtCtxGetSysParamOpt"), opt);
        });
    }

    /**
     * {@code aclrtGetSocName}: the SoC being emulated, as chosen by {@code -Daclnn4j.soc} or
     * {@code ACLNN4J_SOC} (the name given, e.g. {@code Ascend910B3}, when it names a product of a
     * known profile; else the profile's short name, {@code Ascend910B} by default). Never null.
     */
    public static String getSocName() {
        return SocProfile.currentSocName();
    }

    /**
     * {@code aclrtGetMemInfo}: elements 0 of {@code free} and {@code total} are written with the
     * current device's free and total bytes ({@code aclnn4j.deviceMemoryBytes}, by default three
     * quarters of the machine's memory). Every {@link AclrtMemAttr} reports the same memory.
     */
    public static int getMemInfo(int attr, long[] free, long[] total) {
        return Guard.acl("aclrtGetMemInfo", () -> {
            checkOut("aclrtGetMemInfo", "free", free);
            checkOut("aclrtGetMemInfo", "total", total);
            if (attr < AclrtMemAttr.ACL_DDR_MEM || attr > AclrtMemAttr.ACL_MEM_P2P_HUGE1G) {
                throw Status.aclInvalid("aclrtGetMemInfo: attr " + attr + " is not an aclrtMemAttr (0 to "
                        + AclrtMemAttr.ACL_MEM_P2P_HUGE1G + ")");
            }
            long[] info = AclRuntime.memInfo("aclrtGetMemInfo");
            free[0] = info[0];
            total[0] = info[1];
        });
    }

    /**
     * {@code aclrtMalloc}: fills {@code devPtr} with zeroed, 64-byte aligned device memory. With
     * {@code ACL_MEM_MALLOC_HUGE_FIRST} or {@code ACL_MEM_MALLOC_HUGE_ONLY}, blocks of 2 MB and more
     * are mapped on transparent huge pages where the JVM lets this library call native code (see
     * {@link AclrtMemMallocPolicy}); {@code ACL_MEM_MALLOC_NORMAL_ONLY} always uses normal pages.
     */
    public static int malloc(Pointer devPtr, long size, int policy) {
        return Guard.acl("aclrtMalloc", new Guard.Call() {
            @Override
            public void run() {
                if (devPtr == null) {
                    throw Status.aclInvalid("aclrtMalloc: devPtr must not be null");
                }
                if (policy < 0 || policy > 2) {
                    throw Status.aclInvalid("aclrtMalloc: unknown policy " + policy
                            + " (HUGE_FIRST 0, HUGE_ONLY 1, NORMAL_ONLY 2)");
                }
                devPtr.set(AclRuntime.malloc(size, policy != AclrtMemMallocPolicy.ACL_MEM_MALLOC_NORMAL_ONLY), 0);
            }
        });
    }

    /** {@code aclrtFree}: {@code devPtr} must be the start of a live {@code aclrtMalloc} block. */
    public static int free(Pointer devPtr) {
        return Guard.acl("aclrtFree", new Guard.Call() {
            @Override
            public void run() {
                AclRuntime.requireInit("aclrtFree");
                MemoryBlock b = devPtr == null ? null : devPtr.block();
                if (b == null) {
                    throw Status.aclInvalid("aclrtFree: devPtr must not be null");
                }
                if (!(b instanceof DeviceBlock block)) {
                    throw Status.aclInvalid("aclrtFree: devPtr is host memory, not an aclrtMalloc block");
                }
                if (devPtr.byteOffset() != 0) {
                    throw Status.aclInvalid("aclrtFree: devPtr is " + devPtr.byteOffset()
                            + " bytes into its block, not the address aclrtMalloc returned");
                }
                AclRuntime.free(block);
            }
        });
    }

    /** {@code aclrtMallocHost}: fills {@code hostPtr} with zeroed, runtime-owned host memory. */
    public static int mallocHost(Pointer hostPtr, long size) {
        return Guard.acl("aclrtMallocHost", () -> {
            if (hostPtr == null) {
                throw Status.aclInvalid("aclrtMallocHost: hostPtr must not be null");
            }
            hostPtr.set(AclRuntime.mallocHost(size), 0);
        });
    }

    /** {@code aclrtFreeHost}: {@code hostPtr} must be an address {@code aclrtMallocHost} returned, not yet freed. */
    public static int freeHost(Pointer hostPtr) {
        return Guard.acl("aclrtFreeHost", () -> {
            MemoryBlock b = hostPtr == null ? null : hostPtr.block();
            if (b == null) {
                throw Status.aclInvalid("aclrtFreeHost: hostPtr must not be null");
            }
            if (!(b instanceof HostBlock block) || hostPtr.byteOffset() != 0) {
                throw Status.aclInvalid("aclrtFreeHost: hostPtr is not an address returned by aclrtMallocHost");
            }
            AclRuntime.freeHost(block);
        });
    }

    /** {@code aclrtMemset}: sets {@code count} bytes at {@code devPtr} to {@code value}; {@code count > maxCount} is an error. */
    public static int memset(Pointer devPtr, long maxCount, int value, long count) {
        return Guard.acl("aclrtMemset", () -> {
            AclRuntime.requireInit("aclrtMemset");
            if (count > maxCount) {
                throw Status.aclInvalid("aclrtMemset: count " + count + " exceeds maxCount " + maxCount);
            }
            MemorySegment dst = range("aclrtMemset", "devPtr", devPtr, count);
            dst.fill((byte) value);
        });
    }

    /**
     * {@code aclrtMemcpy}: copies {@code count} bytes from {@code src} to {@code dst}. {@code count >
     * destMax}, a copy past either buffer, or a kind that contradicts where the pointers lie is
     * ACL_ERROR_INVALID_PARAM. Synchronous, like CANN's.
     */
    public static int memcpy(Pointer dst, long destMax, Pointer src, long count, int kind) {
        return Guard.acl("aclrtMemcpy", new Guard.Call() {
            @Override
            public void run() {
                AclRuntime.requireInit("aclrtMemcpy");
                checkCopy("aclrtMemcpy", dst, destMax, src, count, kind);
                MemorySegment to = range("aclrtMemcpy", "dst", dst, count);
                MemorySegment from = range("aclrtMemcpy", "src", src, count);
                MemorySegment.copy(from, 0, to, 0, count);
            }
        });
    }

    /** The checks of a copy: its kind, its size against destMax, and that the kind says where each side lies. */
    private static void checkCopy(String function, Pointer dst, long destMax, Pointer src, long count, int kind) {
        if (kind < 0 || kind > 4) {
            throw Status.aclInvalid(function + ": unknown kind " + kind);
        }
        if (count > destMax) {
            throw Status.aclInvalid(function + ": count " + count + " exceeds destMax " + destMax);
        }
        range(function, "dst", dst, count);
        range(function, "src", src, count);
        if (kind != 4) {
            checkSide(function, "dst", dst, kind == 1 || kind == 3);
            checkSide(function, "src", src, kind == 2 || kind == 3);
        }
    }

    private static void checkSide(String function, String name, Pointer p, boolean device) {
        if (p.block().isDevice() != device) {
            throw Status.aclInvalid(function + ": " + name + " is " + (device ? "host" : "device")
                    + " memory, but the copy kind says " + (device ? "device" : "host"));
        }
    }

    /** The {@code count} bytes at {@code p}, checked to lie inside p's live block. */
    private static MemorySegment range(String function, String name, Pointer p, long count) {
        MemoryBlock b = p == null ? null : p.block();
        if (b == null) {
            throw Status.aclInvalid(function + ": " + name + " must not be null");
        }
        if (count < 0) {
            throw Status.aclInvalid(function + ": count must be >= 0, got " + count);
        }
        if (!b.isLive()) {
            throw Status.aclInvalid(function + ": " + name + " points into freed memory (" + b.describe() + ")");
        }
        MemorySegment seg = b.segment();
        long at = p.byteOffset();
        if (at < 0 || at > seg.byteSize() || count > seg.byteSize() - at) {
            throw Status.aclInvalid(function + ": " + name + " range [" + at + ", " + (at + count) + ") lies outside "
                    + b.describe());
        }
        return seg.asSlice(at, count);
    }
}
