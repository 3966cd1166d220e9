package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_BF16;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT16;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One operator call with fixed, valid arguments living on the device: inputs filled from a seed,
 * outputs (whole buffers, gaps included) pre-filled with a sentinel. {@link #launch} runs both
 * phases on a stream without waiting; {@link #outputs} reads back every output buffer, so that
 * two runs compare bitwise. Tensors are re-created for every launch, as a CANN program that builds
 * them per call would, and destroyed at the next {@link #retire} (after a synchronize).
 */
final class Workload implements AutoCloseable {
    enum Op { BCE_BACKWARD, PRELU_BACKWARD, BCE_WITH_LOGITS, GROUP_NORM_BACKWARD, NLL_LOSS_BACKWARD, PRELU, BCE, BCE_WITH_LOGITS_BACKWARD, NLL_LOSS, GROUP_NORM }

    static final int[] FLOAT_TYPES = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

    /** One kind of call: operator, dtype, layout, and a seed that picks the reduction where there is one. */
    record Case(Op op, int dtype, Layout layout, long seed) {}

    /**
     * How a call's tensors lie in memory: contiguous; strided (inputs of rank ≥ 2 with their first
     * two dimensions swapped in memory, everything else with a gap after each element); or channels
     * last (the {@code [N, C, inner]} tensors of PReLU and GroupNorm, inputs and outputs, with C
     * innermost in memory, the others contiguous).
     */
    /**
     * DENSE: contiguous; STRIDED: see {@link #put}; CHANNELS_LAST: rank-3 tensors with dimension 1
     * innermost; TRANSPOSED_INPUTS: inputs of rank 2 or more with their last two dimensions swapped
     * in memory, outputs contiguous, no weights (the 16-bit calls that copy their inputs into the
     * workspace first).
     */
    enum Layout { DENSE, STRIDED, CHANNELS_LAST, TRANSPOSED_INPUTS }

    /** Every operator × dtype × layout (channels last where the operator has channels) × reduction. */
    static List<Case> everyCase() {
        List<Case> cases = new ArrayList<>();
        for (Op op : Op.values()) {
            boolean reduces = op == Op.BCE_BACKWARD || op == Op.BCE_WITH_LOGITS || op == Op.NLL_LOSS_BACKWARD
                    || op == Op.BCE || op == Op.BCE_WITH_LOGITS_BACKWARD || op == Op.NLL_LOSS;
            boolean channels = op == Op.PRELU || op == Op.PRELU_BACKWARD || op == Op.GROUP_NORM
                    || op == Op.GROUP_NORM_BACKWARD;
            for (int dtype : FLOAT_TYPES) {
                for (Layout layout : Layout.values()) {
                    if (layout == Layout.CHANNELS_LAST && !channels) {
                        continue;
                    }
                    if (layout == Layout.TRANSPOSED_INPUTS
                            && op != Op.BCE_WITH_LOGITS && op != Op.PRELU_BACKWARD && op != Op.PRELU) {
                        continue;
                    }
                    for (long seed = 0; seed < (reduces ? 3 : 1); seed++) { // the seed picks the reduction
                        cases.add(new Case(op, dtype, layout, seed));
                    }
                }
            }
        }
        return cases;
    }
    private static final byte SENTINEL = (byte) 0xA5;

    /** One tensor argument: its buffer and how aclCreateTensor views it. */
    private record Arg(Pointer data, long bytes, int dtype, long[] shape, long[] strides, boolean output) {}

    final Op op;
    final String description;
    private final Map<String, Arg> args = new LinkedHashMap<>();
    private final long[] attributes = new long[4];
    private final List<AclTensor> live = new ArrayList<>();
    private Pointer workspace = new Pointer();
    private long workspaceBytes;
    /** {@link Layout#CHANNELS_LAST}: {@link #put} lays rank-3 tensors out with dimension 1 innermost. */
    private final boolean channelsLast;
    /** {@link Layout#TRANSPOSED_INPUTS}: {@link #put} swaps the last two dimensions of inputs in memory. */
    private final boolean transposedInputs;

    /**
     * A call of {@code op} on about {@code elements} elements of {@code dtype}, its inputs drawn
     * from {@code seed}; with {@code strided}, inputs are transposed or padded views and outputs
     * have gaps between their elements.
     */
    Workload(Op op, int dtype, int elements, long seed, boolean strided) {
        this(op, dtype, elements, seed, strided ? Layout.STRIDED : Layout.DENSE);
    }

    /** As above, its tensors laid out as {@code layout} says. */
    Workload(Op op, int dtype, int elements, long seed, Layout layout) {
        TestDevice.init();
        this.op = op;
        this.channelsLast = layout == Layout.CHANNELS_LAST;
        this.transposedInputs = layout == Layout.TRANSPOSED_INPUTS;
        boolean strided = layout == Layout.STRIDED;
        this.description = op + " dtype " + dtype + " ~" + elements + " elements seed " + seed
                + (layout == Layout.DENSE ? "" : " " + layout.name().toLowerCase(java.util.Locale.ROOT));
        SplittableRandom r = new SplittableRandom(seed);
        int reduction = Math.floorMod(seed, 3);
        switch (op) {
            case BCE_BACKWARD -> {
                long cols = 61;
                long rows = Math.max(1, elements / cols);
                long[] shape = {rows, cols};
                input("gradOutput", dtype, reduction == 0 ? shape : new long[0], strided, r, -2, 2);
                input("self", dtype, shape, strided, r, 0.02, 0.98);
                input("target", dtype, shape, strided, r, 0, 1);
                input("weightOptional", dtype, new long[] {cols}, strided, r, 0, 2);
                output("out", dtype, shape, strided);
                attributes[0] = reduction;
            }
            case PRELU_BACKWARD -> {
                long channels = 7;
                long inner = Math.max(1, elements / (3 * channels));
                long[] shape = {3, channels, inner};
                input("gradOutput", dtype, shape, strided, r, -2, 2);
                input("self", dtype, shape, strided, r, -3, 3);
                input("weight", dtype, new long[] {channels}, strided, r, -1, 1);
                output("gradInput", dtype, shape, strided);
                output("gradWeight", dtype, new long[] {channels}, strided);
            }
            case BCE_WITH_LOGITS_BACKWARD -> {
                long cols = 57;
                long rows = Math.max(1, elements / cols);
                long[] shape = {rows, cols};
                input("gradOutput", dtype, reduction == 0 ? shape : new long[0], strided, r, -2, 2);
                input("self", dtype, shape, strided, r, -8, 8);
                input("target", dtype, shape, strided, r, 0, 1);
                input("weightOptional", dtype, new long[] {cols}, strided, r, 0, 2);
                input("posWeightOptional", dtype, new long[] {cols}, strided, r, 0.5, 3);
                output("out", dtype, shape, strided);
                attributes[0] = reduction;
            }
            case BCE -> {
                long cols = 59;
                long rows = Math.max(1, elements / cols);
                long[] shape = {rows, cols};
                input("self", dtype, shape, strided, r, 0.01, 0.99);
                input("target", dtype, shape, strided, r, 0, 1);
                input("weight", dtype, new long[] {cols}, strided, r, 0, 2);
                output("out", dtype, reduction == 0 ? shape : new long[] {1}, strided);
                attributes[0] = reduction;
            }
            case PRELU -> {
                long channels = 13; // a whole block of eight in the transposing loops, and five one by one
                long inner = Math.max(1, elements / (3 * channels));
                long[] shape = {3, channels, inner};
                input("self", dtype, shape, strided, r, -3, 3);
                input("weight", dtype, new long[] {channels}, strided, r, -1, 1);
                output("out", dtype, shape, strided);
            }
            case BCE_WITH_LOGITS -> {
                long cols = 53;
                long rows = Math.max(1, elements / cols);
                long[] shape = {rows, cols};
                input("self", dtype, shape, strided, r, -8, 8);
                input("target", dtype, shape, strided, r, 0, 1);
                if (!transposedInputs) {
                    input("weightOptional", dtype, new long[] {cols}, strided, r, 0, 2);
                    input("posWeightOptional", dtype, new long[] {cols}, strided, r, 0.5, 3);
                }
                output("out", dtype, reduction == 0 ? shape : new long[] {1}, strided);
                attributes[0] = reduction;
            }
            case GROUP_NORM_BACKWARD -> {
                long[] geometry = groupGeometry(elements);
                long n = geometry[0];
                long channels = geometry[1];
                long group = geometry[2];
                long hxw = Math.max(1, elements / (n * channels));
                long[] shape = {n, channels, hxw};
                input("gradOut", dtype, shape, strided, r, -2, 2);
                input("input", dtype, shape, strided, r, -3, 3);
                input("mean", dtype, new long[] {n, group}, strided, r, -1, 1);
                input("rstd", dtype, new long[] {n, group}, strided, r, 0.2, 3);
                input("gamma", dtype, new long[] {channels}, strided, r, -2, 2);
                output("gradInput", dtype, shape, strided);
                output("gradGammaOut", dtype, new long[] {channels}, strided);
                output("gradBetaOut", dtype, new long[] {channels}, strided);
                attributes[0] = n;
                attributes[1] = channels;
                attributes[2] = hxw;
                attributes[3] = group;
            }
            case NLL_LOSS_BACKWARD -> {
                long classes = 17;
                long rows = Math.max(1, elements / classes);
                long ignoreIndex = -100;
                input("gradOutput", dtype, reduction == 0 ? new long[] {rows} : new long[] {1}, strided, r, -2, 2);
                input("self", dtype, new long[] {rows, classes}, strided, r, -5, 0);
                double[] targets = new double[(int) rows];
                for (int i = 0; i < targets.length; i++) {
                    targets[i] = r.nextInt(8) == 0 ? ignoreIndex : r.nextInt((int) classes);
                }
                put("target", ACL_INT64, new long[] {rows}, strided, targets, false);
                input("weight", dtype, new long[] {classes}, strided, r, 0, 2);
                input("totalWeight", dtype, new long[] {1}, strided, r, 1, 50);
                output("out", dtype, new long[] {rows, classes}, strided);
                attributes[0] = reduction;
                attributes[1] = ignoreIndex;
            }
            case GROUP_NORM -> {
                long[] geometry = groupGeometry(elements);
                long n = geometry[0];
                long channels = geometry[1];
                long group = geometry[2];
                long hxw = Math.max(1, elements / (n * channels));
                long[] shape = {n, channels, hxw};
                input("self", dtype, shape, strided, r, -3, 3);
                input("gamma", dtype, new long[] {channels}, strided, r, -2, 2);
                input("beta", dtype, new long[] {channels}, strided, r, -2, 2);
                output("out", dtype, shape, strided);
                output("meanOut", dtype, new long[] {n, group}, strided);
                output("rstdOut", dtype, new long[] {n, group}, strided);
                attributes[0] = n;
                attributes[1] = channels;
                attributes[2] = hxw;
                attributes[3] = group;
            }
            case NLL_LOSS -> {
                long classes = 13;
                long rows = Math.max(1, elements / classes);
                long ignoreIndex = -100;
                input("self", dtype, new long[] {rows, classes}, strided, r, -5, 0);
                double[] targets = new double[(int) rows];
                for (int i = 0; i < targets.length; i++) {
                    targets[i] = r.nextInt(8) == 0 ? ignoreIndex : r.nextInt((int) classes);
                }
                put("target", ACL_INT64, new long[] {rows}, strided, targets, false);
                input("weight", dtype, new long[] {classes}, strided, r, 0, 2);
                output("out", dtype, reduction == 0 ? new long[] {rows} : new long[0], strided);
                if (reduction == 0) { // left unwritten by reduction none, as CANN leaves it
                    input("totalWeightOut", dtype, new long[] {1}, strided, r, 0, 1);
                } else {
                    output("totalWeightOut", dtype, new long[] {1}, strided);
                }
                attributes[0] = reduction;
                attributes[1] = ignoreIndex;
            }
        }
    }

    /** This workload with one NLL target out of range: its run fails at synchronize (SPEC §5.5). */
    static Workload badNllTarget(int elements, long seed) {
        Workload w = new Workload(Op.NLL_LOSS_BACKWARD, ACL_FLOAT, elements, seed, false);
        Arg t = w.args.get("target");
        long rows = t.shape[0];
        double[] targets = new double[(int) rows];
        targets[(int) (rows / 2)] = 17; // classes is 17: one past the last class
        write(t.data, encode(ACL_INT64, targets), 0);
        return w;
    }

    /**
     * GroupNorm's samples, channels and groups by size — 4, 8 and 16 channels per group, from 6 to
     * 128 groups in all, maps of 60 to 200 positions from 2^15 elements on — so that a program
     * calling several sizes also changes the group geometry the kernels loop over.
     */
    private static long[] groupGeometry(long elements) {
        return elements < 10_000 ? new long[] {2, 12, 3}
                : elements < 100_000 ? new long[] {4, 64, 8} : new long[] {8, 256, 16};
    }

    private void input(String name, int dtype, long[] shape, boolean strided, SplittableRandom r, double lo,
            double hi) {
        double[] values = new double[(int) numel(shape)];
        for (int i = 0; i < values.length; i++) {
            values[i] = r.nextDouble(lo, hi);
        }
        put(name, dtype, shape, strided, values, false);
    }

    private void output(String name, int dtype, long[] shape, boolean strided) {
        put(name, dtype, shape, strided, null, true);
    }

    /**
     * Allocates {@code name}: contiguous, or when {@code strided} an input of rank ≥ 2 transposed in
     * memory (its first two dimensions swapped) and anything else with one element of gap after
     * each (innermost stride 2), or channels last (a rank-3 tensor with dimension 1 innermost). {@code values} are the view's elements in row-major order.
     */
    private void put(String name, int dtype, long[] shape, boolean strided, double[] values, boolean output) {
        int rank = shape.length;
        long[] strides = new long[rank];
        long[] order = new long[rank]; // dimensions from innermost to outermost in memory
        for (int i = 0; i < rank; i++) {
            order[i] = rank - 1 - i;
        }
        boolean transposed = strided && !output && rank >= 2;
        if (transposed) {
            order[rank - 1] = 1;
            order[rank - 2] = 0;
        } else if (transposedInputs && !output && rank >= 2) {
            order[0] = rank - 2;
            order[1] = rank - 1;
        } else if (channelsLast && rank == 3) {
            order = new long[] {1, 2, 0};
        }
        long step = strided && !transposed ? 2 : 1;
        for (long d : order) {
            strides[(int) d] = step;
            step *= shape[(int) d];
        }
        int elementBytes = size(dtype);
        long elementsSpanned = rank == 0 ? 1 : step;
        long bytes = Math.max(1, elementsSpanned * elementBytes);
        Pointer data = TestDevice.malloc(bytes);
        byte[] fill = new byte[(int) bytes];
        Arrays.fill(fill, SENTINEL);
        if (values != null) {
            ByteBuffer b = ByteBuffer.wrap(fill).order(ByteOrder.nativeOrder());
            long[] index = new long[rank];
            for (double v : values) {
                long at = 0;
                for (int i = 0; i < rank; i++) {
                    at += index[i] * strides[i];
                }
                b.position((int) (at * elementBytes));
                b.put(encode(dtype, new double[] {v}));
                for (int i = rank - 1; i >= 0 && ++index[i] == shape[i]; i--) {
                    index[i] = 0;
                }
            }
        }
        write(data, fill, 0);
        args.put(name, new Arg(data, bytes, dtype, shape, strided || transposed ? strides : null, output));
    }

    /** Phase 1 and phase 2 on {@code stream}, without waiting. Returns the first non-zero status, or 0. */
    int launch(AclrtStream stream) {
        long[] size = new long[1];
        AclOpExecutor executor = new AclOpExecutor();
        int status = plan(size, executor);
        return status != 0 ? status : run(executor, size[0], stream);
    }

    /** Phase 1 on freshly created tensors, which live until the next {@link #retire}. */
    int plan(long[] size, AclOpExecutor executor) {
        Map<String, AclTensor> t = new LinkedHashMap<>();
        args.forEach((name, a) -> {
            AclTensor tensor = Acl.createTensor(a.shape, a.shape.length, a.dtype, a.strides, 0, ACL_FORMAT_ND, a.shape,
                    a.shape.length, a.data);
            live.add(tensor);
            t.put(name, tensor);
        });
        return switch (op) {
            case BCE_BACKWARD -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(t.get("gradOutput"), t.get("self"),
                    t.get("target"), t.get("weightOptional"), attributes[0], t.get("out"), size, executor);
            case PRELU_BACKWARD -> Aclnn.preluBackwardGetWorkspaceSize(t.get("gradOutput"), t.get("self"),
                    t.get("weight"), t.get("gradInput"), t.get("gradWeight"), size, executor);
            case BCE_WITH_LOGITS -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(t.get("self"), t.get("target"),
                    t.get("weightOptional"), t.get("posWeightOptional"), attributes[0], t.get("out"), size, executor);
            case GROUP_NORM_BACKWARD -> {
                AclBoolArray mask = Acl.createBoolArray(new boolean[] {true, true, true}, 3);
                int s = Aclnn.groupNormBackwardGetWorkspaceSize(t.get("gradOut"), t.get("input"), t.get("mean"),
                        t.get("rstd"), t.get("gamma"), attributes[0], attributes[1], attributes[2], attributes[3],
                        mask, t.get("gradInput"), t.get("gradGammaOut"), t.get("gradBetaOut"), size, executor);
                Acl.destroyBoolArray(mask);
                yield s;
            }
            case NLL_LOSS_BACKWARD -> Aclnn.nllLossBackwardGetWorkspaceSize(t.get("gradOutput"), t.get("self"),
                    t.get("target"), t.get("weight"), attributes[0], attributes[1], t.get("totalWeight"), t.get("out"),
                    size, executor);
            case PRELU -> Aclnn.preluGetWorkspaceSize(t.get("self"), t.get("weight"), t.get("out"), size, executor);
            case BCE -> Aclnn.binaryCrossEntropyGetWorkspaceSize(t.get("self"), t.get("target"), t.get("weight"),
                    attributes[0], t.get("out"), size, executor);
            case GROUP_NORM -> Aclnn.groupNormGetWorkspaceSize(t.get("self"), t.get("gamma"), t.get("beta"),
                    attributes[0], attributes[1], attributes[2], attributes[3], 1e-5, t.get("out"), t.get("meanOut"),
                    t.get("rstdOut"), size, executor);
            case NLL_LOSS -> Aclnn.nllLossGetWorkspaceSize(t.get("self"), t.get("target"), t.get("weight"),
                    attributes[0], attributes[1], t.get("out"), t.get("totalWeightOut"), size, executor);
            case BCE_WITH_LOGITS_BACKWARD -> Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
                    t.get("gradOutput"), t.get("self"), t.get("target"), t.get("weightOptional"),
                    t.get("posWeightOptional"), attributes[0], t.get("out"), size, executor);
        };
    }

    /** Phase 2 of {@code executor} on {@code stream}, with this workload's workspace. */
    int run(AclOpExecutor executor, long size, AclrtStream stream) {
        if (size != workspaceBytes) { // the same call always needs the same workspace: made once
            if (workspaceBytes > 0) {
                throw new AssertionError(description + ": workspace size changed from " + workspaceBytes + " to "
                        + size);
            }
            workspace = TestDevice.malloc(size);
            workspaceBytes = size;
        }
        Pointer ws = size > 0 ? workspace : new Pointer();
        return switch (op) {
            case BCE_BACKWARD -> Aclnn.binaryCrossEntropyBackward(ws, size, executor, stream);
            case PRELU_BACKWARD -> Aclnn.preluBackward(ws, size, executor, stream);
            case BCE_WITH_LOGITS -> Aclnn.binaryCrossEntropyWithLogits(ws, size, executor, stream);
            case GROUP_NORM_BACKWARD -> Aclnn.groupNormBackward(ws, size, executor, stream);
            case NLL_LOSS_BACKWARD -> Aclnn.nllLossBackward(ws, size, executor, stream);
            case PRELU -> Aclnn.prelu(ws, size, executor, stream);
            case BCE -> Aclnn.binaryCrossEntropy(ws, size, executor, stream);
            case BCE_WITH_LOGITS_BACKWARD -> Aclnn.binaryCrossEntropyWithLogitsBackward(ws, size, executor, stream);
            case NLL_LOSS -> Aclnn.nllLoss(ws, size, executor, stream);
            case GROUP_NORM -> Aclnn.groupNorm(ws, size, executor, stream);
        };
    }

    /** Destroys the tensors of earlier launches; call after synchronizing the streams they ran on. */
    void retire() {
        for (AclTensor t : live) {
            Acl.destroyTensor(t);
        }
        live.clear();
    }

    /** Every output buffer, gaps included, in parameter order. */
    byte[][] outputs() {
        return args.values().stream().filter(Arg::output).map(a -> read(a.data, a.bytes)).toArray(byte[][]::new);
    }

    /** {@link #outputs()}, each of which must have been written somewhere (a run that wrote nothing is no result). */
    byte[][] writtenOutputs() {
        byte[][] outputs = outputs();
        for (int k = 0; k < outputs.length; k++) {
            byte[] o = outputs[k];
            boolean written = false;
            for (int i = 0; i < o.length && !written; i++) {
                written = o[i] != SENTINEL;
            }
            if (!written) {
                throw new AssertionError(description + ": output " + k + " was not written");
            }
        }
        return outputs;
    }

    /** Refills every output buffer with the sentinel, so that the next run must write them again. */
    void resetOutputs() {
        for (Arg a : args.values()) {
            if (a.output) {
                byte[] fill = new byte[(int) a.bytes];
                Arrays.fill(fill, SENTINEL);
                write(a.data, fill, 0);
            }
        }
    }

    @Override
    public void close() {
        retire();
        for (Arg a : args.values()) {
            TestDevice.free(a.data);
        }
        if (workspaceBytes > 0) {
            TestDevice.free(workspace);
        }
    }

    @Override
    public String toString() {
        return description;
    }

    static long numel(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    private static void write(Pointer dst, byte[] bytes, long at) {
        int status = AclRt.memcpy(dst.withByteOffset(at), bytes.length, Pointer.to(bytes), bytes.length,
                ACL_MEMCPY_HOST_TO_DEVICE);
        if (status != 0) {
            throw new AssertionError("aclrtMemcpy H2D: " + status + " " + Acl.getRecentErrMsg());
        }
    }

    private static byte[] read(Pointer src, long bytes) {
        byte[] out = new byte[(int) bytes];
        int status = AclRt.memcpy(Pointer.to(out), bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        if (status != 0) {
            throw new AssertionError("aclrtMemcpy D2H: " + status + " " + Acl.getRecentErrMsg());
        }
        return out;
    }

    /** {@code values} as {@code dtype} stores them (16-bit floats rounded to nearest-even). */
    private static byte[] encode(int dtype, double[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * size(dtype)).order(ByteOrder.nativeOrder());
        for (double v : values) {
            switch (dtype) {
                case ACL_FLOAT -> b.putFloat((float) v);
                case ACL_FLOAT16 -> b.putShort(Float.floatToFloat16((float) v));
                case ACL_BF16 -> {
                    int bits = Float.floatToRawIntBits((float) v);
                    b.putShort((short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16));
                }
                case ACL_INT64 -> b.putLong((long) v);
                default -> throw new IllegalArgumentException("dtype " + dtype);
            }
        }
        return b.array();
    }

    private static int size(int dtype) {
        return switch (dtype) {
            case ACL_FLOAT -> 4;
            case ACL_FLOAT16, ACL_BF16 -> 2;
            case ACL_INT64 -> 8;
            default -> throw new IllegalArgumentException("dtype " + dtype);
        };
    }
}
