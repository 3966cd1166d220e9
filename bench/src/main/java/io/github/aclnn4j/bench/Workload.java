package io.github.aclnn4j.bench;

import static io.github.aclnn4j.acl.AclDataType.ACL_BF16;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT16;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One benchmark workload of issue 3 on device tensors: made once, then {@link #run()} as a caller
 * would (phase 1, phase 2, synchronize). {@link #minBytes()} is what any implementation must at
 * least read and write, the basis of the GB/s figures.
 */
public final class Workload implements AutoCloseable {
    /** The workloads, with the sizes of the issue. */
    /** The dtypes every workload runs in, in table order. */
    static final int[] DTYPES = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16};

    public enum Kind {
        BCE_BACKWARD_MEAN("BCE backward mean", "2^24"),
        BCE_LOGITS_NONE("BCE-with-logits none", "2^24"),
        BCE_LOGITS_MEAN("BCE-with-logits mean", "2^24"),
        PRELU_BACKWARD("PReLU backward", "64x256x32x32, 256 w"),
        GROUP_NORM_BACKWARD("GroupNorm backward", "N32 C256 HxW1024 g32"),
        NLL_BACKWARD_MEAN("NLL backward mean", "65536x256"),
        BCE_BACKWARD_2X2("BCE backward 2x2 call", "2x2");

        public final String title;
        public final String size;

        Kind(String title, String size) {
            this.title = title;
            this.size = size;
        }
    }

    private interface Phase1 {
        int plan(long[] workspaceSize, AclOpExecutor executor);
    }

    private interface Phase2 {
        int launch(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    private final List<Pointer> buffers = new ArrayList<>();
    private final List<AclTensor> tensors = new ArrayList<>();
    private final AclrtStream stream = new AclrtStream();
    private final long[] workspaceSize = new long[1];
    private final AclOpExecutor executor = new AclOpExecutor();
    private final int dtype;
    private final int elementBytes;
    private Pointer workspace = new Pointer();
    private long workspaceCapacity;
    private Phase1 phase1;
    private Phase2 phase2;
    private long minBytes;

    private Workload(int dtype) {
        this.dtype = dtype;
        this.elementBytes = dtype == ACL_FLOAT ? 4 : 2;
        check(AclRt.createStream(stream), "aclrtCreateStream");
    }

    /** Initialises the runtime once for the whole process. */
    public static void initRuntime() {
        Acl.init(null);
        check(AclRt.setDevice(0), "aclrtSetDevice");
    }

    public static Workload create(Kind kind, int dtype) {
        Workload w = new Workload(dtype);
        w.build(kind);
        w.run(); // sizes the workspace and warms the path
        return w;
    }

    public long minBytes() {
        return minBytes;
    }

    /** Phase 1, phase 2 and synchronize, as a caller would. */
    public void run() {
        check(phase1.plan(workspaceSize, executor), "phase 1");
        if (workspaceSize[0] > workspaceCapacity) {
            if (workspaceCapacity > 0) {
                AclRt.free(workspace);
            }
            workspace = new Pointer();
            check(AclRt.malloc(workspace, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST), "workspace");
            workspaceCapacity = workspaceSize[0];
        }
        check(phase2.launch(workspace, workspaceSize[0], executor, stream), "phase 2");
        check(AclRt.synchronizeStream(stream), "synchronize");
    }

    private void build(Kind kind) {
        long n = 1L << 24;
        switch (kind) {
            case BCE_BACKWARD_MEAN, BCE_BACKWARD_2X2 -> {
                long[] shape = kind == Kind.BCE_BACKWARD_2X2 ? new long[] {2, 2} : new long[] {n};
                AclTensor grad = tensor(new long[0], dtype, 0.5f, 0.5f);
                AclTensor self = tensor(shape, dtype, 0.01f, 0.99f);
                AclTensor target = tensor(shape, dtype, 0f, 1f);
                AclTensor out = tensor(shape, dtype, 0f, 0f);
                int reduction = kind == Kind.BCE_BACKWARD_2X2 ? 0 : 1;
                phase1 = (ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(grad, self, target, null,
                        reduction, out, ws, ex);
                phase2 = Aclnn::binaryCrossEntropyBackward;
                minBytes = 3 * numel(shape) * elementBytes;
            }
            case BCE_LOGITS_NONE, BCE_LOGITS_MEAN -> {
                long[] shape = {n};
                boolean none = kind == Kind.BCE_LOGITS_NONE;
                AclTensor self = tensor(shape, dtype, -8f, 8f);
                AclTensor target = tensor(shape, dtype, 0f, 1f);
                AclTensor out = tensor(none ? shape : new long[] {1}, dtype, 0f, 0f);
                phase1 = (ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(self, target, null, null,
                        none ? 0 : 1, out, ws, ex);
                phase2 = Aclnn::binaryCrossEntropyWithLogits;
                minBytes = (none ? 3 : 2) * n * elementBytes;
            }
            case PRELU_BACKWARD -> {
                long[] shape = {64, 256, 32, 32};
                AclTensor grad = tensor(shape, dtype, -1f, 1f);
                AclTensor self = tensor(shape, dtype, -1f, 1f);
                AclTensor weight = tensor(new long[] {256}, dtype, 0f, 0.5f);
                AclTensor gradInput = tensor(shape, dtype, 0f, 0f);
                AclTensor gradWeight = tensor(new long[] {256}, dtype, 0f, 0f);
                phase1 = (ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(grad, self, weight, gradInput, gradWeight,
                        ws, ex);
                phase2 = Aclnn::preluBackward;
                minBytes = 3 * numel(shape) * elementBytes;
            }
            case GROUP_NORM_BACKWARD -> {
                long[] shape = {32, 256, 32, 32};
                AclTensor dy = tensor(shape, dtype, -1f, 1f);
                AclTensor x = tensor(shape, dtype, -2f, 2f);
                AclTensor mean = tensor(new long[] {32, 32}, dtype, -0.1f, 0.1f);
                AclTensor rstd = tensor(new long[] {32, 32}, dtype, 0.5f, 1.5f);
                AclTensor gamma = tensor(new long[] {256}, dtype, 0.5f, 1.5f);
                AclTensor gradInput = tensor(shape, dtype, 0f, 0f);
                AclTensor gradGamma = tensor(new long[] {256}, dtype, 0f, 0f);
                AclTensor gradBeta = tensor(new long[] {256}, dtype, 0f, 0f);
                AclBoolArray mask = Acl.createBoolArray(new boolean[] {true, true, true}, 3);
                phase1 = (ws, ex) -> Aclnn.groupNormBackwardGetWorkspaceSize(dy, x, mean, rstd, gamma, 32, 256, 1024,
                        32, mask, gradInput, gradGamma, gradBeta, ws, ex);
                phase2 = Aclnn::groupNormBackward;
                minBytes = 3 * numel(shape) * elementBytes;
            }
            case NLL_BACKWARD_MEAN -> {
                long rows = 65536;
                long classes = 256;
                AclTensor grad = tensor(new long[] {1}, dtype, 1f, 1f);
                AclTensor self = tensor(new long[] {rows, classes}, dtype, -1f, 0f);
                AclTensor weight = tensor(new long[] {classes}, dtype, 1f, 1f);
                AclTensor totalWeight = tensor(new long[] {1}, dtype, rows, rows);
                AclTensor out = tensor(new long[] {rows, classes}, dtype, 0f, 0f);
                long[] targets = new SplittableRandom(7).longs(rows, 0, classes).toArray();
                AclTensor target = upload(new long[] {rows}, ACL_INT64, Pointer.to(targets), rows * 8);
                phase1 = (ws, ex) -> Aclnn.nllLossBackwardGetWorkspaceSize(grad, self, target, weight, 1, -100,
                        totalWeight, out, ws, ex);
                phase2 = Aclnn::nllLossBackward;
                minBytes = rows * classes * elementBytes + rows * 8;
            }
            default -> throw new IllegalArgumentException(kind.name());
        }
    }

    private static long numel(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** A device tensor of {@code shape} filled with uniform values in [lo, hi] (seeded). */
    private AclTensor tensor(long[] shape, int type, float lo, float hi) {
        int n = (int) numel(shape);
        SplittableRandom random = new SplittableRandom(shape.length * 31L + n);
        if (type == ACL_FLOAT) {
            float[] host = new float[n];
            for (int i = 0; i < n; i++) {
                host[i] = lo + (hi - lo) * (float) random.nextDouble();
            }
            return upload(shape, type, Pointer.to(host), n * 4L);
        }
        short[] host = new short[n];
        for (int i = 0; i < n; i++) {
            float v = lo + (hi - lo) * (float) random.nextDouble();
            host[i] = type == ACL_FLOAT16 ? Float.floatToFloat16(v) : (short) (Float.floatToRawIntBits(v) >>> 16);
        }
        return upload(shape, type, Pointer.to(host), n * 2L);
    }

    private AclTensor upload(long[] shape, int type, Pointer host, long bytes) {
        Pointer dev = new Pointer();
        check(AclRt.malloc(dev, Math.max(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        if (bytes > 0) {
            check(AclRt.memcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
        }
        buffers.add(dev);
        AclTensor t = Acl.createTensor(shape, shape.length, type, null, 0, ACL_FORMAT_ND, shape, shape.length, dev);
        tensors.add(t);
        return t;
    }

    static void check(int status, String what) {
        if (status != 0) {
            throw new IllegalStateException(what + " failed: " + status + " " + Acl.getRecentErrMsg());
        }
    }

    /** The ACL dtype code of FLOAT, BFLOAT16 or FLOAT16, as {@link #dtypeName} spells them. */
    public static int dtypeCode(String name) {
        return switch (name) {
            case "FLOAT" -> ACL_FLOAT;
            case "FLOAT16" -> ACL_FLOAT16;
            case "BFLOAT16" -> ACL_BF16;
            default -> throw new IllegalArgumentException("not FLOAT, BFLOAT16 or FLOAT16: " + name);
        };
    }

    public static String dtypeName(int dtype) {
        return switch (dtype) {
            case ACL_FLOAT -> "FLOAT";
            case ACL_FLOAT16 -> "FLOAT16";
            case ACL_BF16 -> "BFLOAT16";
            default -> String.valueOf(dtype);
        };
    }

    @Override
    public void close() {
        tensors.forEach(Acl::destroyTensor);
        buffers.forEach(AclRt::free);
        if (workspaceCapacity > 0) {
            AclRt.free(workspace);
        }
        AclRt.destroyStream(stream);
    }
}
