package io.github.aclnn4j.acl;

import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.runtime.DeviceBlock;
import io.github.aclnn4j.runtime.HostBlock;
import io.github.aclnn4j.runtime.MemoryBlock;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A C {@code void*}: a device address from {@link AclRt#malloc}, or host memory (a Java array or a
 * segment). {@code new Pointer()} is the null pointer, to be filled by {@code AclRt.malloc} or
 * {@code AclRt.mallocHost}. A pointer knows the block it points into, so every use is bounds-checked
 * and a freed block is never touched.
 */
public final class Pointer {
    /** Where the pointer points; null for the null pointer. Replaced whole, so reads need no lock. */
    private record Target(MemoryBlock block, long byteOffset) {}

    private volatile Target target;

    /** The null pointer. */
    public Pointer() {}

    private Pointer(MemoryBlock block, long byteOffset) {
        this.target = new Target(block, byteOffset);
    }

    /** Host memory over {@code array}, without copying; null gives the null pointer. */
    public static Pointer to(float[] array) {
        return array == null ? new Pointer() : host(MemorySegment.ofArray(array));
    }

    /** Host memory over DOUBLE values, without copying; null gives the null pointer. */
    public static Pointer to(double[] array) {
        return array == null ? new Pointer() : host(MemorySegment.ofArray(array));
    }

    /** Host memory over 16-bit values, e.g. FLOAT16 or BFLOAT16 bit patterns. */
    public static Pointer to(short[] array) {
        return array == null ? new Pointer() : host(MemorySegment.ofArray(array));
    }

    /** Host memory over 32-bit values, e.g. INT32; null gives the null pointer. */
    public static Pointer to(int[] array) {
        return array == null ? new Pointer() : host(MemorySegment.ofArray(array));
    }

    /** Host memory over 64-bit values, e.g. INT64; null gives the null pointer. */
    public static Pointer to(long[] array) {
        return array == null ? new Pointer() : host(MemorySegment.ofArray(array));
    }

    /** Host memory over bytes, e.g. INT8, UINT8 or BOOL values; null gives the null pointer. */
    public static Pointer to(byte[] array) {
        return array == null ? new Pointer() : host(MemorySegment.ofArray(array));
    }

    /** Host memory over {@code segment} (which the caller keeps alive); null gives the null pointer. */
    public static Pointer to(MemorySegment segment) {
        return segment == null ? new Pointer() : host(segment);
    }

    private static Pointer host(MemorySegment segment) {
        return new Pointer(HostBlock.wrap(segment), 0);
    }

    /**
     * The device pointer whose {@link #address()} is {@code address}, for callers that hold device
     * addresses as numbers (the C ABI): {@code address} may point anywhere inside a live
     * {@link AclRt#malloc} block. Returns null when no live device allocation contains it.
     */
    public static Pointer ofDeviceAddress(long address) {
        DeviceBlock block = AclRuntime.findDeviceBlock(address);
        return block == null ? null : new Pointer(block, address - block.address());
    }

    /** The address {@code this + bytes}, in the same allocation. The null pointer stays null. */
    public Pointer withByteOffset(long bytes) {
        Target t = target;
        return t == null ? new Pointer() : new Pointer(t.block, t.byteOffset + bytes);
    }

    /** Whether this is the null pointer. */
    public boolean isNull() {
        return target == null;
    }

    /** The numeric address: real for device and native host memory, 0 for null and for Java arrays. */
    public long address() {
        Target t = target;
        if (t == null) {
            return 0;
        }
        if (t.block instanceof DeviceBlock d) {
            return d.address() + t.byteOffset;
        }
        MemorySegment s = t.block.isLive() ? t.block.segment() : null;
        return s != null && s.isNative() ? s.address() + t.byteOffset : 0;
    }

    /** The block pointed into, or null for the null pointer. */
    MemoryBlock block() {
        Target t = target;
        return t == null ? null : t.block;
    }

    long byteOffset() {
        Target t = target;
        return t == null ? 0 : t.byteOffset;
    }

    void set(MemoryBlock block, long byteOffset) {
        target = block == null ? null : new Target(block, byteOffset);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Pointer p && Objects.equals(target, p.target);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(target);
    }

    @Override
    public String toString() {
        Target t = target;
        return t == null ? "Pointer[null]" : "Pointer[" + t.block.describe() + " + " + t.byteOffset + "]";
    }
}
