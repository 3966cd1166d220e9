package io.github.aclnn4j.nn;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclError;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclnnStatus;
import io.github.aclnn4j.acl.AclrtMemMallocPolicy;
import io.github.aclnn4j.acl.AclrtMemcpyKind;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.tensor.HalfFloats;
import io.github.aclnn4j.tensor.Shapes;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One device with a stream of its own, and the owner of every tensor made on it: {@link #close()}
 * waits for the stream and frees whatever the program left open.
 *
 * <p>Memory a tensor or an operator's workspace gives back is freed at once: the runtime hands it
 * to no other tensor before the work queued on the stream has run. Methods are thread-safe.
 */
public final class Device implements AutoCloseable {
    private final int id;
    private final AclrtStream stream;
    private final Set<Storage> open = new LinkedHashSet<>();
    private boolean closed;

    private Device(int id, AclrtStream stream) {
        this.id = id;
        this.stream = stream;
    }

    /** Device 0. */
    public static Device open() {
        return open(0);
    }

    /**
     * Initialises the runtime if nothing has ({@code aclInit}; an initialised one is used as it is),
     * sets {@code deviceId} for this thread and creates the device's stream.
     *
     * @throws AclnnException with layer 1's status, for a device that does not exist
     */
    public static Device open(int deviceId) {
        synchronized (Device.class) {
            int status = Acl.init(null);
            if (status != AclError.ACL_SUCCESS && status != AclError.ACL_ERROR_REPEAT_INITIALIZE) {
                throw failure(status);
            }
        }
        check(AclRt.setDevice(deviceId));
        AclrtStream stream = new AclrtStream();
        check(AclRt.createStream(stream));
        return new Device(deviceId, stream);
    }

    /** The device's id. */
    public int id() {
        return id;
    }

    /** A FLOAT tensor holding {@code data} in row-major order. */
    public Tensor tensor(float[] data, long... shape) {
        return tensor(DType.FLOAT, data, shape);
    }

    /**
     * A tensor of {@code dtype} holding {@code data} in row-major order: 16-bit floats rounded to
     * nearest even; integer and BOOL types take integral values in their range (BOOL 0 or 1).
     *
     * @throws IllegalArgumentException when {@code data} does not have the shape's element count, or
     *     holds a value the integer type cannot
     */
    public Tensor tensor(DType dtype, float[] data, long... shape) {
        checkedCount(data.length, shape);
        return fromBytes(dtype, Encoding.encode(dtype, data), shape);
    }

    /** An INT64 tensor holding {@code data} in row-major order. */
    public Tensor tensor(long[] data, long... shape) {
        checkedCount(data.length, shape);
        return fromBytes(DType.INT64, Encoding.encode(data), shape);
    }

    /** An INT32 tensor holding {@code data} in row-major order. */
    public Tensor tensor(int[] data, long... shape) {
        checkedCount(data.length, shape);
        return fromBytes(DType.INT32, Encoding.encode(data), shape);
    }

    /**
     * A tensor of {@code dtype} from its elements' bytes in row-major order and native byte order
     * (for readers of files, such as {@link Npy}).
     *
     * @throws IllegalArgumentException when the byte count is not the shape's
     */
    Tensor fromBytes(DType dtype, byte[] bytes, long... shape) {
        long n = Tensor.count(shape);
        if (bytes.length != n * dtype.byteSize()) {
            throw new IllegalArgumentException(bytes.length + " bytes do not hold " + dtype + " "
                    + java.util.Arrays.toString(shape));
        }
        Storage s = allocate(dtype, n);
        copyIn(s, bytes);
        return contiguous(s, dtype, shape);
    }

    /** A tensor of {@code dtype} filled with zeros. */
    public Tensor zeros(DType dtype, long... shape) {
        return newTensor(dtype, shape);
    }

    /**
     * Waits for every operator launched on this device.
     *
     * @throws AclnnException for an operator that failed while running (layer 1's status and message)
     */
    public synchronized void synchronize() {
        requireOpen();
        bind();
        check(AclRt.synchronizeStream(stream));
    }

    /**
     * Bytes of device memory held on this device id by the whole process (both layers), as the
     * runtime accounts them: what {@link #close()} gives back shows here.
     */
    public long bytesInUse() {
        return AclRuntime.usedDeviceBytes(id);
    }

    /**
     * Waits for the stream, frees every tensor made here that is still open and destroys the
     * stream; a second close does nothing. The runtime stays initialised for other users.
     *
     * @throws AclnnException for an operator that failed while running and whose failure no read
     *     has reported yet (after everything has been freed)
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        bind();
        int status = AclRt.synchronizeStream(stream);
        String message = status == AclError.ACL_SUCCESS ? null : Acl.getRecentErrMsg();
        for (Storage s : open) {
            s.freed = true;
            AclRt.free(s.pointer);
        }
        open.clear();
        AclRt.destroyStream(stream);
        closed = true;
        if (message != null) {
            throw new AclnnException(status, message);
        }
    }

    // ---- for Tensor and Functional

    AclrtStream stream() {
        return stream;
    }

    /** Makes this device the calling thread's current one, as layer 1's allocations need. */
    void bind() {
        check(AclRt.setDevice(id));
    }

    synchronized void requireOpen() {
        if (closed) {
            throw new AclnnException(AclnnStatus.ACLNN_ERR_PARAM_INVALID, "the device " + id + " is closed");
        }
    }

    /** A row-major tensor over fresh memory, which aclrtMalloc gives zeroed (an operator's output, say). */
    Tensor newTensor(DType dtype, long... shape) {
        return contiguous(allocate(dtype, Tensor.count(shape)), dtype, shape);
    }

    private Tensor contiguous(Storage s, DType dtype, long[] shape) {
        return new Tensor(this, s, dtype, shape.clone(), Shapes.contiguousStrides(shape), 0);
    }

    /** Fresh storage for {@code elements} of {@code dtype} (at least one byte, so empty tensors have an address). */
    private synchronized Storage allocate(DType dtype, long elements) {
        requireOpen();
        bind();
        long bytes = Math.max(1, Math.multiplyExact(elements, dtype.byteSize()));
        Pointer p = new Pointer();
        check(AclRt.malloc(p, bytes, AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST));
        Storage s = new Storage(this, p, bytes);
        open.add(s);
        return s;
    }

    /** Frees {@code s}; the runtime keeps it from other tensors until the queued work that uses it has run. */
    synchronized void release(Storage s) {
        if (open.remove(s)) {
            s.freed = true;
            check(AclRt.free(s.pointer));
        }
    }

    /** Frees a workspace, as {@link #release} frees a tensor's memory. */
    void releaseWorkspace(Pointer workspace) {
        check(AclRt.free(workspace));
    }

    /** The bytes of {@code s}'s {@code [from, from + count)} after waiting for the stream. */
    synchronized byte[] copyOut(Storage s, long from, long count) {
        synchronize();
        if (s.freed) {
            throw new AclnnException(AclnnStatus.ACLNN_ERR_PARAM_INVALID, "the tensor is closed");
        }
        byte[] bytes = new byte[Math.toIntExact(count)];
        if (count > 0) {
            check(AclRt.memcpy(Pointer.to(bytes), count, s.pointer.withByteOffset(from), count,
                    AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST));
        }
        return bytes;
    }

    private void copyIn(Storage s, byte[] bytes) {
        if (bytes.length > 0) {
            check(AclRt.memcpy(s.pointer, s.bytes, Pointer.to(bytes), bytes.length,
                    AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE));
        }
    }

    private static void checkedCount(int length, long[] shape) {
        long n = Tensor.count(shape);
        if (n != length) {
            throw new IllegalArgumentException("data has " + length + " elements, the shape "
                    + java.util.Arrays.toString(shape) + " holds " + n);
        }
    }

    /** Layer 1's status as an exception, with its message. */
    static void check(int status) {
        if (status != 0) {
            throw failure(status);
        }
    }

    static AclnnException failure(int status) {
        return new AclnnException(status, Acl.getRecentErrMsg());
    }

    @Override
    public String toString() {
        return "Device[" + id + (closed ? ", closed]" : "]");
    }

    /** Device memory shared by a tensor and its views, freed when the last of them closes. */
    static final class Storage {
        final Device device;
        final Pointer pointer;
        final long bytes;
        int views;
        boolean freed;

        Storage(Device device, Pointer pointer, long bytes) {
            this.device = device;
            this.pointer = pointer;
            this.bytes = bytes;
        }
    }

    /** Host arrays as the bytes of a dtype, in the device memory's (native) byte order. */
    static final class Encoding {
        private Encoding() {}

        static byte[] encode(DType dtype, float[] data) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(data.length * dtype.byteSize())
                    .order(java.nio.ByteOrder.nativeOrder());
            for (int i = 0; i < data.length; i++) {
                float v = data[i];
                switch (dtype) {
                    case FLOAT -> b.putFloat(v);
                    case FLOAT16 -> b.putShort(HalfFloats.toHalf(v));
                    case BFLOAT16 -> b.putShort(HalfFloats.toBf16(v));
                    case DOUBLE -> b.putDouble(v);
                    case INT64 -> b.putLong(integral(dtype, v, i, Long.MIN_VALUE, Long.MAX_VALUE));
                    case INT32 -> b.putInt((int) integral(dtype, v, i, Integer.MIN_VALUE, Integer.MAX_VALUE));
                    case UINT8 -> b.put((byte) integral(dtype, v, i, 0, 255));
                    case BOOL -> b.put((byte) integral(dtype, v, i, 0, 1));
                }
            }
            return b.array();
        }

        private static long integral(DType dtype, float v, int index, long min, long max) {
            if (v != Math.rint(v) || v < min || v > max) {
                throw new IllegalArgumentException("data[" + index + "] = " + v + " is not a " + dtype + " value");
            }
            return (long) v;
        }

        static byte[] encode(long[] data) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(data.length * 8).order(java.nio.ByteOrder.nativeOrder());
            for (long v : data) {
                b.putLong(v);
            }
            return b.array();
        }

        static byte[] encode(int[] data) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(data.length * 4).order(java.nio.ByteOrder.nativeOrder());
            for (int v : data) {
                b.putInt(v);
            }
            return b.array();
        }
    }
}
