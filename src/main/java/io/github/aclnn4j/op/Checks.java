package io.github.aclnn4j.op;

import io.github.aclnn4j.kernel.Kernel;
import io.github.aclnn4j.kernel.StridedView;
import io.github.aclnn4j.kernel.Warmup;
import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.MemoryBlock;
import io.github.aclnn4j.runtime.SocProfile;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.Shapes;
import io.github.aclnn4j.tensor.TensorDesc;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks operators share, each failing with the documented status and a message of the form
 * {@code aclnnXxx: <parameter> <what was expected>, got <what was given>}. One instance per phase-1
 * call collects the memory blocks its views use, for the liveness check of phase 2.
 */
final class Checks {
    static final int MAX_RANK = 8;

    private final String op;
    /** The operator's Vector API loops, for the warm-up's question whether they are compiled. */
    private final Warmup.Family family;
    private final List<Plan.Use> uses = new ArrayList<>();
    /** Tensors already checked in this call (an operator may view one tensor more than once). */
    private final Map<TensorDesc, Checked> checked = new IdentityHashMap<>();

    Checks(String op, Warmup.Family family) {
        this.op = op;
        this.family = family;
    }

    String op() {
        return op;
    }

    List<Plan.Use> uses() {
        return List.copyOf(uses);
    }

    void notNull(String name, TensorDesc t) {
        if (t == null) {
            throw Status.nullptr(op + ": " + name + " must not be null");
        }
    }

    /** As {@link #notNull(String, TensorDesc)}, failing with {@code status} where CANN's code says so. */
    void notNull(String name, TensorDesc t, int status) {
        if (t == null) {
            throw new Failure(status, op + ": " + name + " must not be null");
        }
    }

    /** Rank ≤ 8 (a null optional tensor passes). */
    void rank(String name, TensorDesc t) {
        if (t != null && t.rank() > MAX_RANK) {
            throw Status.invalid(op + ": " + name + " must have at most " + MAX_RANK + " dimensions, got " + t.rank()
                    + " " + Shapes.str(t.shape()));
        }
    }

    /** FLOAT, FLOAT16 and, where the SoC profile allows it, BFLOAT16. */
    static List<DType> floatTypes() {
        return SocProfile.current().supportsBf16()
                ? List.of(DType.FLOAT, DType.FLOAT16, DType.BF16)
                : List.of(DType.FLOAT, DType.FLOAT16);
    }

    /** The dtype is one of {@link #floatTypes()} (a null optional tensor passes). */
    void floatDtype(String name, TensorDesc t) {
        dtypeIn(name, t, floatTypes());
    }

    void dtypeIn(String name, TensorDesc t, List<DType> allowed) {
        if (t == null || (t.dtype() != null && allowed.contains(t.dtype()))) {
            return;
        }
        String extra = t.dtype() == DType.BF16 && !SocProfile.current().supportsBf16()
                ? " (BFLOAT16 is not supported on " + SocProfile.current().socName() + ")"
                : "";
        throw Status.invalid(op + ": " + name + " dtype must be one of " + names(allowed) + ", got "
                + DType.nameOf(t.dtypeCode()) + extra);
    }

    /** The dtype equals {@code ref}'s (a null optional tensor passes). */
    void sameDtype(String name, TensorDesc t, String refName, TensorDesc ref) {
        if (t != null && t.dtypeCode() != ref.dtypeCode()) {
            throw Status.invalid(op + ": " + name + " dtype must equal " + refName + "'s ("
                    + DType.nameOf(ref.dtypeCode()) + "), got " + DType.nameOf(t.dtypeCode()));
        }
    }

    /** The format tag equals {@code ref}'s. */
    void sameFormat(String name, TensorDesc t, String refName, TensorDesc ref) {
        if (t.format() != ref.format()) {
            throw Status.invalid(op + ": " + name + " format " + t.format() + " must equal " + refName + "'s ("
                    + ref.format() + ")");
        }
    }

    /**
     * A value of dtype {@code from} (described as {@code what}, e.g. "the promoted dtype") may be
     * cast to tensor {@code name}'s dtype: no float to integer or bool (an unknown {@code from} passes,
     * for the dtype check that follows to name).
     */
    void castsTo(String what, DType from, String name, TensorDesc t) {
        DType to = t.dtype();
        if (from != null && (to == null || !from.castsTo(to))) {
            throw Status.invalid(op + ": " + what + " " + from.cName() + " cannot be cast to " + name + "'s "
                    + DType.nameOf(t.dtypeCode()));
        }
    }

    void reduction(long reduction) {
        if (reduction < 0 || reduction > 2) {
            throw Status.invalid(op + ": reduction must be 0 (none), 1 (mean) or 2 (sum), got " + reduction);
        }
    }

    void shapeEquals(String name, TensorDesc t, long[] shape, String what) {
        if (!java.util.Arrays.equals(t.shape(), shape)) {
            throw Status.invalid(op + ": " + name + " must have shape " + Shapes.str(shape) + " (" + what + "), got "
                    + Shapes.str(t.shape()));
        }
    }

    /** Broadcasts to {@code shape} (a null optional tensor passes). */
    void broadcastsTo(String name, TensorDesc t, long[] shape, String targetName) {
        if (t != null && !Shapes.broadcastsTo(t.shape(), shape)) {
            throw Status.invalid(op + ": " + name + " shape " + Shapes.str(t.shape()) + " cannot broadcast to "
                    + targetName + " shape " + Shapes.str(shape));
        }
    }

    /** The selected product offers the operator (its documents' product table). */
    void profileSupports() {
        if (!SocProfile.current().supports(op)) {
            throw Status.invalid(op + " is not supported on " + SocProfile.current().socName()
                    + " (the operator's product table; select another with -Daclnn4j.soc or ACLNN4J_SOC)");
        }
    }

    /**
     * Checks every given tensor (null ones skipped) as {@link #view(String, TensorDesc, long[])}
     * does, whether or not the plan reads it: a caller's bad tensor is an error even where this
     * operator happens not to need its data. Arguments alternate name, tensor.
     */
    void usable(Object... namesAndTensors) {
        for (int i = 0; i < namesAndTensors.length; i += 2) {
            if (namesAndTensors[i + 1] instanceof TensorDesc t) {
                checked((String) namesAndTensors[i], t);
            }
        }
    }

    /** The tensor's own view, checked to be usable: see {@link #view(String, TensorDesc, long[])}. */
    StridedView view(String name, TensorDesc t) {
        return view(name, t, t.shape());
    }

    /**
     * The tensor read as {@code shape} (its own shape, or one it broadcasts to), after checking
     * that it is alive, in a plain layout, and that every element of its view lies inside the
     * memory block its data pointer points into.
     */
    StridedView view(String name, TensorDesc t, long[] shape) {
        Checked c = checked(name, t);
        return new StridedView(c.segment, c.startByte, t.dtype(), shape,
                Shapes.broadcastStrides(t.shape(), t.strides(), shape));
    }

    /**
     * The tensor's elements seen through another logical {@code shape} with element
     * {@code strides} that the caller derived from the tensor's own (a dimension split, a weight
     * broadcast along others), after the checks of {@link #view(String, TensorDesc, long[])}.
     */
    StridedView view(String name, TensorDesc t, long[] shape, long[] strides) {
        Checked c = checked(name, t);
        return new StridedView(c.segment, c.startByte, t.dtype(), shape, strides);
    }

    /** Where a checked tensor's view starts; an empty view has no memory. */
    private record Checked(MemorySegment segment, long startByte) {}

    private static final Checked EMPTY = new Checked(MemorySegment.NULL, 0);

    /** The checks of {@link #view(String, TensorDesc, long[])}, once per tensor of a call. */
    private Checked checked(String name, TensorDesc t) {
        Checked c = checked.get(t);
        if (c == null) {
            c = check(name, t);
            checked.put(t, c);
        }
        return c;
    }

    private Checked check(String name, TensorDesc t) {
        if (t.isDestroyed()) {
            throw Status.invalid(op + ": " + name + " was destroyed (aclDestroyTensor)");
        }
        if (!isPlainFormat(t.format()) && !isPrivateFormat(t.format())) {
            throw Status.invalid(op + ": " + name + " format " + t.format() + " is not a format tag (ND, NCHW, NHWC,"
                    + " NCDHW, NDHWC, NC, NCL, HWCN, or one of the NPU-private NC1HWC0, NC1HWC0_C04, FRACTAL_Z,"
                    + " FRACTAL_Z_3D, FRACTAL_NZ, NDC1HWC0)");
        }
        long[] dims = t.shape();
        long[] strides = t.strides();
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw Status.invalid(op + ": " + name + " dimension " + i + " is negative: " + Shapes.str(dims));
            }
            if (strides[i] < 0) {
                throw Status.invalid(op + ": " + name + " stride " + i + " is negative: " + Shapes.str(strides));
            }
        }
        if (t.offset() < 0) {
            throw Status.invalid(op + ": " + name + " offset must be >= 0, got " + t.offset());
        }
        MemoryBlock block = t.block();
        if (t.isEmpty()) {
            return EMPTY;
        }
        if (block == null) {
            throw Status.invalid(op + ": " + name + " has no data (null pointer) but " + Shapes.numel(dims)
                    + " elements");
        }
        if (!block.isLive()) {
            throw Status.invalid(op + ": " + name + " points into freed memory (" + block.describe() + ")");
        }
        long es = t.dtype().byteSize;
        long startByte;
        long endByte;
        try {
            long last = t.offset();
            for (int i = 0; i < dims.length; i++) {
                last = Math.addExact(last, Math.multiplyExact(dims[i] - 1, strides[i]));
            }
            startByte = Math.addExact(t.blockByteOffset(), Math.multiplyExact(t.offset(), es));
            endByte = Math.addExact(t.blockByteOffset(), Math.multiplyExact(Math.addExact(last, 1), es));
        } catch (ArithmeticException e) {
            throw Status.invalid(op + ": " + name + " view overflows 64-bit addressing (shape " + Shapes.str(dims)
                    + ", strides " + Shapes.str(strides) + ", offset " + t.offset() + ")");
        }
        if (startByte < 0 || endByte > block.byteSize()) {
            throw Status.invalid(op + ": " + name + " view (shape " + Shapes.str(dims) + ", strides "
                    + Shapes.str(strides) + ", offset " + t.offset()
                    + ") reaches outside its allocation: it spans bytes [" + startByte + ", " + endByte + ") of "
                    + block.byteSize());
        }
        MemorySegment segment;
        try {
            segment = block.segment();
        } catch (Failure f) { // freed by another thread since the check above
            throw Status.invalid(op + ": " + name + " points into freed memory (" + block.describe() + ")");
        }
        uses.add(new Plan.Use(block, name));
        return new Checked(segment, startByte);
    }

    private static boolean isPlainFormat(int format) {
        return switch (format) {
            case 0, 1, 2, 16, 27, 30, 35, 47 -> true; // NCHW NHWC ND HWCN NDHWC NCDHW NC NCL
            default -> false;
        };
    }

    /**
     * The NPU-private formats, whose tags CANN's operators take (on the device the storage is
     * blocked; here, as everywhere, the view's shape, strides and offset say where the elements
     * are): NC1HWC0, FRACTAL_Z, NC1HWC0_C04, FRACTAL_NZ, NDC1HWC0, FRACTAL_Z_3D.
     */
    static boolean isPrivateFormat(int format) {
        return switch (format) {
            case 3, 4, 12, 29, 32, 33 -> true;
            default -> false;
        };
    }

    private static String names(List<DType> types) {
        return types.stream().map(DType::cName).toList().toString();
    }

    /**
     * A plan whose work is {@code body}, touching about {@code elements} elements, its loops those
     * of {@code computeType} (the dtype whose direct loops the kernel chooses between, which the
     * warm-up then warms: see {@link Warmup.Family}).
     */
    Plan plan(long workspaceSize, long elements, DType computeType, Kernel body) {
        return new KernelPlan(op, family, computeType, workspaceSize, elements, uses(), body);
    }

    /** A plan with nothing to do (and no loops to warm up). */
    Plan noWork() {
        return new KernelPlan(op, Warmup.Family.NONE, DType.FLOAT, 0, 0, List.of(), ws -> { });
    }

    private record KernelPlan(String operator, Warmup.Family family, DType computeType, long workspaceSize,
            long elements, List<Plan.Use> uses, Kernel body)
            implements Plan {
        @Override
        public void run(MemorySegment workspace) {
            // plain Java while the call's loops are cold
            boolean plain = Warmup.begin(family, computeType, elements);
            try {
                body.run(workspace);
            } finally {
                Warmup.end(plain);
            }
            for (int i = 0; i < uses.size(); i++) { // indexed: no iterator on the launch path
                MemoryBlock block = uses.get(i).block();
                if (!block.isLive()) { // a small block's memory stays mapped: say what the caller did
                    throw new Failure(Status.RUNTIME_ERROR, operator + ": device memory was freed while a task was "
                            + "using it: " + uses.get(i).tensor() + " (" + block.describe() + ")");
                }
            }
        }
    }
}
