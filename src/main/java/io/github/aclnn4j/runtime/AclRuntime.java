package io.github.aclnn4j.runtime;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The process-wide state of the emulated runtime: whether {@code aclInit} has run, the devices,
 * and which context each thread is using. A thread that never set a device or context uses the
 * device most recently set by any thread (device 0 if none), as CANN's default context does.
 */
public final class AclRuntime {
    private static final Object LOCK = new Object();
    private static final ThreadLocal<Context> CURRENT = new ThreadLocal<>();

    private static boolean initialized;
    private static Device[] devices = new Device[0];
    private static volatile Context processDefault;
    /** aclrtSetSysParamOpt's values, by option (guarded by LOCK). */
    private static final long[] PROCESS_PARAMS = new long[SystemParams.PROCESS_OPTIONS];

    private AclRuntime() {}

    public static void init(String configPath) {
        if (configPath != null && !configPath.isEmpty()) {
            boolean readable;
            try {
                readable = Files.isReadable(Path.of(configPath));
            } catch (InvalidPathException e) {
                readable = false;
            }
            if (!readable) {
                throw Status.aclInvalid("aclInit: the config file '" + configPath + "' cannot be read");
            }
        }
        synchronized (LOCK) {
            if (initialized) {
                throw new Failure(Status.ACL_REPEAT_INITIALIZE, "aclInit: already initialized (call aclFinalize first)");
            }
            int count = Math.clamp(Integer.getInteger("aclnn4j.deviceCount", 1), 1, 64);
            devices = new Device[count];
            for (int i = 0; i < count; i++) {
                devices[i] = new Device(i);
            }
            processDefault = null;
            java.util.Arrays.fill(PROCESS_PARAMS, 0);
            initialized = true;
        }
    }

    /** aclFinalize: waits for and destroys every stream, frees all device and host-runtime memory. */
    public static void finalizeRuntime() {
        Device[] all;
        synchronized (LOCK) {
            requireInit("aclFinalize");
            initialized = false;
            all = devices;
            devices = new Device[0];
            processDefault = null;
        }
        CURRENT.remove();
        for (Device d : all) {
            d.release();
        }
    }

    public static boolean isInitialized() {
        synchronized (LOCK) {
            return initialized;
        }
    }

    public static void requireInit(String function) {
        synchronized (LOCK) {
            if (!initialized) {
                throw new Failure(Status.ACL_UNINITIALIZE, function + ": aclInit has not been called");
            }
        }
    }

    public static int deviceCount() {
        synchronized (LOCK) {
            requireInit("aclrtGetDeviceCount");
            return devices.length;
        }
    }

    private static Device device(String function, int id) {
        synchronized (LOCK) {
            requireInit(function);
            if (id < 0 || id >= devices.length) {
                throw Status.aclInvalid(function + ": device id " + id + " is out of range [0, " + devices.length + ")");
            }
            return devices[id];
        }
    }

    public static void setDevice(int id) {
        device("aclrtSetDevice", id);
        Context ctx = new Context(id);
        CURRENT.set(ctx);
        processDefault = ctx;
    }

    public static void resetDevice(int id) {
        device("aclrtResetDevice", id).synchronizeAll();
        Context ctx = CURRENT.get();
        if (ctx != null && ctx.deviceId() == id) {
            CURRENT.remove();
        }
    }

    /** The device of the calling thread's context; fails when no device has been set anywhere. */
    public static int currentDeviceId(String function) {
        requireInit(function);
        Context ctx = currentContext();
        if (ctx == null) {
            throw Status.aclInvalid(function + ": no device is set (call aclrtSetDevice first)");
        }
        return ctx.deviceId();
    }

    private static Context currentContext() {
        Context ctx = CURRENT.get();
        if (ctx != null && !ctx.isDestroyed()) {
            return ctx;
        }
        Context def = processDefault;
        return def != null && !def.isDestroyed() ? def : null;
    }

    /** The device work goes to: the current context's, else device 0. */
    private static Device workDevice(String function) {
        Context ctx = currentContext();
        return device(function, ctx == null ? 0 : ctx.deviceId());
    }

    public static Context createContext(int deviceId) {
        device("aclrtCreateContext", deviceId);
        Context ctx = new Context(deviceId);
        CURRENT.set(ctx);
        return ctx;
    }

    public static void setCurrentContext(Context ctx) {
        requireInit("aclrtSetCurrentContext");
        if (ctx.isDestroyed()) {
            throw Status.aclInvalid("aclrtSetCurrentContext: the context was destroyed");
        }
        device("aclrtSetCurrentContext", ctx.deviceId());
        CURRENT.set(ctx);
    }

    public static void destroyContext(Context ctx) {
        requireInit("aclrtDestroyContext");
        if (ctx.isDestroyed()) {
            throw Status.aclInvalid("aclrtDestroyContext: the context was already destroyed");
        }
        ctx.destroy();
        if (CURRENT.get() == ctx) {
            CURRENT.remove();
        }
    }

    /** The calling thread's context (its own, else the process default); fails when there is none. */
    public static Context currentContext(String function) {
        requireInit(function);
        Context ctx = currentContext();
        if (ctx == null) {
            throw Status.aclInvalid(function + ": there is no current context (call aclrtSetDevice or "
                    + "aclrtCreateContext first)");
        }
        return ctx;
    }

    /**
     * {@code aclrtSetSysParamOpt} ({@code context} null) or {@code aclrtCtxSetSysParamOpt} (the
     * current context). The values are kept and read back; aclnn4j computes deterministically
     * whatever they say.
     */
    public static void setSysParam(String function, Context context, int option, long value) {
        SystemParams.check(function, option, context != null);
        if (context != null) {
            context.setParam(option, value);
            return;
        }
        synchronized (LOCK) {
            PROCESS_PARAMS[option] = value;
        }
    }

    /** The value {@link #setSysParam} kept, 0 for an option never set (as CANN documents). */
    public static long sysParam(String function, Context context, int option) {
        SystemParams.check(function, option, context != null);
        if (context != null) {
            return context.param(option);
        }
        synchronized (LOCK) {
            return PROCESS_PARAMS[option];
        }
    }

    /**
     * {@code aclrtSynchronizeDevice}: waits for every stream of the current device; returns the first
     * failure of their work, or null.
     */
    public static Failure synchronizeDevice() {
        return workDevice("aclrtSynchronizeDevice").synchronizeAll();
    }

    /** {@code aclrtGetMemInfo}: the free and total bytes of the current device's memory. */
    public static long[] memInfo(String function) {
        DeviceMemory memory = workDevice(function).memory;
        return new long[] {memory.freeBytes(), memory.capacity()};
    }

    public static Stream createStream() {
        return workDevice("aclrtCreateStream").createStream();
    }

    public static Failure destroyStream(Stream s) {
        requireInit("aclrtDestroyStream");
        if (s.isDefault()) {
            throw Status.aclInvalid("aclrtDestroyStream: the default stream cannot be destroyed");
        }
        if (s.isDestroyed()) {
            throw Status.aclInvalid("aclrtDestroyStream: the stream was already destroyed");
        }
        return device("aclrtDestroyStream", s.deviceId()).destroyStream(s);
    }

    /** The stream a null {@code aclrtStream} means: the default stream of the current device. */
    public static Stream defaultStream(String function) {
        return workDevice(function).defaultStream();
    }

    /** Checks that {@code s} may take work: the runtime is up (100001) and the stream not destroyed (100000). */
    public static void checkStream(String function, Stream s) {
        requireInit(function);
        if (s.isDestroyed()) {
            throw Status.aclInvalid(function + ": the stream was destroyed (by aclrtDestroyStream or aclFinalize)");
        }
    }

    /** {@code aclrtMalloc} of {@code size} bytes; {@code hugePages} for the policies that ask for them. */
    public static DeviceBlock malloc(long size, boolean hugePages) {
        Device d = workDevice("aclrtMalloc");
        if (size <= 0) {
            throw Status.aclInvalid("aclrtMalloc: size must be > 0, got " + size);
        }
        return d.memory.allocate(size, hugePages);
    }

    public static void free(DeviceBlock block) {
        Device d = device("aclrtFree", block.deviceId());
        if (!d.memory.free(block, d.fence())) {
            throw Status.aclInvalid("aclrtFree: " + block.describe() + " is not a live allocation (double free?)");
        }
    }

    public static HostBlock mallocHost(long size) {
        requireInit("aclrtMallocHost");
        if (size <= 0) {
            throw Status.aclInvalid("aclrtMallocHost: size must be > 0, got " + size);
        }
        try {
            return HostBlock.allocate(size);
        } catch (OutOfMemoryError | IllegalArgumentException | IllegalStateException e) {
            throw new Failure(Status.ACL_BAD_ALLOC, "aclrtMallocHost: cannot allocate " + size + " bytes: " + e.getMessage());
        }
    }

    public static void freeHost(HostBlock block) {
        requireInit("aclrtFreeHost");
        if (!block.isRuntimeOwned()) {
            throw Status.aclInvalid("aclrtFreeHost: the pointer was not returned by aclrtMallocHost");
        }
        synchronized (block) {
            if (!block.isLive()) {
                throw Status.aclInvalid("aclrtFreeHost: the memory was already freed");
            }
            block.free();
        }
    }

    /** The live device block containing {@code address}, or null. */
    public static DeviceBlock findDeviceBlock(long address) {
        Device[] all;
        synchronized (LOCK) {
            all = devices;
        }
        for (Device d : all) {
            DeviceBlock b = d.memory.find(address);
            if (b != null) {
                return b;
            }
        }
        return null;
    }

    /** Bytes of device memory in use on {@code deviceId}, for tests and leak checks. */
    public static long usedDeviceBytes(int deviceId) {
        return device("usedDeviceBytes", deviceId).memory.usedBytes();
    }
}
