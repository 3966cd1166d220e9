package io.github.aclnn4j.bench;

import static io.github.aclnn4j.acl.AclDataType.ACL_BF16;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT16;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT32;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static io.github.aclnn4j.acl.AclDataType.ACL_UINT8;
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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One line of {@code bench/usage.txt} (its header defines the fields) as layer-1 device tensors,
 * made once; {@link #run} is one call as a program makes it: phase 1, phase 2, synchronize.
 * PyTorch's side ({@code bench/torch_usage.py}) builds the same shapes, layouts and value ranges.
 */
final class UsageCall implements AutoCloseable {
    private interface Phase1 {
        int plan(long[] workspaceSize, AclOpExecutor executor);
    }

    private interface Phase2 {
        int launch(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    final int line;
    final String text;
    final Map<String, String> fields = new LinkedHashMap<>();
    final boolean sweep;
    final long elements;
    private final int dtype;
    private final String layout;
    private final SplittableRandom random;
    private final List<Pointer> buffers = new ArrayList<>();
    private final List<AclTensor> tensors = new ArrayList<>();
    private Phase1 phase1;
    private Phase2 phase2;
    private final long[] workspaceSize = new long[1];
    private Pointer workspace = new Pointer();
    private long workspaceBytes;

    /** Parses {@code text}, line {@code line} of usage.txt; {@link #make} allocates its tensors. */
    UsageCall(int line, String text) {
        this.line = line;
        this.text = text.strip();
        String body = this.text;
        sweep = body.startsWith("sweep ");
        if (sweep) {
            body = body.substring(6);
        }
        for (String field : body.split("\\s+")) {
            int eq = field.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("line " + line + ": not key=value: " + field);
            }
            fields.put(field.substring(0, eq), field.substring(eq + 1));
        }
        dtype = switch (field("dtype")) {
            case "FLOAT" -> ACL_FLOAT;
            case "BF16" -> ACL_BF16;
            case "FLOAT16" -> ACL_FLOAT16;
            default -> throw new IllegalArgumentException("line " + line + ": dtype " + field("dtype"));
        };
        layout = fields.getOrDefault("layout", "contiguous");
        elements = numel(shape());
        random = new SplittableRandom(line);
    }

    String field(String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new IllegalArgumentException("line " + line + ": no " + key + "=");
        }
        return v;
    }

    String op() {
        return field("op");
    }

    String layout() {
        return layout;
    }

    long[] shape() {
        return Arrays.stream(field("shape").split(",")).mapToLong(Long::parseLong).toArray();
    }

    /** The call without the fields that make a variant: the dense call of the same op, dtype and shape. */
    String denseKey() {
        return op() + " " + field("dtype") + " " + field("shape");
    }

    /** Allocates and fills the tensors and plans nothing yet. */
    UsageCall make() {
        long[] shape = shape();
        int rank = shape.length;
        long last = shape[rank - 1];
        switch (op()) {
            case "bce_backward" -> {
                AclTensor grad = switch (field("grad")) {
                    case "0d" -> values(new long[0], 0.5, 0.5, "contiguous");
                    case "dense" -> values(shape, -1, 1, layout);
                    case "row" -> values(new long[] {last}, -1, 1, "contiguous");
                    default -> throw bad("grad");
                };
                AclTensor self = values(shape, 0.02, 0.98, layout);
                AclTensor target = values(shape, 0, 1, layout);
                AclTensor weight = optional("weight", shape, 0, 2);
                AclTensor out = output(shape);
                int reduction = reduction();
                phase1 = (ws, e) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(grad, self, target, weight,
                        reduction, out, ws, e);
                phase2 = Aclnn::binaryCrossEntropyBackward;
            }
            case "bce_logits" -> {
                AclTensor self = values(shape, -8, 8, layout);
                AclTensor target = values(shape, 0, 1, layout);
                AclTensor weight = optional("weight", shape, 0, 2);
                AclTensor posWeight = optional("posweight", shape, 0.5, 3);
                int reduction = reduction();
                AclTensor out = reduction == 0 ? output(shape) : values(new long[] {1}, 0, 0, "contiguous");
                phase1 = (ws, e) -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(self, target, weight,
                        posWeight, reduction, out, ws, e);
                phase2 = Aclnn::binaryCrossEntropyWithLogits;
            }
            case "prelu_backward" -> {
                long channels = field("weight").equals("single") ? 1 : shape[1];
                AclTensor grad = values(shape, -1, 1, layout);
                AclTensor self = values(shape, -1, 1, layout);
                AclTensor weight = values(new long[] {channels}, 0, 0.5, "contiguous");
                AclTensor gradInput = output(shape);
                AclTensor gradWeight = values(new long[] {channels}, 0, 0, "contiguous");
                phase1 = (ws, e) -> Aclnn.preluBackwardGetWorkspaceSize(grad, self, weight, gradInput, gradWeight,
                        ws, e);
                phase2 = Aclnn::preluBackward;
            }
            case "bce_logits_backward" -> {
                int reduction = reduction();
                AclTensor grad = reduction == 0 ? values(shape, -1, 1, layout) : values(new long[0], 1, 1, "contiguous");
                AclTensor self = values(shape, -8, 8, layout);
                AclTensor target = values(shape, 0, 1, layout);
                AclTensor weight = optional("weight", shape, 0, 2);
                AclTensor posWeight = optional("posweight", shape, 0.5, 3);
                AclTensor out = output(shape);
                phase1 = (ws, e) -> Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(grad, self, target,
                        weight, posWeight, reduction, out, ws, e);
                phase2 = Aclnn::binaryCrossEntropyWithLogitsBackward;
            }
            case "bce" -> {
                AclTensor self = values(shape, 0.02, 0.98, layout);
                AclTensor target = values(shape, 0, 1, layout);
                AclTensor weight = optional("weight", shape, 0, 2);
                int reduction = reduction();
                AclTensor out = reduction == 0 ? output(shape) : values(new long[] {1}, 0, 0, "contiguous");
                phase1 = (ws, e) -> Aclnn.binaryCrossEntropyGetWorkspaceSize(self, target, weight, reduction, out, ws,
                        e);
                phase2 = Aclnn::binaryCrossEntropy;
            }
            case "prelu" -> {
                long channels = field("weight").equals("single") ? 1 : shape[1];
                AclTensor self = values(shape, -1, 1, layout);
                AclTensor weight = values(new long[] {channels}, 0, 0.5, "contiguous");
                AclTensor out = output(shape);
                phase1 = (ws, e) -> Aclnn.preluGetWorkspaceSize(self, weight, out, ws, e);
                phase2 = Aclnn::prelu;
            }
            case "group_norm" -> {
                long n = shape[0];
                long c = shape[1];
                long hxw = shape[2] * shape[3];
                long groups = Long.parseLong(field("groups"));
                AclTensor x = values(shape, -2, 2, layout);
                boolean affine = field("gamma").equals("yes");
                AclTensor gamma = affine ? values(new long[] {c}, 0.5, 1.5, "contiguous") : null;
                AclTensor beta = affine ? values(new long[] {c}, -0.5, 0.5, "contiguous") : null;
                AclTensor out = output(shape);
                AclTensor mean = values(new long[] {n, groups}, 0, 0, "contiguous");
                AclTensor rstd = values(new long[] {n, groups}, 0, 0, "contiguous");
                phase1 = (ws, e) -> Aclnn.groupNormGetWorkspaceSize(x, gamma, beta, n, c, hxw, groups, 1e-5, out, mean,
                        rstd, ws, e);
                phase2 = Aclnn::groupNorm;
            }
            case "group_norm_backward" -> {
                long n = shape[0];
                long c = shape[1];
                long hxw = shape[2] * shape[3];
                long groups = Long.parseLong(field("groups"));
                AclTensor dy = values(shape, -1, 1, layout);
                AclTensor x = values(shape, -2, 2, layout);
                AclTensor mean = values(new long[] {n, groups}, -0.1, 0.1, "contiguous");
                AclTensor rstd = values(new long[] {n, groups}, 0.5, 1.5, "contiguous");
                AclTensor gamma = field("gamma").equals("yes") ? values(new long[] {c}, 0.5, 1.5, "contiguous") : null;
                String mask = field("mask");
                boolean[] outputMask = {mask.charAt(0) == '1', mask.charAt(1) == '1', mask.charAt(2) == '1'};
                AclBoolArray maskArray = Acl.createBoolArray(outputMask, 3);
                AclTensor gradInput = outputMask[0] ? output(shape) : null;
                AclTensor gradGamma = outputMask[1] ? values(new long[] {c}, 0, 0, "contiguous") : null;
                AclTensor gradBeta = outputMask[2] ? values(new long[] {c}, 0, 0, "contiguous") : null;
                phase1 = (ws, e) -> Aclnn.groupNormBackwardGetWorkspaceSize(dy, x, mean, rstd, gamma, n, c, hxw, groups,
                        maskArray, gradInput, gradGamma, gradBeta, ws, e);
                phase2 = Aclnn::groupNormBackward;
            }
            case "nll_loss_backward" -> {
                long rows = shape[0];
                long classes = shape[1];
                int reduction = reduction();
                AclTensor grad = reduction == 0 ? values(new long[] {rows}, 0, 1, "contiguous")
                        : values(new long[0], 1, 1, "contiguous");
                AclTensor self = values(shape, -1, 0, "contiguous");
                AclTensor target = targets(rows, classes);
                AclTensor weight = values(new long[] {classes}, 1, 1, "contiguous");
                AclTensor totalWeight = values(new long[0], rows, rows, "contiguous");
                AclTensor out = output(shape);
                phase1 = (ws, e) -> Aclnn.nllLossBackwardGetWorkspaceSize(grad, self, target, weight, reduction, -100,
                        totalWeight, out, ws, e);
                phase2 = Aclnn::nllLossBackward;
            }
            case "nll_loss" -> {
                long rows = shape[0];
                long classes = shape[1];
                int reduction = reduction();
                AclTensor self = values(shape, -1, 0, "contiguous");
                AclTensor target = targets(rows, classes);
                AclTensor weight = values(new long[] {classes}, 1, 1, "contiguous");
                AclTensor out = reduction == 0 ? values(new long[] {rows}, 0, 0, "contiguous")
                        : values(new long[0], 0, 0, "contiguous");
                AclTensor totalWeight = values(new long[0], 0, 0, "contiguous");
                phase1 = (ws, e) -> Aclnn.nllLossGetWorkspaceSize(self, target, weight, reduction, -100, out,
                        totalWeight, ws, e);
                phase2 = Aclnn::nllLoss;
            }
            default -> throw bad("op");
        }
        return this;
    }

    /**
     * The runtime as a program sets it up before its first call: aclInit, device 0, and a stream,
     * returned; fails with the runtime's message.
     */
    static AclrtStream startRuntime() {
        started(Acl.init(null), "aclInit");
        started(AclRt.setDevice(0), "aclrtSetDevice");
        AclrtStream stream = new AclrtStream();
        started(AclRt.createStream(stream), "aclrtCreateStream");
        return stream;
    }

    private static void started(int status, String what) {
        if (status != 0) {
            throw new IllegalStateException(what + " returned " + status + ": " + Acl.getRecentErrMsg());
        }
    }

    /**
     * A call of {@code text} (usage.txt's syntax) made on a stream of its own, as one runnable call
     * (for {@link InProcessAb}: aclInit and the device come first).
     */
    public static Runnable standalone(String text) {
        UsageCall call = new UsageCall(0, text).make();
        AclrtStream stream = new AclrtStream();
        call.check(AclRt.createStream(stream), "aclrtCreateStream");
        call.run(stream); // sizes the workspace and warms the path
        return () -> call.run(stream);
    }

    /** One call: phase 1, phase 2 on {@code stream}, synchronize. */
    void run(AclrtStream stream) {
        AclOpExecutor executor = new AclOpExecutor();
        check(phase1.plan(workspaceSize, executor), "phase 1");
        if (workspaceSize[0] > workspaceBytes) {
            if (workspaceBytes > 0) {
                AclRt.free(workspace);
            }
            workspace = new Pointer();
            check(AclRt.malloc(workspace, workspaceSize[0], ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
            workspaceBytes = workspaceSize[0];
        }
        check(phase2.launch(workspace, workspaceSize[0], executor, stream), "phase 2");
        check(AclRt.synchronizeStream(stream), "synchronize");
    }

    private void check(int status, String what) {
        if (status != 0) {
            throw new IllegalStateException("line " + line + " (" + text + "): " + what + " returned " + status + ": "
                    + Acl.getRecentErrMsg());
        }
    }

    private int reduction() {
        return switch (field("reduction")) {
            case "none" -> 0;
            case "mean" -> 1;
            case "sum" -> 2;
            default -> throw bad("reduction");
        };
    }

    private IllegalArgumentException bad(String key) {
        return new IllegalArgumentException("line " + line + ": " + key + "=" + fields.get(key));
    }

    /** An optional input: none (null), dense (the input's layout) or row (a vector over the last dim). */
    private AclTensor optional(String key, long[] shape, double lo, double hi) {
        return switch (field(key)) {
            case "none" -> null;
            case "dense" -> values(shape, lo, hi, layout);
            case "row" -> values(new long[] {shape[shape.length - 1]}, lo, hi, "contiguous");
            default -> throw bad(key);
        };
    }

    /**
     * The main output: laid out as the inputs with out=like, every other element of its last
     * dimension with layout=outstrided, else contiguous.
     */
    private AclTensor output(long[] shape) {
        if (fields.getOrDefault("out", "contiguous").equals("like")) {
            return values(shape, 0, 0, layout);
        }
        return values(shape, 0, 0, layout.equals("outstrided") ? "stepped" : "contiguous");
    }

    /**
     * A floating tensor of view {@code shape}, uniform in [lo, hi], laid out as {@code how}:
     * contiguous, transposed (the last two dims swapped in memory), channels_last (NHWC memory) or
     * stepped (every other element of the last dim); any other layout name means contiguous.
     */
    private AclTensor values(long[] shape, double lo, double hi, String how) {
        int rank = shape.length;
        long[] strides = new long[rank];
        long bufferElements;
        if (how.equals("transposed") && rank >= 2) {
            long[] memory = shape.clone();
            memory[rank - 1] = shape[rank - 2];
            memory[rank - 2] = shape[rank - 1];
            long[] memStrides = rowMajor(memory);
            System.arraycopy(memStrides, 0, strides, 0, rank);
            strides[rank - 1] = memStrides[rank - 2];
            strides[rank - 2] = memStrides[rank - 1];
            bufferElements = numel(shape);
        } else if (how.equals("channels_last") && rank == 4) {
            long c = shape[1];
            long h = shape[2];
            long w = shape[3];
            strides = new long[] {h * w * c, 1, w * c, c};
            bufferElements = numel(shape);
        } else if (how.equals("stepped") && rank >= 1) {
            long[] memory = shape.clone();
            memory[rank - 1] *= 2;
            strides = rowMajor(memory);
            strides[rank - 1] = 2;
            bufferElements = numel(memory);
        } else {
            strides = rowMajor(shape);
            bufferElements = numel(shape);
        }
        int elementBytes = dtype == ACL_FLOAT ? 4 : 2;
        ByteBuffer host = ByteBuffer.allocate(Math.toIntExact(bufferElements * elementBytes))
                .order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < bufferElements; i++) {
            float v = (float) (lo + (hi - lo) * random.nextDouble());
            switch (dtype) {
                case ACL_FLOAT -> host.putFloat(v);
                case ACL_FLOAT16 -> host.putShort(Float.floatToFloat16(v));
                default -> host.putShort(bf16(v));
            }
        }
        Pointer data = upload(host.array());
        AclTensor t = Acl.createTensor(shape, rank, dtype, strides, 0, ACL_FORMAT_ND, new long[] {bufferElements}, 1,
                data);
        tensors.add(t);
        return t;
    }

    /** NLL targets in [0, classes), of the dtype the call names. */
    private AclTensor targets(long rows, long classes) {
        int targetType = switch (field("target")) {
            case "int64" -> ACL_INT64;
            case "int32" -> ACL_INT32;
            case "uint8" -> ACL_UINT8;
            default -> throw bad("target");
        };
        int bytes = targetType == ACL_INT64 ? 8 : targetType == ACL_INT32 ? 4 : 1;
        ByteBuffer host = ByteBuffer.allocate(Math.toIntExact(rows * bytes)).order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < rows; i++) {
            long t = random.nextLong(Math.min(classes, 256));
            switch (bytes) {
                case 8 -> host.putLong(t);
                case 4 -> host.putInt((int) t);
                default -> host.put((byte) t);
            }
        }
        AclTensor t = Acl.createTensor(new long[] {rows}, 1, targetType, null, 0, ACL_FORMAT_ND, new long[] {rows}, 1,
                upload(host.array()));
        tensors.add(t);
        return t;
    }

    private Pointer upload(byte[] bytes) {
        Pointer p = new Pointer();
        long size = Math.max(1, bytes.length);
        check(AclRt.malloc(p, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        buffers.add(p);
        if (bytes.length > 0) {
            check(AclRt.memcpy(p, size, Pointer.to(bytes), bytes.length, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
        }
        return p;
    }

    private static long[] rowMajor(long[] shape) {
        long[] strides = new long[shape.length];
        long s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = s;
            s *= shape[i];
        }
        return strides;
    }

    static long numel(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** Rounded to nearest even BFLOAT16 (the values here are finite). */
    private static short bf16(float v) {
        int bits = Float.floatToRawIntBits(v);
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    @Override
    public void close() {
        tensors.forEach(Acl::destroyTensor);
        tensors.clear();
        buffers.forEach(AclRt::free);
        buffers.clear();
        if (workspaceBytes > 0) {
            AclRt.free(workspace);
            workspaceBytes = 0;
        }
    }
}
