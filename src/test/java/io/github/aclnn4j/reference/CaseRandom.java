package io.github.aclnn4j.reference;

import java.util.Arrays;
import java.util.SplittableRandom;

/** The random choices of a case, all from one seeded generator so that a seed names a case. */
public final class CaseRandom {
    /** From this many elements on, {@link #shape} makes most shapes nearly as large as allowed. */
    static final int LARGE = 10_000;

    public final SplittableRandom rng;
    /** In a dense case, the one float type of every tensor; otherwise null. */
    private final StoredType denseType;

    public CaseRandom(long seed) {
        this(seed, false);
    }

    /**
     * @param dense a case for the kernels' direct loops: one float type for all tensors, and
     *     broadcast operands mostly of the full shape (else a single value)
     */
    public CaseRandom(long seed, boolean dense) {
        this.rng = new SplittableRandom(seed);
        this.denseType = dense ? StoredType.FLOATS[rng.nextInt(StoredType.FLOATS.length)] : null;
    }

    public boolean dense() {
        return denseType != null;
    }

    public int nextInt(int bound) {
        return rng.nextInt(bound);
    }

    public int nextInt(int from, int to) {
        return rng.nextInt(from, to);
    }

    public boolean nextBoolean() {
        return rng.nextBoolean();
    }

    /** True with probability 1/n. */
    public boolean oneIn(int n) {
        return rng.nextInt(n) == 0;
    }

    public double uniform(double from, double to) {
        return rng.nextDouble(from, to);
    }

    public StoredType floatType() {
        if (denseType != null) {
            return denseType;
        }
        return StoredType.FLOATS[rng.nextInt(StoredType.FLOATS.length)];
    }

    /**
     * A shape of the given rank with at most {@code maxNumel} elements: many size-1 and small
     * dimensions, now and then a larger one, and with probability 1/{@code emptyOneIn} a zero.
     * Large budgets are mostly filled.
     */
    public long[] shape(int rank, int maxNumel, int emptyOneIn) {
        long[] shape = new long[rank];
        long numel = 1;
        for (int d = 0; d < rank; d++) {
            int pick = rng.nextInt(10);
            long size = pick < 3 ? 1 : pick < 8 ? rng.nextInt(2, 6) : rng.nextInt(6, 40);
            size = Math.max(1, Math.min(size, maxNumel / numel));
            shape[d] = size;
            numel *= size;
        }
        if (rank > 0 && maxNumel >= LARGE && !oneIn(4)) {
            // Large cases exist to exercise multi-threaded kernels: grow one dimension to fill the budget.
            int d = rng.nextInt(rank);
            shape[d] = Math.max(shape[d], shape[d] * (maxNumel / numel));
        }
        if (rank > 0 && emptyOneIn > 0 && oneIn(emptyOneIn)) {
            shape[rng.nextInt(rank)] = 0;
        }
        return shape;
    }

    /**
     * A shape that broadcasts to {@code to} (numpy rules): a random number of its trailing
     * dimensions, each kept or set to 1; half of the time {@code to} itself. In a dense case,
     * {@code to} itself or, one time in four, {@code [1]}.
     */
    public long[] broadcastableTo(long[] to) {
        if (denseType != null) {
            return oneIn(4) && to.length > 0 ? new long[] {1} : to.clone();
        }
        if (rng.nextBoolean()) {
            return to.clone();
        }
        int rank = rng.nextInt(to.length + 1);
        long[] shape = Arrays.copyOfRange(to, to.length - rank, to.length);
        for (int d = 0; d < rank; d++) {
            if (oneIn(3)) {
                shape[d] = 1;
            }
        }
        return shape;
    }

    /** [] or [1]: the two shapes of a one-element tensor. */
    public long[] oneElementShape() {
        return rng.nextBoolean() ? new long[0] : new long[] {1};
    }

    /**
     * A shape for the 16-bit layout cases: rank 2 to 4, the leading dimensions 1 to 3, the last two
     * up to 90, or now and then up to 700 (rows or channels past one panel).
     */
    public long[] halfLayoutShape() {
        int rank = 2 + nextInt(3);
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = d < rank - 2 ? 1 + nextInt(3) : oneIn(4) ? 1 + nextInt(700) : 1 + nextInt(90);
        }
        return shape;
    }

    /**
     * As {@link #halfLayoutShape}, the last two dimensions longer half of the time (200 to 699): a
     * transposed FLOAT operand's runs in memory then outgrow a tile's row (256), which the FLOAT calls
     * computed in memory order need.
     */
    public long[] floatLayoutShape() {
        int rank = 2 + nextInt(3);
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = d < rank - 2 ? 1 + nextInt(3) : nextBoolean() ? 200 + nextInt(500) : 1 + nextInt(90);
        }
        return shape;
    }

    /**
     * The dtype of a permuted-layout case: BFLOAT16 or FLOAT16, drawn; FLOAT when {@code floats}
     * (the draw made all the same, so that a seed's later draws do not depend on it).
     */
    public StoredType layoutType(boolean floats) {
        StoredType drawn = nextBoolean() ? StoredType.BF16 : StoredType.FLOAT16;
        return floats ? StoredType.FLOAT : drawn;
    }

    /** {@code usual} three times in four, else {@link #contiguousOrPermuted}. */
    public StridedLayout mostlyLike(StridedLayout usual, long[] shape) {
        return oneIn(4) ? contiguousOrPermuted(shape) : usual;
    }

    /** Contiguous, transposed (the last two dimensions swapped in memory) or, from rank 4, channels-last. */
    public StridedLayout contiguousOrPermuted(long[] shape) {
        return switch (nextInt(shape.length >= 4 ? 3 : 2)) {
            case 0 -> StridedLayout.contiguous(shape);
            case 1 -> StridedLayout.transposed(shape);
            default -> StridedLayout.channelsLast(shape);
        };
    }
}
