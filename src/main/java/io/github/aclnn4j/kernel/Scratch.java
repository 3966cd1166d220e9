package io.github.aclnn4j.kernel;

/**
 * Per-thread block buffers, so that running a kernel allocates nothing: four float rows of one
 * block each, a row for fills and an index for walking strided views.
 */
final class Scratch {
    private static final ThreadLocal<Scratch> LOCAL = ThreadLocal.withInitial(Scratch::new);

    final float[] a = new float[Blocks.SIZE];
    final float[] b = new float[Blocks.SIZE];
    final float[] c = new float[Blocks.SIZE];
    final float[] d = new float[Blocks.SIZE];
    /** All ones, never written: stands for an absent weight. */
    final float[] ones = new float[Blocks.SIZE];
    /** Only for {@link StridedView#fill}, which kernels call while holding the other rows. */
    final float[] fillRow = new float[Blocks.SIZE];
    /** Only for {@link StridedView}'s 16-bit runs, which pass through it on their way to floats. */
    final short[] halfRow = new short[Blocks.SIZE];
    final long[] index = new long[16];
    /** Padded tails of up to four operands, one vector long (at most 16 lanes today; room for more). */
    final float[][] tails = new float[4][64];

    private double[] sums = new double[0];
    /** A GroupNorm group's dy and x; see {@link #ensureGroupRows}. */
    float[] groupA = new float[0];
    float[] groupB = new float[0];

    private Scratch() {
        java.util.Arrays.fill(ones, 1f);
    }

    /** A zeroed array of at least {@code n} doubles, reused across calls. */
    double[] sums(int n) {
        if (sums.length < n) {
            sums = new double[Math.max(n, 2 * sums.length)];
        }
        java.util.Arrays.fill(sums, 0, n, 0.0);
        return sums;
    }

    /** Grows {@link #groupA} and {@link #groupB} to at least {@code n} elements. */
    void ensureGroupRows(int n) {
        if (groupA.length < n) {
            groupA = new float[n];
            groupB = new float[n];
        }
    }

    static Scratch get() {
        return LOCAL.get();
    }
}
