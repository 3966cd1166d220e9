package io.github.aclnn4j.reference;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * One random case: its generator, the tensors it put on the device (released on close) and a
 * description that names the seed, the parameters and every tensor's layout, for failure messages.
 */
public final class CaseContext implements AutoCloseable {
    public final CaseRandom random;
    private final StringBuilder description;
    private final List<DeviceTensor> tensors = new ArrayList<>();

    public CaseContext(String operator, long seed) {
        this(operator, seed, false);
    }

    /** @param dense a case for the kernels' direct loops, see {@link CaseRandom#CaseRandom(long, boolean)} */
    public CaseContext(String operator, long seed, boolean dense) {
        this.random = new CaseRandom(seed, dense);
        this.description = new StringBuilder(operator).append(dense ? " dense" : "").append(" seed ").append(seed);
    }

    public void note(String what, Object value) {
        description.append(", ").append(what).append(' ').append(value);
    }

    /** An input in a random layout (stride-0 dimensions allowed) whose allocation is filled from {@code values}. */
    public DeviceTensor input(String name, StoredType type, long[] shape, DoubleSupplier values) {
        return add(DeviceTensor.input(name, type, layout(shape, true), values));
    }

    /** An output in a random non-overlapping layout, filled with the sentinel. */
    public DeviceTensor output(String name, StoredType type, long[] shape) {
        return add(DeviceTensor.output(name, type, layout(shape, false)));
    }

    /** An input in {@code layout}, its allocation filled from {@code values}. */
    public DeviceTensor input(String name, StoredType type, StridedLayout layout, DoubleSupplier values) {
        return add(DeviceTensor.input(name, type, layout, values));
    }

    /** An output in {@code layout}, filled with the sentinel. */
    public DeviceTensor output(String name, StoredType type, StridedLayout layout) {
        return add(DeviceTensor.output(name, type, layout));
    }

    /**
     * A contiguous copy of input {@code t} (null for null), named {@code "contiguous " + name}: the
     * same values of the same type in row-major order, for the same call on dense inputs.
     */
    public DeviceTensor contiguousCopy(String name, DeviceTensor t) {
        return t == null ? null
                : input("contiguous " + name, t.type, StridedLayout.contiguous(t.arr().shape()), t.replay());
    }

    /** A layout as {@link #input(String, StoredType, long[], java.util.function.DoubleSupplier)} draws one. */
    public StridedLayout layout(long[] shape, boolean mayExpand) {
        return random.dense() ? StridedLayout.dense(random.rng, shape) : StridedLayout.random(random.rng, shape, mayExpand);
    }

    private DeviceTensor add(DeviceTensor t) {
        tensors.add(t);
        return t;
    }

    public String describe() {
        StringBuilder s = new StringBuilder(description);
        for (DeviceTensor t : tensors) {
            s.append("\n  ").append(t.describe());
        }
        return s.toString();
    }

    @Override
    public void close() {
        for (DeviceTensor t : tensors) {
            t.close();
        }
    }
}
