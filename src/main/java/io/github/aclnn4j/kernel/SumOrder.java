package io.github.aclnn4j.kernel;

/**
 * The one order every double sum of float terms adds in (GroupNorm's sums and squared deviations,
 * PReLU backward's gradWeight, FLOAT and rows alike), so that a sum's bits depend neither on the
 * processor's vector width nor on whether the Vector API is there: the terms of a range's first
 * {@code ⌊n/8⌋·8} elements go to {@link #LANES} lanes, term {@code k} (from the range's start) to
 * lane {@code k mod 8}, each lane adding in order from 0; the lanes are then added in lane order
 * from 0 ({@link #sumLanes}), and the range's last {@code n mod 8} terms added to that, in order. The
 * Vector API loops hold the lanes in one 512-bit accumulator where vectors are that wide and as two
 * 256-bit halves where they are not ({@link VectorBulkMath#WIDE}); {@link ScalarBulkMath} keeps
 * them in an array; {@link VectorDirectMath#STEP} fixes where a kernel's direct loops leave
 * elements to rows. Not following it yet: the 16-bit direct loops' fp32 chunk sums (GroupNorm
 * backward, PReLU backward, BCE with logits) and BCE's and BCE with logits' loss sums (fp32 chunks),
 * whose bits therefore still depend on the vector width and on the Vector API being there.
 */
final class SumOrder {
    /** Lanes every such sum adds in. */
    static final int LANES = 8;

    private SumOrder() {}

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

    /** {@code lanes} with its first {@link #LANES} values set to 0, for a new sum. */
    static double[] zeroed(double[] lanes) {
        java.util.Arrays.fill(lanes, 0, LANES, 0.0);
        return lanes;
    }

    /** Elements of {@code [from, to)} that go to the lanes: a multiple of {@link #LANES}. */
    static int laneBound(int from, int to) {
        return from + (to - from) / LANES * LANES;
    }
}
