package io.github.aclnn4j.reference;

import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.util.Arrays;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * A tensor on the device together with a host copy of its whole allocation, so that a case can
 * read the view's values as the dtype stores them, and after a run check both the view and every
 * element around it. Inside {@link #inJavaArrays} the tensors lie in Java arrays instead (host
 * memory, which aclCreateTensor also takes).
 */
public final class DeviceTensor implements AutoCloseable {
    /** What outputs are filled with before a run: unlikely results in every dtype, and not NaN. */
    private static final long FLOAT_SENTINEL = Float.floatToRawIntBits(-12345.678f) & 0xFFFFFFFFL;
    private static final long HALF_SENTINEL = 0xF1D3;

    public final String name;
    public final StoredType type;
    public final StridedLayout layout;
    private static final ThreadLocal<Boolean> IN_JAVA_ARRAYS = ThreadLocal.withInitial(() -> false);

    private final long[] bits;
    /** The Java array holding the tensor, or null when it lies in device memory. */
    private final Object javaArray;
    private final Pointer allocation;
    public final AclTensor tensor;

    private DeviceTensor(String name, StoredType type, StridedLayout layout, long[] bits) {
        this.name = name;
        this.type = type;
        this.layout = layout;
        this.bits = bits;
        if (IN_JAVA_ARRAYS.get()) {
            this.javaArray = hostArray(true);
            this.allocation = pointerTo(javaArray);
        } else {
            this.javaArray = null;
            this.allocation = TestDevice.malloc(bits.length * (long) type.bytes);
            copy(hostArray(true), true);
        }
        Pointer data = allocation.withByteOffset(layout.lead() * type.bytes);
        long[] storage = {layout.allocation() - layout.lead()};
        this.tensor = Acl.createTensor(layout.shape(), layout.shape().length, type.code,
                layout.nullStrides() ? null : layout.strides(), layout.offset(), layout.format(), storage, 1, data);
        if (tensor == null) {
            throw new AssertionError("aclCreateTensor(" + describe() + ") failed: " + Acl.getRecentErrMsg());
        }
    }

    /** An input whose whole allocation holds values drawn from {@code values}, rounded to the dtype. */
    public static DeviceTensor input(String name, StoredType type, StridedLayout layout, DoubleSupplier values) {
        long[] bits = new long[Math.toIntExact(layout.allocation())];
        for (int i = 0; i < bits.length; i++) {
            bits[i] = type.encode(values.getAsDouble());
        }
        return new DeviceTensor(name, type, layout, bits);
    }

    /** An output whose whole allocation holds the sentinel. */
    public static DeviceTensor output(String name, StoredType type, StridedLayout layout) {
        long[] bits = new long[Math.toIntExact(layout.allocation())];
        Arrays.fill(bits, type.bytes == 2 ? HALF_SENTINEL : FLOAT_SENTINEL);
        return new DeviceTensor(name, type, layout, bits);
    }

    /** {@code body}, with the tensors that this thread creates meanwhile in Java arrays. */
    public static <T> T inJavaArrays(Supplier<T> body) {
        IN_JAVA_ARRAYS.set(true);
        try {
            return body.get();
        } finally {
            IN_JAVA_ARRAYS.set(false);
        }
    }

    /** The view's values in row-major order, as the host copy holds them. */
    public double[] values() {
        int[] positions = layout.elementPositions();
        double[] values = new double[positions.length];
        for (int i = 0; i < positions.length; i++) {
            values[i] = type.decode(bits[positions[i]]);
        }
        return values;
    }

    /** The view's values with its shape, as the reference takes them. */
    /** Its values in row-major order, one per call: for a tensor of another layout with the same values. */
    public java.util.function.DoubleSupplier replay() {
        double[] v = values();
        int[] next = {0};
        return () -> v[next[0]++];
    }

    public Reference.Arr arr() {
        return new Reference.Arr(layout.shape(), values());
    }

    /** The raw bits of the view after a run, in row-major order; every element outside the view must be unchanged. */
    public long[] readOutputBits() {
        long[] now = download();
        boolean[] inView = new boolean[now.length];
        int[] positions = layout.elementPositions();
        long[] viewBits = new long[positions.length];
        for (int i = 0; i < positions.length; i++) {
            inView[positions[i]] = true;
            viewBits[i] = now[positions[i]];
        }
        for (int i = 0; i < now.length; i++) {
            if (!inView[i] && now[i] != bits[i]) {
                throw new AssertionError(name + ": allocation element " + i + " outside the view was overwritten (0x"
                        + Long.toHexString(bits[i]) + " -> 0x" + Long.toHexString(now[i]) + "); " + describe());
            }
        }
        return viewBits;
    }

    /** Every element of the allocation is as uploaded (inputs, and outputs that must not be written). */
    public void assertUntouched() {
        long[] now = download();
        for (int i = 0; i < now.length; i++) {
            if (now[i] != bits[i]) {
                throw new AssertionError(name + ": allocation element " + i + " was modified (0x"
                        + Long.toHexString(bits[i]) + " -> 0x" + Long.toHexString(now[i]) + "); " + describe());
            }
        }
    }

    public String describe() {
        return name + " " + type + " " + layout.describe();
    }

    @Override
    public void close() {
        Acl.destroyTensor(tensor);
        if (javaArray == null) {
            TestDevice.free(allocation);
        }
    }

    private long[] download() {
        Object host = javaArray;
        if (host == null) {
            host = hostArray(false);
            copy(host, false);
        }
        long[] now = new long[bits.length];
        for (int i = 0; i < now.length; i++) {
            now[i] = switch (host) {
                case int[] a -> a[i] & 0xFFFFFFFFL;
                case short[] a -> a[i] & 0xFFFFL;
                case long[] a -> a[i];
                case byte[] a -> a[i] & 0xFFL;
                default -> throw new IllegalStateException();
            };
        }
        return now;
    }

    /** A host array of this type's width, holding {@link #bits} when {@code filled}, zeros otherwise. */
    private Object hostArray(boolean filled) {
        int n = bits.length;
        int filledLength = filled ? n : 0;
        return switch (type.bytes) {
            case 4 -> {
                int[] a = new int[n];
                for (int i = 0; i < filledLength; i++) {
                    a[i] = (int) bits[i];
                }
                yield a;
            }
            case 2 -> {
                short[] a = new short[n];
                for (int i = 0; i < filledLength; i++) {
                    a[i] = (short) bits[i];
                }
                yield a;
            }
            case 8 -> filled ? bits.clone() : new long[n];
            default -> {
                byte[] a = new byte[n];
                for (int i = 0; i < filledLength; i++) {
                    a[i] = (byte) bits[i];
                }
                yield a;
            }
        };
    }

    private void copy(Object host, boolean toDevice) {
        long bytes = bits.length * (long) type.bytes;
        if (bytes == 0) {
            return;
        }
        Pointer hostPointer = pointerTo(host);
        int ret = toDevice ? AclRt.memcpy(allocation, bytes, hostPointer, bytes, ACL_MEMCPY_HOST_TO_DEVICE)
                : AclRt.memcpy(hostPointer, bytes, allocation, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != 0) {
            throw new AssertionError("aclrtMemcpy for " + describe() + ": " + ret + " " + Acl.getRecentErrMsg());
        }
    }

    private static Pointer pointerTo(Object host) {
        return switch (host) {
            case int[] a -> Pointer.to(a);
            case short[] a -> Pointer.to(a);
            case long[] a -> Pointer.to(a);
            case byte[] a -> Pointer.to(a);
            default -> throw new IllegalStateException();
        };
    }
}
