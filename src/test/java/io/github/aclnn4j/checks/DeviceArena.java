package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclFormat;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Device buffers and tensors made for one test, all released by {@link #close()}. Remembers how
 * each tensor was made, so a test can remake it with one property changed (format, offset, data
 * pointer...).
 */
public final class DeviceArena implements AutoCloseable {
    /** The arguments of {@code aclCreateTensor}; a null {@code strides} means contiguous. */
    public record TensorSpec(Pointer data, int dtype, long[] shape, long[] strides, long offset, int format) {
        public TensorSpec withData(Pointer p) {
            return new TensorSpec(p, dtype, shape, strides, offset, format);
        }

        public TensorSpec withDtype(int t) {
            return new TensorSpec(data, t, shape, strides, offset, format);
        }

        public TensorSpec withShape(long... s) {
            return new TensorSpec(data, dtype, s, null, offset, format);
        }

        public TensorSpec withStrides(long... s) {
            return new TensorSpec(data, dtype, shape, s, offset, format);
        }

        public TensorSpec withOffset(long o) {
            return new TensorSpec(data, dtype, shape, strides, o, format);
        }

        public TensorSpec withFormat(int f) {
            return new TensorSpec(data, dtype, shape, strides, offset, f);
        }
    }

    private final List<Pointer> buffers = new ArrayList<>();
    private final Map<AclTensor, TensorSpec> tensors = new IdentityHashMap<>();
    private final List<AclBoolArray> boolArrays = new ArrayList<>();

    public DeviceArena() {
        TestDevice.init();
    }

    public static int elementSize(int dtype) {
        return switch (dtype) {
            case ACL_FLOAT, ACL_INT32, ACL_UINT32 -> 4;
            case ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_UINT16 -> 2;
            case ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_STRING -> 1;
            case ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_COMPLEX64 -> 8;
            case ACL_COMPLEX128 -> 16;
            default -> throw new IllegalArgumentException("no size for dtype " + dtype);
        };
    }

    public static boolean isFloating(int dtype) {
        return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
    }

    public static long numel(long... shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** A zero-filled device buffer of {@code bytes} bytes (at least 1), freed on close. */
    public Pointer buffer(long bytes) {
        Pointer p = TestDevice.malloc(bytes);
        buffers.add(p);
        return p;
    }

    /** A device buffer holding {@code values} encoded as {@code dtype}. */
    public Pointer upload(int dtype, double... values) {
        byte[] bytes = encode(dtype, values);
        Pointer p = buffer(bytes.length);
        if (bytes.length > 0) {
            Calls.ok("aclrtMemcpy H2D", () -> AclRt.memcpy(p, bytes.length, Pointer.to(bytes), bytes.length,
                    ACL_MEMCPY_HOST_TO_DEVICE));
        }
        return p;
    }

    /** Frees {@code p} now (the test wants freed memory); close() will not free it again. */
    public void free(Pointer p) {
        buffers.remove(p);
        TestDevice.free(p);
    }

    public AclTensor create(TensorSpec spec) {
        long rank = spec.shape().length;
        AclTensor t = Calls.value("aclCreateTensor", () -> Acl.createTensor(spec.shape(), rank, spec.dtype(),
                spec.strides(), spec.offset(), spec.format(), spec.shape(), rank, spec.data()));
        assertNotNull(t, () -> "aclCreateTensor " + Arrays.toString(spec.shape()) + ": " + Acl.getRecentErrMsg());
        tensors.put(t, spec);
        return t;
    }

    /** A contiguous ND tensor of {@code dtype}: floating types hold 0.5, integer types 0. */
    public AclTensor tensor(int dtype, long... shape) {
        double[] values = new double[Math.toIntExact(numel(shape))];
        if (isFloating(dtype)) {
            Arrays.fill(values, 0.5);
        }
        return values(dtype, values, shape);
    }

    /** A contiguous ND tensor of {@code dtype} holding {@code values}. */
    public AclTensor values(int dtype, double[] values, long... shape) {
        return create(new TensorSpec(upload(dtype, values), dtype, shape, null, 0, AclFormat.ACL_FORMAT_ND));
    }

    public TensorSpec spec(AclTensor t) {
        TensorSpec s = tensors.get(t);
        if (s == null) {
            throw new IllegalArgumentException("tensor not made by this arena");
        }
        return s;
    }

    /** A new tensor made like {@code t} with {@code change} applied to its creation arguments. */
    public AclTensor like(AclTensor t, UnaryOperator<TensorSpec> change) {
        return create(change.apply(spec(t)));
    }

    public AclBoolArray boolArray(boolean... values) {
        AclBoolArray a = Calls.value("aclCreateBoolArray", () -> Acl.createBoolArray(values, values.length));
        assertNotNull(a, () -> "aclCreateBoolArray: " + Acl.getRecentErrMsg());
        boolArrays.add(a);
        return a;
    }

    /** {@code bytes} bytes of device memory at {@code p}, copied to the host. */
    public static byte[] readBytes(Pointer p, int bytes) {
        byte[] out = new byte[bytes];
        if (bytes > 0) {
            Calls.ok("aclrtMemcpy D2H",
                    () -> AclRt.memcpy(Pointer.to(out), bytes, p, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
        }
        return out;
    }

    /** The FLOAT values at {@code p}. */
    public static float[] readFloats(Pointer p, int count) {
        float[] out = new float[count];
        if (count > 0) {
            Calls.ok("aclrtMemcpy D2H", () -> AclRt.memcpy(Pointer.to(out), count * 4L, p, count * 4L,
                    ACL_MEMCPY_DEVICE_TO_HOST));
        }
        return out;
    }

    /** Copies {@code values} to the FLOAT memory at {@code p}. */
    public static void writeFloats(Pointer p, float[] values) {
        Calls.ok("aclrtMemcpy H2D", () -> AclRt.memcpy(p, values.length * 4L, Pointer.to(values),
                values.length * 4L, ACL_MEMCPY_HOST_TO_DEVICE));
    }

    /** The first {@code bytes} bytes at tensor {@code t}'s data pointer. */
    public byte[] dataBytes(AclTensor t, int bytes) {
        return readBytes(spec(t).data(), bytes);
    }

    static byte[] encode(int dtype, double[] values) {
        int size = elementSize(dtype);
        ByteBuffer b = ByteBuffer.allocate(values.length * size).order(ByteOrder.nativeOrder());
        for (double v : values) {
            switch (dtype) {
                case ACL_FLOAT -> b.putFloat((float) v);
                case ACL_DOUBLE -> b.putDouble(v);
                case ACL_FLOAT16 -> b.putShort(Float.floatToFloat16((float) v));
                case ACL_BF16 -> b.putShort(bf16Bits((float) v));
                case ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_STRING -> b.put((byte) (long) v);
                case ACL_INT16, ACL_UINT16 -> b.putShort((short) (long) v);
                case ACL_INT32, ACL_UINT32 -> b.putInt((int) (long) v);
                case ACL_INT64, ACL_UINT64 -> b.putLong((long) v);
                case ACL_COMPLEX64 -> b.putFloat((float) v).putFloat(0f);
                case ACL_COMPLEX128 -> b.putDouble(v).putDouble(0);
                default -> throw new IllegalArgumentException("cannot encode dtype " + dtype);
            }
        }
        return b.array();
    }

    /** bfloat16 bits of {@code f}, rounded to nearest-even (the test values are finite). */
    static short bf16Bits(float f) {
        int bits = Float.floatToRawIntBits(f);
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    /** Destroys every tensor and array and frees every buffer; failures here are not the test's subject. */
    @Override
    public void close() {
        for (AclTensor t : tensors.keySet()) {
            Calls.status("aclDestroyTensor", () -> Acl.destroyTensor(t));
        }
        for (AclBoolArray a : boolArrays) {
            Calls.status("aclDestroyBoolArray", () -> Acl.destroyBoolArray(a));
        }
        for (Pointer p : buffers) {
            Calls.status("aclrtFree", () -> AclRt.free(p));
        }
        tensors.clear();
        boolArrays.clear();
        buffers.clear();
        Acl.getRecentErrMsg();
    }
}
