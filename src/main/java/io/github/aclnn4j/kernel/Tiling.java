package io.github.aclnn4j.kernel;

/**
 * Element-wise calls whose operands walk memory in different orders (a transposed input beside a
 * contiguous output, NCHW views of NHWC memory): walked in logical order, such an operand is read
 * one element per cache line, 16 times the traffic. Since an element-wise kernel may visit
 * elements in any order that all its operands share, the call is cut, at plan time, into pieces
 * whose logical order walks tiles of the two dimensions involved: rows along the
 * dimension most operands are contiguous in, and across it as many rows as make one 64-byte cache
 * line: 16 for FLOAT, 32 for the 16-bit types, with rows of {@link Blocks#SIZE} / that many
 * elements (256, 128). Those operands read runs of 1 KB or 256 bytes; the others move through
 * {@link StridedView}'s transposing panels, whose memory columns are then whole lines, each written
 * in one visit (16 rows of a 16-bit type wrote half a line per tile: BFLOAT16 transposed BCE
 * backward 11.6 → 11.0 ms, BCE with logits 13.1 → 12.7 ms in one A/B run each, 2048 × 2048).
 * Of the FLOAT shapes tried at 2^22 elements (64 × 64, 128 × 32, 512 × 8, 1024 × 16, 64 × 16),
 * 16 × 256 was fastest for every transposed call of {@code bench usage}, and rows along the
 * minority's dimension were twice as slow. Broadcast operands
 * (a weight repeated along some dimension) touch little memory in any order: they are cut like the
 * others but do not decide the tiling.
 *
 * <p>First, every operand is walked in the memory order of the first one that is not broadcast, so
 * that operands sharing a layout (all transposed, all channels-last) are dense and need no tiles.
 *
 * <p>A piece is one recut view per operand, in the operands' order; the kernel runs over each
 * piece as over a call of its own. Each element lies in exactly one piece and is computed by the
 * same operations as before: only the order, and with it how a sum groups its terms, changes.
 */
public final class Tiling {
    /** Bytes of one memory column of a tile: a cache line. */
    private static final int LINE = 64;

    private Tiling() {}

    /**
     * {@code views} (each of logical shape {@code shape}; null for an absent operand, which stays
     * null) cut into tile-ordered pieces, or the views themselves as the one piece when every
     * operand's innermost memory dimension is the last logical one (or it is a single value).
     */
    public static StridedView[][] pieces(long[] shape, StridedView... views) {
        int[] order = memoryOrder(views);
        if (order != null) {
            long[] walked = new long[order.length];
            StridedView[] permuted = new StridedView[views.length];
            for (int k = 0; k < order.length; k++) {
                walked[k] = shape[order[k]];
            }
            for (int v = 0; v < views.length; v++) {
                permuted[v] = views[v] == null ? null : views[v].permute(order);
            }
            shape = walked;
            views = permuted;
        }
        int rank = shape.length;
        int a = conflictingDimension(shape, views);
        if (a < 0) {
            return new StridedView[][] {views};
        }
        int b = rank - 1;
        if (innermostCount(views, a) > innermostCount(views, b)) {
            // most operands run along a: let the tiles' rows run along it, and the few operands
            // contiguous along b take the transposing path (StridedView's panels)
            b = a;
            a = rank - 1;
        }
        long sa = shape[a];
        long sb = shape[b];
        int bytes = elementBytes(views);
        long ta = Math.min(LINE / bytes, sa);
        long tb = Math.min(tileRow(bytes), sb);
        long fa = sa - sa % ta;
        long fb = sb - sb % tb;
        int[] others = new int[rank - 2];
        for (int d = 0, k = 0; d < rank; d++) {
            if (d != a && d != b) {
                others[k++] = d;
            }
        }
        int pieces = 1 + (sb > fb ? 1 : 0) + (sa > fa ? 1 : 0);
        StridedView[][] out = new StridedView[pieces][views.length];
        for (int v = 0; v < views.length; v++) {
            StridedView view = views[v];
            if (view == null) {
                continue;
            }
            long stA = view.stride(a);
            long stB = view.stride(b);
            int p = 0;
            out[p++][v] = view.recut(0, with(shape, others, fa / ta, fb / tb, ta, tb),
                    with(view, others, ta * stA, tb * stB, stA, stB));
            if (sb > fb) { // the last columns, every row
                out[p++][v] = view.recut(fb * stB, with(shape, others, sa, sb - fb), with(view, others, stA, stB));
            }
            if (sa > fa) { // the last rows, the columns of the full tiles
                out[p][v] = view.recut(fa * stA, with(shape, others, sa - fa, fb), with(view, others, stA, stB));
            }
        }
        return out;
    }

    /**
     * Elements in a tile's row when the operands' smallest element has {@code elementBytes} bytes: a
     * block spread over as many rows as fill a cache line with such elements (256 FLOAT, 128
     * 16-bit). A run of the memory order no longer than this stays whole in a tile, so operands
     * dense in that order stay dense in each piece.
     */
    static long tileRow(int elementBytes) {
        return Blocks.SIZE / (LINE / elementBytes);
    }

    /** The smallest element size of the operands (not broadcast ones), at most a line's. */
    private static int elementBytes(StridedView[] views) {
        int bytes = LINE;
        for (StridedView view : views) {
            if (view != null && !view.isBroadcast()) {
                bytes = Math.min(bytes, view.dtype().byteSize);
            }
        }
        return bytes;
    }

    /**
     * The logical dimensions in the memory order of the first operand that is not broadcast
     * (outermost first: strides falling, dimensions of one element first), or null when that is
     * already their logical order (or every operand is broadcast). Walking all operands in it makes
     * operands that share a layout (transposed, channels-last) dense, and leaves operands whose
     * layouts differ to the tiles.
     */
    private static int[] memoryOrder(StridedView[] views) {
        StridedView lead = null;
        for (StridedView view : views) {
            if (view != null && !view.isBroadcast()) {
                lead = view;
                break;
            }
        }
        if (lead == null) {
            return null;
        }
        int rank = lead.rank();
        Integer[] order = new Integer[rank];
        for (int d = 0; d < rank; d++) {
            order[d] = d;
        }
        StridedView v = lead;
        java.util.Arrays.sort(order, new OutermostFirst(v));
        int[] result = new int[rank];
        boolean moved = false;
        int previous = -1;
        for (int k = 0; k < rank; k++) {
            result[k] = order[k];
            if (v.size(order[k]) > 1) {
                moved |= order[k] < previous;
                previous = order[k];
            }
        }
        return moved ? result : null;
    }

    /**
     * The innermost memory dimension of the first operand (not a broadcast one) whose innermost
     * dimension is not the last logical one, when the last is at least two elements long; else -1.
     */
    private static int conflictingDimension(long[] shape, StridedView[] views) {
        int last = shape.length - 1;
        if (last < 1 || shape[last] < 2) {
            return -1;
        }
        for (StridedView view : views) {
            int inner = view == null || view.isBroadcast() ? -1 : view.innermostDimension();
            if (inner >= 0 && inner != last) {
                return inner;
            }
        }
        return -1;
    }

    /** How many operands (not broadcast ones) have {@code dim} as their innermost memory dimension. */
    private static int innermostCount(StridedView[] views, int dim) {
        int n = 0;
        for (StridedView view : views) {
            if (view != null && !view.isBroadcast() && view.innermostDimension() == dim) {
                n++;
            }
        }
        return n;
    }

    /** {@code shape} at the {@code others} dimensions, then {@code tail}. */
    private static long[] with(long[] shape, int[] others, long... tail) {
        long[] r = new long[others.length + tail.length];
        for (int k = 0; k < others.length; k++) {
            r[k] = shape[others[k]];
        }
        System.arraycopy(tail, 0, r, others.length, tail.length);
        return r;
    }

    /** {@code view}'s strides at the {@code others} dimensions, then {@code tail}. */
    private static long[] with(StridedView view, int[] others, long... tail) {
        long[] r = new long[others.length + tail.length];
        for (int k = 0; k < others.length; k++) {
            r[k] = view.stride(others[k]);
        }
        System.arraycopy(tail, 0, r, others.length, tail.length);
        return r;
    }

    /**
     * Dimensions of {@code view} outermost first: those of one element first, then strides falling
     * (a class rather than a lambda: a JVM spins one for a lambda at its first call, before a
     * program's first result).
     */
    private static final class OutermostFirst implements java.util.Comparator<Integer> {
        private final StridedView view;

        OutermostFirst(StridedView view) {
            this.view = view;
        }

        @Override
        public int compare(Integer p, Integer q) {
            boolean pOne = view.size(p) == 1;
            boolean qOne = view.size(q) == 1;
            if (pOne || qOne) {
                return pOne == qOne ? 0 : pOne ? -1 : 1;
            }
            return Long.compare(view.stride(q), view.stride(p));
        }
    }
}
