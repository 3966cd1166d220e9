package io.github.aclnn4j.reference;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * One random case: its generator, the tensors it put on the device (released on close) and a
 * description that names the seed, the parameters and every tensor's layout, for failure messages.
 */
public final class CaseContext implements AutoCloseable {
    /**
     * The seed bit that puts special values into a case's floating inputs ({@link #withSpecials}):
     * no suite's ordinary seeds set it, so they draw what they always drew.
     */
    private static final long SPECIALS = 1L << 62;
    /** What the special cases put in: infinities, NaN, signed zeros, an fp32 subnormal. */
    private static final double[] SPECIAL_VALUES = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
        0.0, -0.0, 1e-40};
    /** The special values without the infinities, for the inputs of {@link #finiteSpecials}. */
    private static final double[] FINITE_SPECIAL_VALUES = {Double.NaN, 0.0, -0.0, 1e-40};

    public final CaseRandom random;
    private final boolean specials;
    /** Inputs that take {@link #FINITE_SPECIAL_VALUES}: "target" and "weight" always (see {@link #finiteSpecials}). */
    private final Set<String> finiteSpecials = new HashSet<>(List.of("target", "weight"));
    private final StringBuilder description;
    private final List<DeviceTensor> tensors = new ArrayList<>();

    public CaseContext(String operator, long seed) {
        this(operator, seed, false);
    }

    /** @param dense a case for the kernels' direct loops, see {@link CaseRandom#CaseRandom(long, boolean)} */
    public CaseContext(String operator, long seed, boolean dense) {
        this.random = new CaseRandom(seed, dense);
        this.specials = (seed & SPECIALS) != 0;
        this.description = new StringBuilder(operator).append(dense ? " dense" : "").append(" seed ").append(seed)
                .append(specials ? " (with special values)" : "");
    }

    /**
     * The case of {@code seed} with special values among its floating inputs: one element in
     * about sixteen (at least one in most tensors) is ±∞, NaN, ±0 or 1e-40 instead of what the case
     * draws, where they meet every branch of the kernels (positive and negative self, clamps,
     * ignored targets, broadcast weights). The results must still be the reference's: infinities and
     * NaN exactly, as the operators' formulas give them in IEEE arithmetic (SPEC §5).
     */
    public static long withSpecials(long seed) {
        return seed | SPECIALS;
    }

    /**
     * Inputs named so take NaN, ±0 and 1e-40 as special values but no infinity: values whose
     * infinities no caller could pass consistently, and whose results then hang on how an equally
     * correct fp32 evaluation orders its terms. Targets always (a probability: an infinite one lies
     * outside the losses' domain, and BCE with logits gathers SPEC's two terms in x into one), and
     * the inputs named "weight" (∞ times a loss that is 0 in one ordering and a rounding residue in
     * another; BCE with logits backward's "weightOptional" keeps its infinities); a case
     * names others (GroupNorm backward: its inputs, whose infinities make its coefficients infinite,
     * where its 16-bit update's {@code b·(x − mean) + k} and PyTorch's {@code b·x + c0} part ways).
     */
    public void finiteSpecials(String... names) {
        finiteSpecials.addAll(List.of(names));
    }

    /**
     * Whether this case puts special values among its inputs ({@link #withSpecials}): where the
     * reference gives an infinity, NaN is accepted too (see {@link Compare#check}).
     */
    public boolean specials() {
        return specials;
    }

    public void note(String what, Object value) {
        description.append(", ").append(what).append(' ').append(value);
    }

    /** An input in a random layout (stride-0 dimensions allowed) whose allocation is filled from {@code values}. */
    public DeviceTensor input(String name, StoredType type, long[] shape, DoubleSupplier values) {
        return add(DeviceTensor.input(name, type, layout(shape, true), special(name, type, values)));
    }

    /** An output in a random non-overlapping layout, filled with the sentinel. */
    public DeviceTensor output(String name, StoredType type, long[] shape) {
        return add(DeviceTensor.output(name, type, layout(shape, false)));
    }

    /** An input in {@code layout}, its allocation filled from {@code values}. */
    public DeviceTensor input(String name, StoredType type, StridedLayout layout, DoubleSupplier values) {
        return add(DeviceTensor.input(name, type, layout, special(name, type, values)));
    }

    /** {@code values}, with special values among them in a special case's floating inputs. */
    private DoubleSupplier special(String name, StoredType type, DoubleSupplier values) {
        if (!specials || !List.of(StoredType.FLOATS).contains(type)) {
            return values;
        }
        double[] pick = finiteSpecials.contains(name) ? FINITE_SPECIAL_VALUES : SPECIAL_VALUES;
        return () -> {
            double v = values.getAsDouble();
            return random.oneIn(16) ? pick[random.nextInt(pick.length)] : v;
        };
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
                : add(DeviceTensor.input("contiguous " + name, t.type, StridedLayout.contiguous(t.arr().shape()),
                        t.replay())); // the same values, specials included
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
