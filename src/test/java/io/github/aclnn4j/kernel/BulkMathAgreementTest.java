package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Loops whose contract is "the same bits in every implementation": the one in use (the Vector API
 * when present) against plain Java, on random rows with the edge values (NaN, ±0, ±∞, subnormals).
 */
class BulkMathAgreementTest {
    private static final BulkMath SCALAR = new ScalarBulkMath();
    private static final float[] EDGES = {Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
        Float.MIN_VALUE, -Float.MIN_VALUE, 1e-40f, -3.5f, 2.25f};

    static Stream<Arguments> channelCounts() {
        return IntStream.of(1, 2, 3, 7, 8, 15, 16, 17, 31, 64, 100, 257).mapToObj(Arguments::of);
    }

    @ParameterizedTest(name = "{0} channels")
    @MethodSource("channelCounts")
    void preluChannelRowsAgree(int channels) {
        SplittableRandom r = new SplittableRandom(channels);
        int rows = 1 + 4096 / channels;
        int n = rows * channels;
        float[] x = values(r, n);
        float[] g = values(r, n);
        float[] w = values(r, channels);
        float[] xScalar = x.clone();
        double[] acc = new double[channels];
        double[] accScalar = new double[channels];
        BulkMath.INSTANCE.preluChannelRows(x, g, 0, n, w, channels, acc);
        SCALAR.preluChannelRows(xScalar, g, 0, n, w, channels, accScalar);
        assertArrayEquals(xScalar, x, BulkMath.INSTANCE.name() + ": gradInput");
        assertArrayEquals(accScalar, acc, BulkMath.INSTANCE.name() + ": channel sums");
    }

    private static float[] values(SplittableRandom r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(16) == 0 ? EDGES[r.nextInt(EDGES.length)] : (float) r.nextGaussian();
        }
        return v;
    }
}
