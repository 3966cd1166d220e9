package io.github.aclnn4j.nativeabi;

import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclError.ACL_SUCCESS;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclnnStatus;
import io.github.aclnn4j.acl.AclrtContext;
import io.github.aclnn4j.acl.AclrtEvent;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.runtime.ErrorLog;
import java.nio.charset.StandardCharsets;

/**
 * The C functions of acl.h (libascendcl), one static method each, named and ordered like the C
 * parameters; pointers are {@code long} addresses, handles {@link Handles} ids.
 */
final class RuntimeEntries {
    private RuntimeEntries() {}

    static int aclInit(long configPath) {
        return Acl.init(configPath == 0 ? null
                : NativeMemory.string(configPath, ACL_ERROR_INVALID_PARAM, "aclInit", "configPath"));
    }

    static int aclFinalize() {
        return Acl.finalizeAcl();
    }

    /**
     * Copies this thread's recent message, NUL-terminated, to {@code buffer} when it fits in
     * {@code capacity} bytes. Returns 0 when there is none, else the bytes it needs; when that
     * exceeds {@code capacity} the message is kept for the next call, with a larger buffer.
     */
    static long aclGetRecentErrMsg(long buffer, long capacity) {
        String message = Acl.getRecentErrMsg();
        if (message == null) {
            return 0;
        }
        byte[] utf8 = message.getBytes(StandardCharsets.UTF_8);
        long needed = utf8.length + 1L;
        if (needed > capacity) {
            ErrorLog.record(message);
            return needed;
        }
        NativeMemory.putCString(buffer, utf8);
        return needed;
    }

    static int aclrtSetDevice(int deviceId) {
        return AclRt.setDevice(deviceId);
    }

    static int aclrtResetDevice(int deviceId) {
        return AclRt.resetDevice(deviceId);
    }

    static int aclrtGetDevice(long deviceId) {
        out(deviceId, 4, "aclrtGetDevice", "deviceId");
        int[] out = deviceId == 0 ? null : new int[1];
        int status = AclRt.getDevice(out);
        if (status == ACL_SUCCESS) {
            NativeMemory.putInt(deviceId, out[0]);
        }
        return status;
    }

    static int aclrtGetDeviceCount(long count) {
        out(count, 4, "aclrtGetDeviceCount", "count");
        int[] out = count == 0 ? null : new int[1];
        int status = AclRt.getDeviceCount(out);
        if (status == ACL_SUCCESS) {
            NativeMemory.putInt(count, out[0]);
        }
        return status;
    }

    static int aclrtCreateContext(long context, int deviceId) {
        out(context, 8, "aclrtCreateContext", "context");
        AclrtContext holder = context == 0 ? null : new AclrtContext();
        int status = AclRt.createContext(holder, deviceId);
        if (status == ACL_SUCCESS) {
            NativeMemory.putLong(context, Handles.register(holder));
        }
        return status;
    }

    static int aclrtSetCurrentContext(long context) {
        return AclRt.setCurrentContext(context(context, "aclrtSetCurrentContext"));
    }

    static int aclrtDestroyContext(long context) {
        AclrtContext holder = context(context, "aclrtDestroyContext");
        int status = AclRt.destroyContext(holder);
        if (status == ACL_SUCCESS) {
            Handles.release(context, holder);
        }
        return status;
    }

    private static AclrtContext context(long handle, String function) {
        return Handles.find(handle, AclrtContext.class, ACL_ERROR_INVALID_PARAM, function, "context");
    }

    static int aclrtCreateStream(long stream) {
        out(stream, 8, "aclrtCreateStream", "stream");
        AclrtStream holder = stream == 0 ? null : new AclrtStream();
        int status = AclRt.createStream(holder);
        if (status == ACL_SUCCESS) {
            NativeMemory.putLong(stream, Handles.register(holder));
        }
        return status;
    }

    static int aclrtDestroyStream(long stream) {
        AclrtStream holder = Handles.find(stream, AclrtStream.class, ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream",
                "stream");
        int status = AclRt.destroyStream(holder);
        // A failure of the stream's queued work is reported here too, but the stream is gone either way.
        if (status == ACL_SUCCESS || status == AclnnStatus.ACLNN_ERR_RUNTIME_ERROR) {
            Handles.release(stream, holder);
        }
        return status;
    }

    static int aclrtSynchronizeStream(long stream) {
        return AclRt.synchronizeStream(Handles.find(stream, AclrtStream.class, ACL_ERROR_INVALID_PARAM,
                "aclrtSynchronizeStream", "stream"));
    }

    static int aclrtCreateEvent(long event) {
        out(event, 8, "aclrtCreateEvent", "event");
        AclrtEvent holder = event == 0 ? null : new AclrtEvent();
        int status = AclRt.createEvent(holder);
        if (status == ACL_SUCCESS) {
            NativeMemory.putLong(event, Handles.register(holder));
        }
        return status;
    }

    static int aclrtDestroyEvent(long event) {
        AclrtEvent holder = event(event, "aclrtDestroyEvent");
        int status = AclRt.destroyEvent(holder);
        if (status == ACL_SUCCESS) {
            Handles.release(event, holder);
        }
        return status;
    }

    static int aclrtRecordEvent(long event, long stream) {
        return AclRt.recordEvent(event(event, "aclrtRecordEvent"), stream(stream, "aclrtRecordEvent"));
    }

    static int aclrtStreamWaitEvent(long stream, long event) {
        return AclRt.streamWaitEvent(stream(stream, "aclrtStreamWaitEvent"), event(event, "aclrtStreamWaitEvent"));
    }

    static int aclrtSynchronizeEvent(long event) {
        return AclRt.synchronizeEvent(event(event, "aclrtSynchronizeEvent"));
    }

    static int aclrtQueryEventStatus(long event, long status) {
        AclrtEvent holder = event(event, "aclrtQueryEventStatus");
        out(status, 4, "aclrtQueryEventStatus", "status");
        int[] out = status == 0 ? null : new int[1];
        int result = AclRt.queryEventStatus(holder, out);
        if (result == ACL_SUCCESS) {
            NativeMemory.putInt(status, out[0]);
        }
        return result;
    }

    static int aclrtEventElapsedTime(long ms, long startEvent, long endEvent) {
        out(ms, 4, "aclrtEventElapsedTime", "ms");
        AclrtEvent start = Handles.find(startEvent, AclrtEvent.class, ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime",
                "startEvent");
        AclrtEvent end = Handles.find(endEvent, AclrtEvent.class, ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime",
                "endEvent");
        float[] out = ms == 0 ? null : new float[1];
        int status = AclRt.eventElapsedTime(out, start, end);
        if (status == ACL_SUCCESS) {
            NativeMemory.putFloat(ms, out[0]);
        }
        return status;
    }

    private static AclrtEvent event(long handle, String function) {
        return Handles.find(handle, AclrtEvent.class, ACL_ERROR_INVALID_PARAM, function, "event");
    }

    private static AclrtStream stream(long handle, String function) {
        return Handles.find(handle, AclrtStream.class, ACL_ERROR_INVALID_PARAM, function, "stream");
    }

    static int aclrtMemcpyAsync(long dst, long destMax, long src, long count, int kind, long stream) {
        Pointer to = side(dst, count, kind == 1 || kind == 3, "dst", "aclrtMemcpyAsync");
        Pointer from = side(src, count, kind == 2 || kind == 3, "src", "aclrtMemcpyAsync");
        return AclRt.memcpyAsync(to, destMax, from, count, kind, stream(stream, "aclrtMemcpyAsync"));
    }

    static int aclrtMemsetAsync(long devPtr, long maxCount, int value, long count, long stream) {
        return AclRt.memsetAsync(known(devPtr, "aclrtMemsetAsync"), maxCount, value, count,
                stream(stream, "aclrtMemsetAsync"));
    }

    static int aclrtSynchronizeDevice() {
        return AclRt.synchronizeDevice();
    }

    static int aclrtGetCurrentContext(long context) {
        out(context, 8, "aclrtGetCurrentContext", "context");
        AclrtContext holder = context == 0 ? null : new AclrtContext();
        int status = AclRt.getCurrentContext(holder);
        if (status == ACL_SUCCESS) {
            NativeMemory.putLong(context, Handles.contextHandle(holder));
        }
        return status;
    }

    static int aclrtSetSysParamOpt(int opt, long value) {
        return AclRt.setSysParamOpt(opt, value);
    }

    static int aclrtGetSysParamOpt(int opt, long value) {
        return longOut(value, "aclrtGetSysParamOpt", "value", out -> AclRt.getSysParamOpt(opt, out));
    }

    static int aclrtCtxSetSysParamOpt(int opt, long value) {
        return AclRt.ctxSetSysParamOpt(opt, value);
    }

    static int aclrtCtxGetSysParamOpt(int opt, long value) {
        return longOut(value, "aclrtCtxGetSysParamOpt", "value", out -> AclRt.ctxGetSysParamOpt(opt, out));
    }

    /** As {@link #aclGetRecentErrMsg}: the SoC name into {@code buffer}, or the bytes it needs. */
    static long aclrtGetSocName(long buffer, long capacity) {
        byte[] utf8 = AclRt.getSocName().getBytes(StandardCharsets.UTF_8);
        long needed = utf8.length + 1L;
        if (needed <= capacity) {
            NativeMemory.putCString(buffer, utf8);
        }
        return needed;
    }

    static int aclrtGetMemInfo(int attr, long free, long total) {
        out(free, 8, "aclrtGetMemInfo", "free");
        out(total, 8, "aclrtGetMemInfo", "total");
        long[] f = free == 0 ? null : new long[1];
        long[] t = total == 0 ? null : new long[1];
        int status = AclRt.getMemInfo(attr, f, t);
        if (status == ACL_SUCCESS) {
            NativeMemory.putLong(free, f[0]);
            NativeMemory.putLong(total, t[0]);
        }
        return status;
    }

    /** A call with one {@code int64_t*} out-parameter at {@code address} (null passes null on). */
    private static int longOut(long address, String function, String name, java.util.function.ToIntFunction<long[]> call) {
        out(address, 8, function, name);
        long[] out = address == 0 ? null : new long[1];
        int status = call.applyAsInt(out);
        if (status == ACL_SUCCESS) {
            NativeMemory.putLong(address, out[0]);
        }
        return status;
    }

    static int aclrtMalloc(long devPtr, long size, int policy) {
        out(devPtr, 8, "aclrtMalloc", "devPtr");
        Pointer out = devPtr == 0 ? null : new Pointer();
        int status = AclRt.malloc(out, size, policy);
        if (status == ACL_SUCCESS) {
            NativeMemory.putLong(devPtr, out.address());
        }
        return status;
    }

    static int aclrtFree(long devPtr) {
        return AclRt.free(devPtr == 0 ? null : device(devPtr, "aclrtFree", "devPtr"));
    }

    static int aclrtMallocHost(long hostPtr, long size) {
        out(hostPtr, 8, "aclrtMallocHost", "hostPtr");
        Pointer out = hostPtr == 0 ? null : new Pointer();
        int status = AclRt.mallocHost(out, size);
        if (status == ACL_SUCCESS) {
            NativeMemory.addMallocHost(out, size);
            NativeMemory.putLong(hostPtr, out.address());
        }
        return status;
    }

    static int aclrtFreeHost(long hostPtr) {
        Pointer pointer = null;
        if (hostPtr != 0) {
            pointer = NativeMemory.mallocHostStart(hostPtr);
            if (pointer == null) {
                throw new Rejected(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr (0x" + Long.toHexString(hostPtr)
                        + ") is not an address returned by aclrtMallocHost, or was already freed");
            }
        }
        int status = AclRt.freeHost(pointer);
        if (status == ACL_SUCCESS) {
            NativeMemory.removeMallocHost(hostPtr);
        }
        return status;
    }

    static int aclrtMemset(long devPtr, long maxCount, int value, long count) {
        return AclRt.memset(known(devPtr, "aclrtMemset"), maxCount, value, count);
    }

    /** Memory from aclrtMalloc or aclrtMallocHost at {@code address}; null for null; else rejected. */
    private static Pointer known(long address, String function) {
        if (address == 0) {
            return null;
        }
        Pointer pointer = NativeMemory.known(address);
        if (pointer == null) {
            throw new Rejected(ACL_ERROR_INVALID_PARAM, function + ": devPtr (0x" + Long.toHexString(address)
                    + ") is not inside memory from aclrtMalloc or aclrtMallocHost (or it was freed)");
        }
        return pointer;
    }

    /**
     * Device addresses become device pointers; other addresses are host memory of the {@code count}
     * bytes the copy reads or writes, unless the kind says that side is device memory: then an
     * unknown address (never allocated, or freed) is rejected rather than touched.
     */
    static int aclrtMemcpy(long dst, long destMax, long src, long count, int kind) {
        Pointer to = side(dst, count, kind == 1 || kind == 3, "dst", "aclrtMemcpy");
        Pointer from = side(src, count, kind == 2 || kind == 3, "src", "aclrtMemcpy");
        return AclRt.memcpy(to, destMax, from, count, kind);
    }

    private static Pointer side(long address, long count, boolean device, String name, String function) {
        if (address == 0) {
            return null;
        }
        if (device) {
            return device(address, function, name);
        }
        Pointer known = NativeMemory.known(address);
        return known != null ? known : NativeMemory.host(address, count, ACL_ERROR_INVALID_PARAM, function, name);
    }

    /** Checks an out-parameter before the call has effects it could not report. */
    private static void out(long address, int bytes, String function, String name) {
        NativeMemory.checked(address, bytes, ACL_ERROR_INVALID_PARAM, function, name);
    }

    private static Pointer device(long address, String function, String name) {
        Pointer pointer = Pointer.ofDeviceAddress(address);
        if (pointer == null) {
            throw new Rejected(ACL_ERROR_INVALID_PARAM, function + ": " + name + " (0x" + Long.toHexString(address)
                    + ") is not inside device memory from aclrtMalloc (never allocated, or already freed)");
        }
        return pointer;
    }
}
