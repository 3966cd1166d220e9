package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;

/**
 * How kernels cut work: logical element ranges of {@link #SIZE} elements. Reductions sum each block
 * on its own and then combine the block sums pairwise, so a result depends on the block size only,
 * never on how many threads ran the blocks.
 */
public final class Blocks {
    /** Elements per block: large enough to amortise a gather, small enough to stay in L1/L2. */
    public static final int SIZE = 4096;

    private Blocks() {}

    public static long count(long numel) {
        return (numel + SIZE - 1) / SIZE;
    }

    /** Pairwise sum of {@code n} doubles stored at the start of {@code partials}. */
    public static double pairwiseSum(MemorySegment partials, long n) {
        return pairwise(Scratch.get().workspaceDoubles(partials, 0, Math.toIntExact(n)), 0, (int) n);
    }

    private static double pairwise(double[] partials, int from, int n) {
        if (n <= 8) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += partials[from + i];
            }
            return s;
        }
        int half = n / 2;
        return pairwise(partials, from, half) + pairwise(partials, from + half, n - half);
    }
}
