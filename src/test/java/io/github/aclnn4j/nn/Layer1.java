package io.github.aclnn4j.nn;

import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import io.github.aclnn4j.tensor.Shapes;
import java.util.ArrayList;
import java.util.List;

/**
 * The same operator calls made through layer 1, as the calling examples in the demo package make
 * them: aclrtMalloc + aclrtMemcpy of each input, aclCreateTensor with the view's shape, strides and
 * offset, zero-filled contiguous outputs, phase 1, a workspace of the size it asks for, phase 2 on
 * this helper's own stream, aclrtSynchronizeStream, aclrtMemcpy back; {@link #close} destroys the
 * tensors and frees the buffers.
 */
final class Layer1 implements AutoCloseable {
    /** A layer-1 status and the message {@code aclGetRecentErrMsg} gave for it. */
    record Failure(int status, String message) {}

    /** An output buffer and its tensor. */
    record Output(AclTensor tensor, Pointer data, DType dtype, long[] shape) {}

    @FunctionalInterface
    interface Phase1 {
        int call(long[] workspaceSize, AclOpExecutor executor);
    }

    @FunctionalInterface
    interface Phase2 {
        int call(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    private final AclrtStream stream = new AclrtStream();
    private final List<Pointer> buffers = new ArrayList<>();
    private final List<AclTensor> tensors = new ArrayList<>();
    private final List<AclBoolArray> arrays = new ArrayList<>();

    Layer1() {
        TestDevice.init();
        ok("aclrtCreateStream", AclRt.createStream(stream));
    }

    /** {@code in} as a device buffer holding its base and a tensor of its view; null for null. */
    AclTensor input(Input in) {
        if (in == null) {
            return null;
        }
        int n = in.floats != null ? in.floats.length : in.longs.length;
        Pointer host;
        long bytes;
        switch (in.dtype) {
            case FLOAT -> {
                host = Pointer.to(in.floats.clone());
                bytes = 4L * n;
            }
            case FLOAT16, BFLOAT16 -> {
                host = Pointer.to(Bits.encode(in.dtype, in.floats));
                bytes = 2L * n;
            }
            case INT64 -> {
                host = Pointer.to(in.longs.clone());
                bytes = 8L * n;
            }
            case INT32 -> {
                int[] ints = new int[n];
                for (int i = 0; i < n; i++) {
                    ints[i] = Math.toIntExact(in.longs[i]);
                }
                host = Pointer.to(ints);
                bytes = 4L * n;
            }
            default -> throw new AssertionError("no layer-1 upload for " + in.dtype);
        }
        Pointer dev = malloc(bytes);
        if (bytes > 0) {
            ok("aclrtMemcpy", AclRt.memcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
        }
        return tensor(in.shape, in.strides, in.offset, in.dtype, in.baseShape, dev);
    }

    /** A zero-filled contiguous output. */
    Output output(DType dtype, long... shape) {
        Pointer dev = malloc(Shapes.numel(shape) * dtype.byteSize());
        return new Output(tensor(shape, Shapes.contiguousStrides(shape), 0, dtype, shape, dev), dev, dtype,
                shape.clone());
    }

    AclBoolArray boolArray(boolean... values) {
        AclBoolArray a = Acl.createBoolArray(values, values.length);
        assertNotNull(a, () -> "aclCreateBoolArray: " + Acl.getRecentErrMsg());
        arrays.add(a);
        return a;
    }

    private AclTensor tensor(long[] shape, long[] strides, long offset, DType dtype, long[] storage, Pointer dev) {
        AclTensor t = Acl.createTensor(shape, shape.length, dtype.aclDataType(), strides, offset, ACL_FORMAT_ND,
                storage, storage.length, dev);
        assertNotNull(t, () -> "aclCreateTensor: " + Acl.getRecentErrMsg());
        tensors.add(t);
        return t;
    }

    private Pointer malloc(long bytes) {
        Pointer p = new Pointer();
        ok("aclrtMalloc", AclRt.malloc(p, Math.max(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST));
        buffers.add(p);
        return p;
    }

    /** Both phases and a synchronize, which must all succeed. */
    void run(Phase1 phase1, Phase2 phase2) {
        Failure f = attempt(phase1, phase2);
        if (f != null) {
            throw new AssertionError("layer 1 failed: " + f.status() + " " + f.message());
        }
    }

    /**
     * Both phases and a synchronize; null when all succeed, else the first failing status with
     * {@code aclGetRecentErrMsg}'s message for it.
     */
    Failure attempt(Phase1 phase1, Phase2 phase2) {
        long[] workspaceSize = {0};
        AclOpExecutor executor = new AclOpExecutor();
        int ret = phase1.call(workspaceSize, executor);
        if (ret != 0) {
            return new Failure(ret, Acl.getRecentErrMsg());
        }
        Pointer workspace = new Pointer();
        if (workspaceSize[0] > 0) {
            workspace = malloc(workspaceSize[0]);
        }
        ret = phase2.call(workspace, workspaceSize[0], executor, stream);
        if (ret != 0) {
            return new Failure(ret, Acl.getRecentErrMsg());
        }
        ret = AclRt.synchronizeStream(stream);
        if (ret != 0) {
            return new Failure(ret, Acl.getRecentErrMsg());
        }
        return null;
    }

    /** An output's elements, 16-bit dtypes widened to float. */
    float[] read(Output out) {
        int n = Math.toIntExact(Shapes.numel(out.shape()));
        if (out.dtype() == DType.FLOAT) {
            float[] host = new float[n];
            if (n > 0) {
                ok("aclrtMemcpy", AclRt.memcpy(Pointer.to(host), 4L * n, out.data(), 4L * n,
                        ACL_MEMCPY_DEVICE_TO_HOST));
            }
            return host;
        }
        short[] host = new short[n];
        if (n > 0) {
            ok("aclrtMemcpy", AclRt.memcpy(Pointer.to(host), 2L * n, out.data(), 2L * n, ACL_MEMCPY_DEVICE_TO_HOST));
        }
        return Bits.decode(out.dtype(), host);
    }

    @Override
    public void close() {
        for (AclTensor t : tensors) {
            ok("aclDestroyTensor", Acl.destroyTensor(t));
        }
        for (AclBoolArray a : arrays) {
            ok("aclDestroyBoolArray", Acl.destroyBoolArray(a));
        }
        for (Pointer p : buffers) {
            ok("aclrtFree", AclRt.free(p));
        }
        ok("aclrtDestroyStream", AclRt.destroyStream(stream));
    }

    private static void ok(String what, int ret) {
        assertEquals(0, ret, () -> what + " failed: " + ret + " " + Acl.getRecentErrMsg());
    }
}
