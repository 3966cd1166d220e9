package io.github.aclnn4j.kernel;

/**
 * The one order every double sum of float terms adds in (GroupNorm backward's row sums, PReLU
 * backward's gradWeight, FLOAT and rows alike), so that a sum's bits depend neither on the
 * processor's vector width nor on whether the Vector API is there: the terms of a range's first
 * {@code ⌊n/8⌋·8} elements go to {@link #LANES} lanes, term {@code k} (from the range's start) to
 * lane {@code k mod 8}, each lane adding in order from 0; the lanes are then added in lane order
 * from 0 ({@link #sumLanes}), and the range's last {@code n mod 8} terms added to that, in order. The
 * Vector API loops hold the lanes in one 512-bit accumulator where vectors are that wide and as two
 * 256-bit halves where they are not ({@link VectorBulkMath#WIDE}); {@link ScalarBulkMath} keeps
 * them in an array; {@link DirectMath#STEP} fixes where a kernel's direct loops leave
 * elements to rows. Not following it yet: the 16-bit direct loops' fp32 chunk sums (GroupNorm
 * backward, PReLU backward), whose bits therefore still depend on the vector width and on the
 * Vector API being there ({@link PlainHalfChunkLoops} follows them while they are cold; both move
 * their chunks into double lanes through {@link #addChunkLanes}). BCE's and BCE with logits' sums
 * of their losses have an order of their own, {@link #chunkedSum}, and GroupNorm forward's sums
 * over a whole group theirs, {@link #GROUP_LANES}.
 */
final class SumOrder {
    /** Lanes every such sum adds in. */
    static final int LANES = 8;
    /** fp32 lanes of a {@link #chunkedSum}: two for each double lane. */
    static final int FLOAT_LANES = 2 * LANES;
    /** Elements a {@link #chunkedSum} adds in fp32 before it moves them into its double lanes. */
    static final int CHUNK = 128;

    /**
     * Lanes of GroupNorm forward's sums over a group ({@code Σx}, then {@code Σ(x − mean)²}): as
     * above, but term {@code k} of the first {@code ⌊n/8⌋·8} goes to lane {@code k mod 32}, and
     * the lanes fold into 8 as {@code (l[j] + l[j+8]) + (l[j+16] + l[j+24])} before they are added
     * in order ({@link #foldGroupLanes}). One lane's terms form one chain of dependent additions:
     * four independent chains per 8 lanes let a long group's sums run at the vector units' rate
     * rather than at an addition's latency (64×512×7×7 forward, 784-element groups: bench ab
     * 0.785 → 0.647 ms), and summing in more lanes only shortens each lane's rounding chain.
     */
    static final int GROUP_LANES = 4 * LANES;

    private SumOrder() {}

    /** {@code lanes[0, GROUP_LANES)} folded into {@code lanes[0, LANES)}, then those added in order. */
    static double foldGroupLanes(double[] lanes) {
        for (int j = 0; j < LANES; j++) {
            lanes[j] = (lanes[j] + lanes[j + LANES]) + (lanes[j + 2 * LANES] + lanes[j + 3 * LANES]);
        }
        return sumLanes(lanes);
    }

    /** {@code lanes[0, count)} added in order from 0: a vector's double lanes, stored by the caller. */
    static double sumFirst(double[] lanes, int count) {
        return sumFirst(lanes, 0, count);
    }

    /** {@code lanes[from, from + count)} added in order from {@code from}, as {@link #sumFirst(double[], int)}. */
    static double sumFirst(double[] lanes, int from, int count) {
        double sum = 0;
        for (int i = from; i < from + count; i++) {
            sum += lanes[i];
        }
        return sum;
    }

    /**
     * Adds the 16-bit loops' fp32 chunk sums, {@code vectors} vectors stored one after the other in
     * {@code chunk}, to the {@code doubleLanes} double lanes {@code acc} (half a vector's fp32
     * lanes): each vector's low half, then its high half, lane for lane, the bits that adding their
     * {@code F2D} conversions to a double vector gives. Shared by the Vector API's loops and
     * {@link PlainHalfChunkLoops}, so both add alike; in scalar code, as C2 did not always compile
     * the vector form (in a long-lived JVM it boxed, 4 MB per GroupNorm call). Once per chunk, so
     * its cost does not show.
     */
    static void addChunkLanes(double[] acc, float[] chunk, int vectors, int doubleLanes) {
        for (int v = 0; v < 2 * vectors; v++) {
            for (int j = 0; j < doubleLanes; j++) {
                acc[j] += chunk[v * doubleLanes + j];
            }
        }
    }

    /**
     * {@link #addChunkLanes} for GroupNorm's two sums at once: {@code chunk} holds the vectors
     * sum0, sum1, dot0, dot1, and each lane adds its four terms in the order addChunkLanes does, so
     * the bits are the same; one unrolled pass instead of two nested loops per sum (a row's sums end
     * with it, every 1024 elements in the benchmark's GroupNorm).
     */
    static void addChunkPairs(double[] sums, double[] dots, float[] chunk, int doubleLanes) {
        int d = doubleLanes;
        for (int j = 0; j < d; j++) {
            sums[j] = sums[j] + chunk[j] + chunk[d + j] + chunk[2 * d + j] + chunk[3 * d + j];
            dots[j] = dots[j] + chunk[4 * d + j] + chunk[5 * d + j] + chunk[6 * d + j] + chunk[7 * d + j];
        }
    }

    /** {@code lanes[0, LANES)} added in order from 0. */
    static double sumLanes(double[] lanes) {
        return sumLanes(lanes, 0);
    }

    /** {@code lanes[from, from + LANES)} added in order from 0. */
    static double sumLanes(double[] lanes, int from) {
        double sum = 0;
        for (int i = from; i < from + LANES; i++) {
            sum += lanes[i];
        }
        return sum;
    }

    /**
     * BCE's (and BCE with logits') sum of its fp32 losses {@code v[0, n)}: the first
     * {@code ⌊n/16⌋·16} in 16 fp32 lanes (element k in lane {@code k mod 16}) over each {@link #CHUNK} elements, each chunk then moved
     * into the double lanes, lane j getting fp32 lane j and then lane j + 8; those lanes added in
     * order; then the last {@code n mod 16} elements the same way as one chunk of their own, their
     * sum added. Plain Java; {@code VectorBulkMath} adds in the same order.
     */
    static double chunkedSum(float[] v, int n) {
        Scratch scratch = Scratch.get();
        double[] lanes = scratch.lanes;
        float[] chunk = scratch.chunkLanes;
        int full = n - n % FLOAT_LANES;
        double sum = chunks(v, 0, full, zeroed(lanes), chunk);
        return full < n ? sum + chunks(v, full, n, zeroed(lanes), chunk) : sum;
    }

    /**
     * {@code v[from, to)} in fp32 chunks into {@code lanes}, which are then added: see
     * {@link #chunkedSum}. Whole steps of {@link #FLOAT_LANES} elements go lane for lane (a loop C2
     * vectorizes: each lane still adds its terms in order), the last partial step one by one.
     */
    private static double chunks(float[] v, int from, int to, double[] lanes, float[] chunk) {
        for (int start = from; start < to; start += CHUNK) {
            int end = Math.min(start + CHUNK, to);
            java.util.Arrays.fill(chunk, 0, FLOAT_LANES, 0f);
            int i = start;
            for (; i + FLOAT_LANES <= end; i += FLOAT_LANES) {
                for (int j = 0; j < FLOAT_LANES; j++) {
                    chunk[j] += v[i + j];
                }
            }
            for (int j = 0; i < end; i++, j++) {
                chunk[j] += v[i];
            }
            for (int j = 0; j < LANES; j++) {
                lanes[j] = lanes[j] + chunk[j] + chunk[j + LANES];
            }
        }
        return sumLanes(lanes);
    }

    /** {@code lanes} with its first {@link #LANES} values set to 0, for a new sum. */
    static double[] zeroed(double[] lanes) {
        java.util.Arrays.fill(lanes, 0, LANES, 0.0);
        return lanes;
    }

    /** {@code lanes} with its first {@link #GROUP_LANES} values set to 0, for a new group sum. */
    static double[] zeroedGroupLanes(double[] lanes) {
        java.util.Arrays.fill(lanes, 0, GROUP_LANES, 0.0);
        return lanes;
    }

    /** Elements of {@code [from, to)} that go to the lanes: a multiple of {@link #LANES}. */
    static int laneBound(int from, int to) {
        return from + (to - from) / LANES * LANES;
    }
}
