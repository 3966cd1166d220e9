package io.github.aclnn4j.tensor;

import java.util.Arrays;

/** Shape arithmetic: element counts, numpy broadcasting, contiguous strides, printing. */
public final class Shapes {
    private Shapes() {}

    /** Product of the dimensions: 0 if any is 0, Long.MAX_VALUE if it overflows. Negative dims count as 0. */
    public static long numel(long[] shape) {
        long n = 1;
        boolean overflow = false;
        for (long d : shape) {
            if (d <= 0) {
                return 0;
            }
            long hi = Math.multiplyHigh(n, d);
            long lo = n * d;
            if (hi != 0 || lo < 0) {
                overflow = true;
            } else {
                n = lo;
            }
        }
        return overflow ? Long.MAX_VALUE : n;
    }

    /** Whether {@code from} broadcasts to exactly {@code to} under numpy rules (never the other way). */
    public static boolean broadcastsTo(long[] from, long[] to) {
        if (from.length > to.length) {
            return false;
        }
        int shift = to.length - from.length;
        for (int i = 0; i < from.length; i++) {
            if (from[i] != to[i + shift] && from[i] != 1) {
                return false;
            }
        }
        return true;
    }

    /**
     * The element strides that read {@code shape}/{@code strides} as if expanded to {@code to}:
     * leading and size-1 dimensions get stride 0. Requires {@link #broadcastsTo}.
     */
    public static long[] broadcastStrides(long[] shape, long[] strides, long[] to) {
        long[] out = new long[to.length];
        int shift = to.length - shape.length;
        for (int i = 0; i < shape.length; i++) {
            out[i + shift] = shape[i] == 1 && to[i + shift] != 1 ? 0 : strides[i];
        }
        return out;
    }

    public static long[] contiguousStrides(long[] shape) {
        long[] strides = new long[shape.length];
        long s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = s;
            s *= Math.max(shape[i], 1);
        }
        return strides;
    }

    /**
     * The dimension order that walks an NCHW-like view of channels-last memory as it lies:
     * {@code [0, 2, 3, ..., rank − 1, 1]}, the channel dimension 1 moved innermost.
     */
    public static int[] channelsLastOrder(int rank) {
        int[] order = new int[rank];
        for (int k = 1; k < rank - 1; k++) {
            order[k] = k + 1;
        }
        order[rank - 1] = 1;
        return order;
    }

    public static String str(long[] shape) {
        return Arrays.toString(shape);
    }
}
