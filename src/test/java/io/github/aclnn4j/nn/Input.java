package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.tensor.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * An operator input described once and built in both layers: a contiguous base tensor filled from a
 * generator, then views (transpose, permute, expand, slice) applied in order. The layout of the
 * view (shape, element strides, element offset) is worked out here, independently of layer 2, so
 * that layer 1 gets exactly the same bytes, strides and offset, and layer 2's view shapes and
 * strides are checked against it.
 */
final class Input {
    /** How a view of a requested shape is made from its base. */
    enum Form {
        /** the base itself */
        CONTIGUOUS,
        /** a base with the last two dimensions swapped, transposed back (rank ≥ 2) */
        TRANSPOSED,
        /** every other element of the last dimension of a base twice as long, from element 1 (rank ≥ 1) */
        SLICED,
        /** a base with dimension 0 of size 1, or without dimension 0, expanded (rank ≥ 1; stride 0) */
        EXPANDED,
        /** a channels-last base [d0, d2.., d1] permuted back to [d0, d1, d2..] (rank ≥ 3) */
        PERMUTED
    }

    sealed interface View permits Transpose, Permute, Expand, Slice {}

    record Transpose(int dim0, int dim1) implements View {}

    record Permute(int[] dims) implements View {}

    record Expand(long[] shape) implements View {}

    record Slice(int dim, long start, long end, long step) implements View {}

    final DType dtype;
    final long[] baseShape;
    /** The base's values for float dtypes (rounded to the dtype by whoever stores them), else null. */
    final float[] floats;
    /** The base's values for INT64/INT32, else null. */
    final long[] longs;
    final List<View> views;
    /** The view's layout, in elements. */
    final long[] shape;
    final long[] strides;
    final long offset;

    private Input(DType dtype, long[] baseShape, float[] floats, long[] longs, List<View> views) {
        this.dtype = dtype;
        this.baseShape = baseShape.clone();
        this.floats = floats;
        this.longs = longs;
        this.views = List.copyOf(views);
        long[] sh = baseShape.clone();
        long[] st = Shapes.contiguousStrides(baseShape);
        long off = 0;
        for (View v : views) {
            switch (v) {
                case Transpose t -> {
                    swap(sh, t.dim0(), t.dim1());
                    swap(st, t.dim0(), t.dim1());
                }
                case Permute p -> {
                    long[] nsh = new long[sh.length];
                    long[] nst = new long[st.length];
                    for (int i = 0; i < p.dims().length; i++) {
                        nsh[i] = sh[p.dims()[i]];
                        nst[i] = st[p.dims()[i]];
                    }
                    sh = nsh;
                    st = nst;
                }
                case Expand e -> {
                    long[] nsh = e.shape().clone();
                    long[] nst = new long[nsh.length];
                    int lead = nsh.length - sh.length;
                    for (int i = 0; i < nsh.length; i++) {
                        nst[i] = i < lead || (sh[i - lead] == 1 && nsh[i] != 1) ? 0 : st[i - lead];
                    }
                    sh = nsh;
                    st = nst;
                }
                case Slice s -> {
                    off += s.start() * st[s.dim()];
                    sh[s.dim()] = Math.max(0, (s.end() - s.start() + s.step() - 1) / s.step());
                    st[s.dim()] *= s.step();
                }
            }
        }
        this.shape = sh;
        this.strides = st;
        this.offset = off;
    }

    /** A float input of view shape {@code shape} made as {@code form} says, its base drawn from {@code values}. */
    static Input floats(DType dtype, long[] shape, Form form, DoubleSupplier values) {
        Plan p = plan(shape, form);
        float[] data = new float[Math.toIntExact(Shapes.numel(p.base))];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) values.getAsDouble();
        }
        return new Input(dtype, p.base, data, null, p.views);
    }

    /** An INT64 or INT32 input, as {@link #floats}. */
    static Input longs(DType dtype, long[] shape, Form form, LongSupplier values) {
        Plan p = plan(shape, form);
        long[] data = new long[Math.toIntExact(Shapes.numel(p.base))];
        for (int i = 0; i < data.length; i++) {
            data[i] = values.getAsLong();
        }
        return new Input(dtype, p.base, null, data, p.views);
    }

    /** A contiguous float input holding exactly {@code data}. */
    static Input of(DType dtype, float[] data, long... shape) {
        return new Input(dtype, shape, data.clone(), null, List.of());
    }

    /** A contiguous INT64/INT32 input holding exactly {@code data}. */
    static Input of(DType dtype, long[] data, long... shape) {
        return new Input(dtype, shape, null, data.clone(), List.of());
    }

    private record Plan(long[] base, List<View> views) {}

    private static Plan plan(long[] shape, Form form) {
        int rank = shape.length;
        List<View> views = new ArrayList<>();
        long[] base = shape.clone();
        switch (form) {
            case TRANSPOSED -> {
                if (rank >= 2) {
                    swap(base, rank - 2, rank - 1);
                    views.add(new Transpose(rank - 2, rank - 1));
                }
            }
            case SLICED -> {
                if (rank >= 1) {
                    long n = shape[rank - 1];
                    base[rank - 1] = 2 * n + 1;
                    views.add(new Slice(rank - 1, 1, 1 + 2 * n, 2));
                }
            }
            case EXPANDED -> {
                if (rank >= 2 && shape[0] > 1) {
                    base = Arrays.copyOfRange(shape, 1, rank); // a new leading dimension
                    views.add(new Expand(shape.clone()));
                } else if (rank >= 1) {
                    base[0] = 1;
                    views.add(new Expand(shape.clone()));
                }
            }
            case PERMUTED -> {
                if (rank >= 3) {
                    // base [d0, d2, ..., d(r-1), d1]; view dims (0, r-1, 1, ..., r-2)
                    int[] dims = new int[rank];
                    base[rank - 1] = shape[1];
                    for (int i = 2; i < rank; i++) {
                        base[i - 1] = shape[i];
                    }
                    dims[0] = 0;
                    dims[1] = rank - 1;
                    for (int i = 2; i < rank; i++) {
                        dims[i] = i - 1;
                    }
                    views.add(new Permute(dims));
                }
            }
            case CONTIGUOUS -> { }
        }
        return new Plan(base, views);
    }

    /**
     * Builds the input in layer 2: the base from its array, then the views. The base and every
     * intermediate view are added to {@code made} (the caller closes them). Asserts the view's
     * shape and strides are the ones worked out here.
     */
    Tensor build(Device device, List<Tensor> made) {
        Tensor t = switch (dtype) {
            case INT64 -> device.tensor(longs.clone(), baseShape.clone());
            case INT32 -> {
                int[] ints = new int[longs.length];
                for (int i = 0; i < ints.length; i++) {
                    ints[i] = Math.toIntExact(longs[i]);
                }
                yield device.tensor(ints, baseShape.clone());
            }
            case FLOAT -> device.tensor(floats.clone(), baseShape.clone());
            default -> device.tensor(dtype, floats.clone(), baseShape.clone());
        };
        made.add(t);
        for (View v : views) {
            t = switch (v) {
                case Transpose x -> t.transpose(x.dim0(), x.dim1());
                case Permute x -> t.permute(x.dims().clone());
                case Expand x -> t.expand(x.shape().clone());
                case Slice x -> t.slice(x.dim(), x.start(), x.end(), x.step());
            };
            made.add(t);
        }
        assertEquals(dtype, t.dtype(), () -> "dtype of " + this);
        assertArrayEquals(shape, t.shape(), () -> "shape of " + this);
        assertArrayEquals(strides, t.strides(), () -> "strides of " + this);
        return t;
    }

    /** The view's elements in row-major order, as the dtype stores them, widened to float. */
    float[] viewValues() {
        int n = Math.toIntExact(Shapes.numel(shape));
        float[] out = new float[n];
        long[] index = new long[shape.length];
        for (int i = 0; i < n; i++) {
            long at = offset;
            for (int d = 0; d < shape.length; d++) {
                at += index[d] * strides[d];
            }
            out[i] = floats != null ? Bits.round(dtype, floats[(int) at]) : longs[(int) at];
            for (int d = shape.length - 1; d >= 0; d--) {
                if (++index[d] < shape[d]) {
                    break;
                }
                index[d] = 0;
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return dtype + " base " + Arrays.toString(baseShape) + " views " + views.stream().map(Input::str).toList()
                + " -> " + Arrays.toString(shape) + " strides " + Arrays.toString(strides) + " offset " + offset;
    }

    private static String str(View v) {
        return switch (v) {
            case Transpose t -> "transpose(" + t.dim0() + ", " + t.dim1() + ")";
            case Permute p -> "permute" + Arrays.toString(p.dims());
            case Expand e -> "expand" + Arrays.toString(e.shape());
            case Slice s -> "slice(" + s.dim() + ", " + s.start() + ", " + s.end() + ", " + s.step() + ")";
        };
    }


    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    /** A shape that broadcasts to {@code shape}: some leading dimensions dropped, some others set to 1. */
    static long[] broadcastable(long[] shape, Random rnd) {
        int drop = rnd.nextInt(shape.length + 1);
        long[] b = Arrays.copyOfRange(shape, drop, shape.length);
        for (int i = 0; i < b.length; i++) {
            if (rnd.nextInt(3) == 0) {
                b[i] = 1;
            }
        }
        return b;
    }
}
