package io.github.aclnn4j.reference;

/** Shape arithmetic for the reference and the generators (numpy rules, row-major order). */
public final class Shapes {
    private Shapes() {}

    public static long numel(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    public static long[] contiguousStrides(long[] shape) {
        long[] strides = new long[shape.length];
        long step = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            strides[d] = step;
            step *= Math.max(shape[d], 1);
        }
        return strides;
    }

    /** Σ (dim − 1)·stride: the last element's distance from the first, for a non-empty view. */
    public static long lastOffset(long[] shape, long[] strides) {
        long last = 0;
        for (int d = 0; d < shape.length; d++) {
            last += (shape[d] - 1) * strides[d];
        }
        return last;
    }

    /** Advances a row-major multi-index by one (wrapping to all zeros after the last). */
    public static void increment(long[] index, long[] shape) {
        for (int d = shape.length - 1; d >= 0; d--) {
            if (++index[d] < shape[d]) {
                return;
            }
            index[d] = 0;
        }
    }

    /**
     * The row-major position in an array of shape {@code from} of the element that numpy
     * broadcasting puts at {@code index} of shape {@code to} (dimensions aligned on the right).
     */
    public static int broadcastPosition(long[] from, long[] to, long[] index) {
        long position = 0;
        int shift = to.length - from.length;
        for (int d = 0; d < from.length; d++) {
            long i = from[d] == 1 ? 0 : index[d + shift];
            position = position * from[d] + i;
        }
        return Math.toIntExact(position);
    }
}
