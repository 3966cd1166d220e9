package io.github.aclnn4j.nativeabi;

import io.github.aclnn4j.acl.AclnnStatus;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.kernel.ArrayCopies;
import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * C memory as the entries see it: arguments read from and results written to C addresses, C
 * addresses turned into layer-1 {@link Pointer}s, and the blocks of {@code aclrtMallocHost}.
 */
@SuppressWarnings("restricted") // C addresses become segments here, trusting the C caller for their sizes
final class NativeMemory {
    /** The whole address space; C arguments are read and written through it at their addresses. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** Longest array read from C: beyond it the count is garbage, not an array. */
    private static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    /** No memory is ever mapped below vm.mmap_min_addr: a "pointer" there is a small number. */
    private static final long LOWEST_ADDRESS = lowestMappableAddress();
    /** x86-64 user space ends below 2^47 (2^56 with 5-level paging); beyond is not a pointer. */
    private static final long END_OF_USER_SPACE = 1L << 56;

    /** C's malloc, made on first use: a downcall handle is costly to make, and only the getters need it. */
    private static final class Malloc {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("malloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    }

    private record HostAllocation(Pointer pointer, long size) {}

    /** The live {@code aclrtMallocHost} blocks by start address. */
    private static final ConcurrentSkipListMap<Long, HostAllocation> HOST = new ConcurrentSkipListMap<>();

    private NativeMemory() {}

    private static long lowestMappableAddress() {
        try {
            return Math.max(4096, Long.parseLong(Files.readString(Path.of("/proc/sys/vm/mmap_min_addr")).strip()));
        } catch (IOException | RuntimeException e) {
            return 4096;
        }
    }

    /**
     * {@code address}, once {@code bytes} there could be memory at all: not below the lowest
     * mappable address, nor past user space (a negative count, a small integer or a non-canonical
     * pattern such as 0xdeadbeefdeadbeef). The null pointer passes, for layer 1 to report.
     * Garbage inside user space cannot be told from a pointer and is trusted.
     */
    static long checked(long address, long bytes, int status, String function, String name) {
        if (address != 0 && (address < LOWEST_ADDRESS || address >= END_OF_USER_SPACE || bytes < 0
                || bytes > END_OF_USER_SPACE - address)) {
            throw new Rejected(status, function + ": " + name + " (0x" + Long.toHexString(address)
                    + ") is not a valid address" + (bytes > 0 ? " for " + bytes + " bytes" : ""));
        }
        return address;
    }

    /** The C string at {@code address}. */
    static String string(long address, int status, String function, String name) {
        return ALL.getString(checked(address, 1, status, function, name));
    }

    /** A C string of the bridge's own C side (a function name). */
    static String trustedString(long address) {
        return ALL.getString(address);
    }

    /**
     * The {@code count} values at {@code address}; null for a null address, empty for a count that
     * is zero or, read as a signed number, negative (layer 1 then rejects the count it is given).
     */
    static long[] longs(long address, long count, String function, String name) {
        if (address == 0) {
            return null;
        }
        long[] values = new long[length(count, function, name)];
        checked(address, (long) values.length * 8, AclnnStatus.ACLNN_ERR_PARAM_INVALID, function, name);
        ArrayCopies.load(ALL, address, values, 0, values.length);
        return values;
    }

    static float[] floats(long address, long count, String function, String name) {
        if (address == 0) {
            return null;
        }
        float[] values = new float[length(count, function, name)];
        checked(address, (long) values.length * 4, AclnnStatus.ACLNN_ERR_PARAM_INVALID, function, name);
        ArrayCopies.load(ALL, address, values, 0, values.length);
        return values;
    }

    /** C {@code bool}s: one byte each, any non-zero byte is true. */
    static boolean[] bools(long address, long count, String function, String name) {
        if (address == 0) {
            return null;
        }
        boolean[] values = new boolean[length(count, function, name)];
        checked(address, (long) values.length * 1, AclnnStatus.ACLNN_ERR_PARAM_INVALID, function, name);
        for (int i = 0; i < values.length; i++) {
            values[i] = ALL.get(ValueLayout.JAVA_BYTE, address + i) != 0;
        }
        return values;
    }

    private static int length(long count, String function, String name) {
        if (count > MAX_ELEMENTS) {
            throw new Rejected(AclnnStatus.ACLNN_ERR_PARAM_INVALID, function + ": " + name + " count " + count
                    + " is too large");
        }
        return (int) Math.max(count, 0);
    }

    static void putLong(long address, long value) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, address, value);
    }

    static void putInt(long address, int value) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, address, value);
    }

    static void putFloat(long address, float value) {
        ALL.set(ValueLayout.JAVA_FLOAT_UNALIGNED, address, value);
    }

    /** {@code utf8} and a terminating NUL at {@code address}. */
    static void putCString(long address, byte[] utf8) {
        ArrayCopies.store(utf8, 0, ALL, address, utf8.length);
        ALL.set(ValueLayout.JAVA_BYTE, address + utf8.length, (byte) 0);
    }

    /** A copy of {@code values} in C memory from {@code malloc}, which the C caller frees. */
    static long mallocCopy(long[] values) {
        MemorySegment copy;
        try {
            copy = (MemorySegment) Malloc.HANDLE.invokeExact(Math.max(1L, values.length * 8L));
        } catch (Throwable t) {
            throw new IllegalStateException("malloc failed", t);
        }
        if (copy.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("malloc of " + values.length * 8L + " bytes returned NULL");
        }
        ArrayCopies.store(values, 0, ALL, copy.address(), values.length);
        return copy.address();
    }

    /** The {@code bytes} of caller-owned host memory at {@code address}: C vouches for them. */
    static Pointer host(long address, long bytes, int status, String function, String name) {
        long size = Math.max(bytes, 0);
        return Pointer.to(MemorySegment.ofAddress(checked(address, size, status, function, name)).reinterpret(size));
    }

    /** Memory the runtime knows at {@code address}: inside a device block or an aclrtMallocHost block; else null. */
    static Pointer known(long address) {
        Pointer device = Pointer.ofDeviceAddress(address);
        return device != null ? device : mallocHostPointer(address);
    }

    /** The pointer to {@code address} inside a live aclrtMallocHost block, or null. */
    static Pointer mallocHostPointer(long address) {
        var entry = HOST.floorEntry(address);
        if (entry == null || address - entry.getKey() >= entry.getValue().size()) {
            return null;
        }
        return entry.getValue().pointer().withByteOffset(address - entry.getKey());
    }

    static void addMallocHost(Pointer pointer, long size) {
        HOST.put(pointer.address(), new HostAllocation(pointer, size));
    }

    /** The aclrtMallocHost block starting at {@code address}, or null. */
    static Pointer mallocHostStart(long address) {
        HostAllocation allocation = HOST.get(address);
        return allocation == null ? null : allocation.pointer();
    }

    static void removeMallocHost(long address) {
        HOST.remove(address);
    }
}
