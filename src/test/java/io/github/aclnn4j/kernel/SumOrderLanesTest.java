package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SumOrder}'s definition, written out here independently: term k of a range's first
 * {@code ⌊n/8⌋·8} in lane {@code k mod 8}, the lanes added in order, then the last terms in order
 * (GroupNorm forward's group sums: lane {@code k mod 32}, the lanes folded into 8 first).
 * Plain Java must give exactly that sum, and every Vector API step loop must leave exactly those
 * lanes, both its 512-bit form (which runs here in the Vector API's Java fallback where the
 * processor has no 512-bit vectors) and its 256-bit one, so that neither goes untested on the
 * machine at hand; the same for {@link SumOrder#chunkedSum}.
 */
class SumOrderLanesTest {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final int LANES = 8;
    private static final int GROUP_LANES = 32;

    static IntStream lengths() {
        return IntStream.of(0, 1, 15, 16, 17, 31, 32, 33, 48, 49, 56, 100, 784, 1000, 1029, 1048);
    }

    @ParameterizedTest
    @MethodSource("lengths")
    void plainJavaAddsInTheDefinedOrder(int n) {
        Terms t = new Terms(n);
        double[] pair = new double[2];
        ScalarBulkMath plain = new ScalarBulkMath();
        plain.sumAndDot(t.a, t.b, 3, 3 + n, pair);
        assertBits(t.sum(n), pair[0], "sum");
        assertBits(t.dot(n), pair[1], "dot");
        assertBits(t.groupSquares(n), plain.squaredDeviations(t.a, 3, 3 + n, Terms.SHIFT), "squares");
        assertBits(t.groupSum(n), plain.groupSum(t.a, 3, 3 + n), "groupSum");
        assertBits(t.prelu(n), plain.preluRow(t.a.clone(), t.b, 3, 3 + n, 0.25f), "prelu");
    }

    @ParameterizedTest
    @MethodSource("lengths")
    void bothWidthsOfTheRowLoopsLeaveTheDefinedLanes(int n) {
        Terms t = new Terms(n);
        int steps = n - n % LANES;
        double[] wide = new double[2 * LANES];
        double[] quarters = new double[2 * LANES];
        assertEquals(3 + steps, VectorBulkMath.sumAndDotWide(t.a, t.b, 3, 3 + n, wide));
        assertEquals(3 + steps, VectorBulkMath.sumAndDotHalves(t.a, t.b, 3, 3 + n, quarters));
        assertLanes(t.sumLanes(steps), wide, 0, "sumAndDotWide sums");
        assertLanes(t.dotLanes(steps), wide, LANES, "sumAndDotWide dots");
        assertLanes(t.sumLanes(steps), quarters, 0, "sumAndDotHalves sums");
        assertLanes(t.dotLanes(steps), quarters, LANES, "sumAndDotHalves dots");

        double[] groupWide = new double[GROUP_LANES];
        double[] groupQuarters = new double[GROUP_LANES];
        assertEquals(3 + steps, VectorBulkMath.squaresWide(t.a, 3, 3 + n, Terms.SHIFT, groupWide));
        assertEquals(3 + steps, VectorBulkMath.squaresHalves(t.a, 3, 3 + n, Terms.SHIFT, groupQuarters));
        assertGroupLanes(t.groupSquareLanes(steps), groupWide, "squaresWide");
        assertGroupLanes(t.groupSquareLanes(steps), groupQuarters, "squaresHalves");
        assertEquals(3 + steps, VectorBulkMath.sumsWide(t.a, 3, 3 + n, groupWide));
        assertEquals(3 + steps, VectorBulkMath.sumsHalves(t.a, 3, 3 + n, groupQuarters));
        assertGroupLanes(t.groupSumLanes(steps), groupWide, "sumsWide");
        assertGroupLanes(t.groupSumLanes(steps), groupQuarters, "sumsHalves");

        float[] xw = t.a.clone();
        float[] xq = t.a.clone();
        VectorBulkMath.preluLanesWide(xw, t.b, 3, 3 + n, 0.25f, wide);
        VectorBulkMath.preluLanesHalves(xq, t.b, 3, 3 + n, 0.25f, quarters);
        assertLanes(t.preluLanes(steps), wide, 0, "preluLanesWide");
        assertLanes(t.preluLanes(steps), quarters, 0, "preluLanesHalves");
    }

    @ParameterizedTest
    @MethodSource("lengths")
    void bothWidthsOfTheDirectLoopsLeaveTheDefinedLanes(int n) {
        Terms t = new Terms(n);
        int steps = n - n % LANES;
        int wholePrelu = n - n % 16; // the direct PReLU loop takes whole 512-bit steps of floats
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(4L * t.a.length + 4);
            MemorySegment b = arena.allocate(4L * t.b.length + 4);
            MemorySegment.copy(t.a, 0, a, F32, 4, t.a.length);
            MemorySegment.copy(t.b, 0, b, F32, 4, t.b.length);
            long at = 4 + 4 * 3; // element 3, as the rows' ranges start
            double[] wide = new double[2 * LANES];
            double[] quarters = new double[2 * LANES];
            double[] groupWide = new double[GROUP_LANES];
            double[] groupQuarters = new double[GROUP_LANES];
            assertEquals(steps, GroupNormVectorLoops.readLanesWide(a, at, new float[n], n, groupWide));
            assertEquals(steps, GroupNormVectorLoops.readLanesHalves(a, at, new float[n], n, groupQuarters));
            assertGroupLanes(t.groupSumLanes(steps), groupWide, "readLanesWide");
            assertGroupLanes(t.groupSumLanes(steps), groupQuarters, "readLanesHalves");

            assertEquals(steps, GroupNormBackwardVectorLoops.rowLanesWide(a, at, b, at, n, wide));
            assertEquals(steps, GroupNormBackwardVectorLoops.rowLanesHalves(a, at, b, at, n, quarters));
            assertLanes(t.sumLanes(steps), wide, 0, "rowLanesWide sums");
            assertLanes(t.dotLanes(steps), wide, LANES, "rowLanesWide dots");
            assertLanes(t.sumLanes(steps), quarters, 0, "rowLanesHalves sums");
            assertLanes(t.dotLanes(steps), quarters, LANES, "rowLanesHalves dots");

            MemorySegment out = arena.allocate(4L * n + 4);
            PreluBackwardVectorLoops.preluLanesWide(a, at, b, at, 0.25f, out, 0, wholePrelu, wide);
            PreluBackwardVectorLoops.preluLanesHalves(a, at, b, at, 0.25f, out, 0, wholePrelu, quarters);
            assertLanes(t.preluLanes(wholePrelu), wide, 0, "PReLU backward preluLanesWide");
            assertLanes(t.preluLanes(wholePrelu), quarters, 0, "PReLU backward preluLanesHalves");
            if (DirectOperands.math() != null && n >= 1) { // the whole direct sums, at this processor's width
                MemorySegment sums = arena.allocate(16);
                DirectOperands.math().groupSums(DType.FLOAT, a, at, b, at, 1, n, n, sums, 0);
                assertBits(t.sum(n), sums.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0), "groupSums sum");
                assertBits(t.dot(n), sums.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8), "groupSums dot");
                assertBits(t.groupSum(n), DirectOperands.math().readAndSum(DType.FLOAT, a, at, new float[n], n),
                        "readAndSum");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("lengths")
    void bothWidthsOfTheChunkedSumAddInItsOrder(int n) {
        float[] v = new Terms(n + 200).a; // past one CHUNK of 128 for the longer lengths
        int len = n + 200;
        double expected = SumOrder.chunkedSum(v, len);
        assertBits(expected, VectorBulkMath.chunkedSumWide(v, len), "chunkedSumWide");
        assertBits(expected, VectorBulkMath.chunkedSumHalves(v, len), "chunkedSumHalves");
    }

    /** Terms of magnitudes 2^-20 to 2^20 from element 3 on, so that any other order shows in the bits. */
    private static final class Terms {
        static final double SHIFT = 0.125;
        final float[] a;
        final float[] b;

        Terms(int n) {
            SplittableRandom r = new SplittableRandom(31L * n + 7);
            a = new float[n + 3];
            b = new float[n + 3];
            for (int i = 0; i < n + 3; i++) {
                a[i] = (float) (r.nextGaussian() * Math.scalb(1.0, r.nextInt(-20, 20)));
                b[i] = (float) (r.nextGaussian() * Math.scalb(1.0, r.nextInt(-20, 20)));
            }
        }

        /** The defined sums: the lanes of the whole steps in order, then the last terms in order. */
        double sum(int n) {
            int steps = n - n % LANES;
            double s = inOrder(sumLanes(steps));
            for (int k = steps; k < n; k++) {
                s += a[3 + k];
            }
            return s;
        }

        double dot(int n) {
            int steps = n - n % LANES;
            double s = inOrder(dotLanes(steps));
            for (int k = steps; k < n; k++) {
                s += (double) a[3 + k] * b[3 + k];
            }
            return s;
        }

        /** GroupNorm forward's sums: the 32 lanes folded, {@code (l[j] + l[j+8]) + (l[j+16] + l[j+24])}, first. */
        double groupSum(int n) {
            int steps = n - n % LANES;
            double s = inOrder(folded(groupSumLanes(steps)));
            for (int k = steps; k < n; k++) {
                s += a[3 + k];
            }
            return s;
        }

        double groupSquares(int n) {
            int steps = n - n % LANES;
            double s = inOrder(folded(groupSquareLanes(steps)));
            for (int k = steps; k < n; k++) {
                double d = a[3 + k] - SHIFT;
                s += d * d;
            }
            return s;
        }

        double prelu(int n) {
            int steps = n - n % LANES;
            double s = inOrder(preluLanes(steps));
            for (int k = steps; k < n; k++) {
                s += (a[3 + k] > 0 ? 0 : a[3 + k]) * (double) b[3 + k];
            }
            return s;
        }

        private static double[] folded(double[] lanes) {
            double[] f = new double[LANES];
            for (int j = 0; j < LANES; j++) {
                f[j] = (lanes[j] + lanes[j + 8]) + (lanes[j + 16] + lanes[j + 24]);
            }
            return f;
        }

        private static double inOrder(double[] lanes) {
            double s = 0;
            for (double lane : lanes) {
                s += lane;
            }
            return s;
        }

        double[] sumLanes(int n) {
            double[] lanes = new double[LANES];
            for (int k = 0; k < n; k++) {
                lanes[k % LANES] += a[3 + k];
            }
            return lanes;
        }

        double[] dotLanes(int n) {
            double[] lanes = new double[LANES];
            for (int k = 0; k < n; k++) {
                lanes[k % LANES] = Math.fma(a[3 + k], b[3 + k], lanes[k % LANES]);
            }
            return lanes;
        }

        double[] groupSumLanes(int n) {
            double[] lanes = new double[GROUP_LANES];
            for (int k = 0; k < n; k++) {
                lanes[k % GROUP_LANES] += a[3 + k];
            }
            return lanes;
        }

        double[] groupSquareLanes(int n) {
            double[] lanes = new double[GROUP_LANES];
            for (int k = 0; k < n; k++) {
                double d = a[3 + k] - SHIFT;
                lanes[k % GROUP_LANES] = Math.fma(d, d, lanes[k % GROUP_LANES]);
            }
            return lanes;
        }

        double[] preluLanes(int n) {
            double[] lanes = new double[LANES];
            for (int k = 0; k < n; k++) {
                double negative = a[3 + k] > 0 ? 0 : a[3 + k];
                lanes[k % LANES] = Math.fma(negative, b[3 + k], lanes[k % LANES]);
            }
            return lanes;
        }
    }

    private static void assertLanes(double[] expected, double[] actual, int from, String what) {
        for (int j = 0; j < LANES; j++) {
            assertBits(expected[j], actual[from + j], what + " lane " + j);
        }
    }

    private static void assertGroupLanes(double[] expected, double[] actual, String what) {
        for (int j = 0; j < GROUP_LANES; j++) {
            assertBits(expected[j], actual[j], what + " lane " + j);
        }
    }

    private static void assertBits(double expected, double actual, String what) {
        assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(actual),
                () -> what + ": expected " + expected + ", got " + actual);
    }
}
