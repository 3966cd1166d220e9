package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plain-Java loops a cold 16-bit call takes against the Vector API's loops they stand in for,
 * bit for bit: PReLU backward's output and fp32 chunk sum, GroupNorm backward's row sums and
 * update, over several chunks, odd byte offsets, and values with ±0, ±∞, NaN, subnormals and
 * rounding ties.
 */
class PlainHalfChunkLoopsTest {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private static DirectMath vector;
    private static HalfChunkMath plain;

    @BeforeAll
    static void requireVectorApi() {
        vector = DirectMath.INSTANCE;
        assumeTrue(vector != null, "the Vector API is not present: no direct loops to follow");
        plain = new PlainHalfChunkLoops();
    }

    @Test
    void followsTheLoopsWidth() {
        assertEquals(VectorLanes.F.length(), PlainHalfChunkLoops.LANES);
    }

    /** Each dtype with finite values only (sums whose order shows in their bits) and with ±∞ and NaN too. */
    static Stream<Arguments> cases() {
        return Stream.of(DType.BF16, DType.FLOAT16).flatMap(dt -> Stream.of(true, false)
                .flatMap(finite -> Stream.of(1L, 2L, 3L).map(seed -> Arguments.of(dt, finite, seed))));
    }

    /** Elements: two whole chunks and part of a third, a multiple of the loops' step. */
    private static int length(SplittableRandom rng) {
        return 2 * VectorLanes.SUM_CHUNK + DirectMath.STEP * (1 + rng.nextInt(40));
    }

    private static MemorySegment halves(Arena arena, SplittableRandom rng, DType dt, boolean finite, int n, long at) {
        float[] special = finite ? new float[] {0f, -0f, Float.MIN_VALUE, -1e-39f, 1f, 0x1.02p0f, 0x1.03p0f, 6e-8f,
            -3e-5f, 65504f} : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f};
        MemorySegment s = arena.allocate(at + 2L * n + 64);
        for (int i = 0; i < n; i++) {
            float v = rng.nextInt(32) == 0 ? special[rng.nextInt(special.length)] : (float) rng.nextDouble(-3, 3);
            s.set(I16, at + 2L * i, dt == DType.BF16 ? HalfFloats.toBf16(v) : HalfFloats.toHalf(v));
        }
        return s;
    }

    @ParameterizedTest(name = "{0} finite {1} seed {2}")
    @MethodSource("cases")
    void preluFollowsTheVectorLoops(DType dt, boolean finite, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int n = length(rng);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment x = halves(arena, rng, dt, finite, n, 2);
            MemorySegment g = halves(arena, rng, dt, finite, n, 6);
            MemorySegment outVector = arena.allocate(2L * n + 64);
            MemorySegment outPlain = arena.allocate(2L * n + 64);
            float w = (float) rng.nextDouble(-1, 1);
            double sumVector = vector.prelu(dt, x, 2, g, 6, w, outVector, 4, n);
            double sumPlain = plain.prelu(dt, x, 2, g, 6, w, outPlain, 4, n);
            assertEquals(-1L, outVector.mismatch(outPlain), "gradInput");
            assertSameSum(sumVector, sumPlain, "Σ min(x, 0)·g");
        }
    }

    @ParameterizedTest(name = "{0} finite {1} seed {2}")
    @MethodSource("cases")
    void groupNormLoopsFollowTheVectorLoops(DType dt, boolean finite, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int part = length(rng);
        int rows = 3;
        long rowLength = part + 1 + rng.nextInt(50); // rows go on past the loops' part
        int n = (int) (rows * rowLength);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = halves(arena, rng, dt, finite, n, 2);
            MemorySegment b = halves(arena, rng, dt, finite, n, 4);
            MemorySegment sumsVector = arena.allocate(16L * rows + 8);
            MemorySegment sumsPlain = arena.allocate(16L * rows + 8);
            vector.groupSums(dt, a, 2, b, 4, rows, rowLength, part, sumsVector, 8);
            plain.groupSums(dt, a, 2, b, 4, rows, rowLength, part, sumsPlain, 8);
            for (int i = 0; i < 2 * rows; i++) {
                double v = sumsVector.get(F64, 8 + 8L * i);
                double p = sumsPlain.get(F64, 8 + 8L * i);
                assertSameSum(v, p, (i % 2 == 0 ? "Σa" : "Σa·b") + " of row " + i / 2);
            }
            float[] cdy = {0.3f, -0.7f, 1e-3f};
            MemorySegment outVector = arena.allocate(2L * n + 64);
            MemorySegment outPlain = arena.allocate(2L * n + 64);
            vector.groupNormUpdate(dt, a, 2, b, 4, rows, rowLength, part, cdy, -1.7f, 0.125f, 0.01f, outVector, 6);
            plain.groupNormUpdate(dt, a, 2, b, 4, rows, rowLength, part, cdy, -1.7f, 0.125f, 0.01f, outPlain, 6);
            assertEquals(-1L, outVector.mismatch(outPlain), "GroupNorm update");
        }
    }

    /**
     * The same bits, or both NaN: Java leaves the sign and payload of a NaN that arithmetic makes
     * open (which operand's NaN an addition passes on is the JIT's choice), as the outputs' NaN
     * rules do.
     */
    private static void assertSameSum(double expected, double actual, String what) {
        if (!(Double.isNaN(expected) && Double.isNaN(actual))) {
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(actual),
                    what + ": " + expected + " vs " + actual);
        }
    }
}
