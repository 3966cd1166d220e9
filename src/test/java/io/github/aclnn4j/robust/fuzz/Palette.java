package io.github.aclnn4j.robust.fuzz;

import java.util.SplittableRandom;

/** The values the fuzzers draw from: every documented code and the edges around them. */
final class Palette {
    private Palette() {}

    /** Every aclDataType (SPEC §2), and codes that are none. */
    static final int[] DTYPES = {-1, 0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 27,
        5, 14, 15, 26, 28, 99, Integer.MIN_VALUE, Integer.MAX_VALUE};

    /** Every aclFormat (SPEC §2), and codes that are none. */
    static final int[] FORMATS = {-1, 0, 1, 2, 3, 4, 12, 16, 27, 29, 30, 32, 33, 35, 47,
        5, 48, 1000, Integer.MIN_VALUE, Integer.MAX_VALUE};

    /** The formats the operators read as plain strided views. */
    static final int[] PLAIN_FORMATS = {0, 1, 2, 2, 2, 16, 27, 30, 35, 47};

    static final long[] DIMS = {0, 1, 2, 3, 9, -1, -2, Integer.MIN_VALUE, 1L << 31, 1L << 32, 1L << 40, 3037000500L,
        Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE / 2};

    static final long[] STRIDES = {0, 1, 2, -1, -4, 1L << 31, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE,
        Long.MAX_VALUE / 2, Long.MAX_VALUE / 4 + 1};

    static final long[] OFFSETS = {-1, 1, 7, 64, 1L << 20, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE,
        Long.MAX_VALUE / 2, Long.MAX_VALUE / 4};

    /** Pointer arithmetic: misaligned, before the start, past the end, absurd. */
    static final long[] BYTE_SHIFTS = {1, 2, 3, -1, -4, -64, 64, 4096, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE};

    /** Integer attributes: reductions, ignoreIndex, N, C, HxW, group. */
    static final long[] ATTRIBUTES = {0, 1, 2, 3, -1, -2, -100, 255, 8000, 8001, 240000, 240001, 1L << 31,
        (1L << 31) - 1, 1L << 32, 1L << 40, 3037000500L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE / 2};

    private static final double[] SPECIAL = {0.0, -0.0, 1, -1, 0.5, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 1e-40, 65504, 65520, 3e38, -3e38, 1e-12};

    /** A tensor element: mostly ordinary, sometimes a value at the edge of the float formats. */
    static double value(SplittableRandom rng) {
        return rng.nextInt(8) == 0 ? SPECIAL[rng.nextInt(SPECIAL.length)] : rng.nextDouble(-3, 3);
    }
}
