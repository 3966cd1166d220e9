package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Tiling}: over random shapes and layouts (contiguous, dims permuted in memory, broadcast),
 * the pieces cover every logical element exactly once, and within each piece every operand's k-th
 * element is the same logical element as the first operand's.
 */
class TilingTest {
    static Stream<Arguments> cases() {
        SplittableRandom r = new SplittableRandom(20261125);
        return IntStream.range(0, 300).mapToObj(i -> {
            int rank = 1 + r.nextInt(4);
            long[] shape = new long[rank];
            for (int d = 0; d < rank; d++) {
                shape[d] = 1 + r.nextInt(d >= rank - 2 ? 150 : 4);
            }
            return Arguments.of(i, shape, r.nextLong());
        });
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void piecesCoverEveryElementOnceAndAlignTheOperands(int index, long[] shape, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = Math.toIntExact(Arrays.stream(shape).reduce(1, (a, b) -> a * b));
        StridedView[] views = new StridedView[4];
        try (Arena arena = Arena.ofConfined()) {
            for (int v = 0; v < views.length; v++) {
                views[v] = v == 3 && r.nextBoolean() ? broadcastOfLastDim(arena, shape) : layout(arena, shape,
                        v == 0 ? identity(shape.length) : permutation(shape.length, r));
            }
            StridedView[][] pieces = Tiling.pieces(shape, views);
            int[] seen = new int[n];
            for (StridedView[] piece : pieces) {
                int len = Math.toIntExact(piece[0].numel());
                float[] first = new float[len];
                piece[0].gather(0, first, len);
                for (float f : first) {
                    seen[(int) f]++;
                }
                for (int v = 1; v < views.length; v++) {
                    assertEquals(len, piece[v].numel());
                    float[] other = new float[len];
                    piece[v].gather(0, other, len);
                    float[] expected = v == 3 && views[3].stride(shape.length - 1) == 1 && isBroadcast(views[3], shape)
                            ? lastIndexOf(first, shape) : first;
                    assertArrayEquals(expected, other, "case " + index + " " + Arrays.toString(shape) + ": operand "
                            + v + " is not aligned with operand 0 in a piece");
                }
            }
            int[] once = new int[n];
            Arrays.fill(once, 1);
            assertArrayEquals(once, seen, "case " + index + " " + Arrays.toString(shape)
                    + ": elements not covered exactly once by " + pieces.length + " pieces");
        }
    }

    /**
     * A broadcast operand (a per-channel weight with stride 0 along the other dimensions) does not
     * make contiguous operands tile-ordered, though its innermost dimension is not the last; an
     * operand that is transposed does.
     */
    @org.junit.jupiter.api.Test
    void broadcastOperandsDoNotDecideTheTiling() {
        long[] shape = {4, 128, 96};
        try (Arena arena = Arena.ofConfined()) {
            StridedView dense = layout(arena, shape, identity(3));
            MemorySegment channels = arena.allocate(128 * 4);
            StridedView weight = new StridedView(channels, 0, DType.FLOAT, shape, new long[] {0, 1, 0});
            StridedView[][] untouched = Tiling.pieces(shape, dense, weight, dense);
            assertEquals(1, untouched.length);
            org.junit.jupiter.api.Assertions.assertSame(dense, untouched[0][0]);
            StridedView transposed = layout(arena, shape, new int[] {0, 2, 1});
            org.junit.jupiter.api.Assertions.assertNotSame(dense, Tiling.pieces(shape, dense, weight, transposed)[0][0]);
        }
    }

    /**
     * Operands that share a layout other than the logical order (all transposed, all channels-last,
     * beside a broadcast weight) are walked in their memory order: one piece, dense, as the direct
     * loops need.
     */
    @org.junit.jupiter.api.Test
    void operandsSharingALayoutAreWalkedDensely() {
        long[][] shapes = {{4, 96, 128}, {2, 8, 5, 6}, {1, 3, 7, 1, 9}};
        int[][] orders = {{0, 2, 1}, {0, 2, 3, 1}, {3, 0, 4, 2, 1}};
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < shapes.length; c++) {
                long[] shape = shapes[c];
                StridedView a = layout(arena, shape, orders[c]);
                StridedView b = layout(arena, shape, orders[c]);
                long[] weightStrides = new long[shape.length];
                weightStrides[1] = 1;
                StridedView weight = new StridedView(arena.allocate(4 * shape[1]), 0, DType.FLOAT, shape, weightStrides);
                StridedView[][] pieces = Tiling.pieces(shape, weight, a, null, b);
                assertEquals(1, pieces.length, Arrays.toString(shape));
                org.junit.jupiter.api.Assertions.assertNull(pieces[0][2]);
                org.junit.jupiter.api.Assertions.assertTrue(pieces[0][1].isDense() && pieces[0][3].isDense(),
                        Arrays.toString(shape) + " in order " + Arrays.toString(orders[c]));
            }
        }
    }

    /** A FLOAT view of {@code shape} whose dims lie in memory in {@code order} (outermost first), element = its logical index. */
    private static StridedView layout(Arena arena, long[] shape, int[] order) {
        int rank = shape.length;
        long[] strides = new long[rank];
        long step = 1;
        for (int k = rank - 1; k >= 0; k--) {
            strides[order[k]] = step;
            step *= shape[order[k]];
        }
        MemorySegment m = arena.allocate(Math.max(1, step) * 4);
        long[] idx = new long[rank];
        for (long flat = 0; flat < step; flat++) {
            long off = 0;
            for (int d = 0; d < rank; d++) {
                off += idx[d] * strides[d];
            }
            m.setAtIndex(ValueLayout.JAVA_FLOAT, off, flat);
            for (int d = rank - 1; d >= 0 && ++idx[d] == shape[d]; d--) {
                idx[d] = 0;
            }
        }
        return new StridedView(m, 0, DType.FLOAT, shape, strides);
    }

    /** A vector over the last dim, broadcast to {@code shape} (element = its last-dim index). */
    private static StridedView broadcastOfLastDim(Arena arena, long[] shape) {
        int rank = shape.length;
        long last = shape[rank - 1];
        MemorySegment m = arena.allocate(last * 4);
        for (long j = 0; j < last; j++) {
            m.setAtIndex(ValueLayout.JAVA_FLOAT, j, j);
        }
        long[] strides = new long[rank];
        strides[rank - 1] = 1;
        return new StridedView(m, 0, DType.FLOAT, shape, strides);
    }

    private static boolean isBroadcast(StridedView v, long[] shape) {
        for (int d = 0; d < shape.length - 1; d++) {
            if (v.stride(d) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Each logical index's last-dim coordinate. */
    private static float[] lastIndexOf(float[] flat, long[] shape) {
        float[] r = new float[flat.length];
        for (int i = 0; i < flat.length; i++) {
            r[i] = (long) flat[i] % shape[shape.length - 1];
        }
        return r;
    }

    private static int[] identity(int rank) {
        return IntStream.range(0, rank).toArray();
    }

    private static int[] permutation(int rank, SplittableRandom r) {
        int[] p = identity(rank);
        for (int i = rank - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
