package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.AclFormat;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Where the elements of a view lie in its allocation: {@code lead} elements before the data
 * pointer, then a view at {@code offset} with {@code strides} (all in elements), inside an
 * allocation of {@code allocation} elements. {@code nullStrides} means the tensor is created with a
 * null stride array (contiguous).
 */
public record StridedLayout(long[] shape, long[] strides, boolean nullStrides, long offset, long lead,
        long allocation, int format) {

    /** The same layout under another format tag. */
    public StridedLayout withFormat(int newFormat) {
        return new StridedLayout(shape, strides, nullStrides, offset, lead, allocation, newFormat);
    }

    /**
     * Format tags a random layout may carry: the plain ones and the NPU-private ones, which CANN's
     * operators take as tags over the same view.
     */
    private static final int[] ND_LIKE_FORMATS = {AclFormat.ACL_FORMAT_NCHW, AclFormat.ACL_FORMAT_NHWC,
        AclFormat.ACL_FORMAT_NCDHW, AclFormat.ACL_FORMAT_NDHWC, AclFormat.ACL_FORMAT_NC, AclFormat.ACL_FORMAT_NCL,
        AclFormat.ACL_FORMAT_NC1HWC0, AclFormat.ACL_FORMAT_FRACTAL_Z, AclFormat.ACL_FORMAT_FRACTAL_NZ,
        AclFormat.ACL_FORMAT_NC1HWC0_C04, AclFormat.ACL_FORMAT_NDC1HWC0, AclFormat.ACL_FRACTAL_Z_3D};

    /** The plain layout: contiguous, at the start of an allocation that fits it exactly. */
    public static StridedLayout contiguous(long[] shape) {
        long numel = Shapes.numel(shape);
        return new StridedLayout(shape.clone(), Shapes.contiguousStrides(shape), true, 0, 0, numel,
                AclFormat.ACL_FORMAT_ND);
    }

    /**
     * A dense (row-major, gap-free) layout placed at random: element offset, pointer into the
     * allocation and spare room after it, as {@link #random} would, without any reordering,
     * padding or broadcast: what the kernels' direct loops take.
     */
    public static StridedLayout dense(SplittableRandom rng, long[] shape) {
        long offset = rng.nextBoolean() ? 0 : rng.nextInt(1, 7);
        long lead = rng.nextBoolean() ? 0 : rng.nextInt(1, 5);
        long allocation = lead + offset + Shapes.numel(shape) + (rng.nextBoolean() ? 0 : rng.nextInt(1, 4));
        return new StridedLayout(shape.clone(), Shapes.contiguousStrides(shape), offset == 0 && rng.nextBoolean(),
                offset, lead, allocation, AclFormat.ACL_FORMAT_ND);
    }

    /**
     * An {@code [N, C, spatial...]} view of channels-last memory ({@code [N, spatial..., C]},
     * contiguous): the layout of a PyTorch {@code channels_last} tensor.
     */
    public static StridedLayout channelsLast(long[] shape) {
        int rank = shape.length;
        long[] strides = new long[rank];
        long step = 1;
        strides[1] = step;
        step *= shape[1];
        for (int d = rank - 1; d >= 2; d--) {
            strides[d] = step;
            step *= shape[d];
        }
        strides[0] = step;
        return new StridedLayout(shape.clone(), strides, false, 0, 0, Shapes.numel(shape), AclFormat.ACL_FORMAT_NHWC);
    }

    /** The view of a row-major allocation whose last two dimensions are swapped (a transposed matrix). */
    public static StridedLayout transposed(long[] shape) {
        int rank = shape.length;
        long[] memory = shape.clone();
        memory[rank - 2] = shape[rank - 1];
        memory[rank - 1] = shape[rank - 2];
        long[] strides = Shapes.contiguousStrides(memory);
        long swap = strides[rank - 2];
        strides[rank - 2] = strides[rank - 1];
        strides[rank - 1] = swap;
        return new StridedLayout(shape.clone(), strides, false, 0, 0, Shapes.numel(shape), AclFormat.ACL_FORMAT_ND);
    }

    /**
     * A random legal layout: permuted dimension order, padded (step > 1) strides, arbitrary strides
     * for size-1 dimensions, an element offset, a pointer into the middle of the allocation, spare
     * room after the view, and for inputs ({@code mayExpand}) stride-0 broadcast dimensions.
     * Outputs never overlap themselves.
     */
    public static StridedLayout random(SplittableRandom rng, long[] shape, boolean mayExpand) {
        int rank = shape.length;
        int format = rng.nextInt(4) == 0 ? ND_LIKE_FORMATS[rng.nextInt(ND_LIKE_FORMATS.length)]
                : AclFormat.ACL_FORMAT_ND;
        if (rng.nextInt(3) == 0) {
            StridedLayout plain = contiguous(shape);
            return new StridedLayout(plain.shape, plain.strides, rng.nextBoolean(), 0, 0, plain.allocation, format);
        }
        int[] memoryOrder = order(rng, rank);
        long[] padding = new long[rank + 1];
        for (int k = 0; k <= rank; k++) {
            padding[k] = rng.nextInt(4) == 0 ? rng.nextInt(1, 4) : 0;
        }
        long[] strides = paddedStrides(shape, memoryOrder, padding);
        if (strides == null) {
            strides = paddedStrides(shape, memoryOrder, new long[rank + 1]);
        }
        for (int d = 0; d < rank; d++) {
            if (shape[d] == 1 && rng.nextInt(3) == 0) {
                strides[d] = rng.nextInt(0, 50);
            } else if (mayExpand && rng.nextInt(5) == 0) {
                strides[d] = 0;
            }
        }
        long offset = rng.nextBoolean() ? 0 : rng.nextInt(1, 7);
        long lead = rng.nextBoolean() ? 0 : rng.nextInt(1, 5);
        long span = Shapes.numel(shape) == 0 ? 0 : 1 + Shapes.lastOffset(shape, strides);
        long allocation = lead + offset + span + (rng.nextBoolean() ? 0 : rng.nextInt(1, 4));
        return new StridedLayout(shape.clone(), strides, false, offset, lead, allocation, format);
    }

    /**
     * Strides that lay the dimensions out in {@code memoryOrder} (outermost first), each dimension
     * taking {@code padding[k]} more slots than it needs and the innermost starting at step
     * {@code 1 + padding[rank]}; null when that would need more than a few times the view's size.
     */
    private static long[] paddedStrides(long[] shape, int[] memoryOrder, long[] padding) {
        int rank = shape.length;
        long[] strides = new long[rank];
        long step = 1 + padding[rank];
        for (int k = rank - 1; k >= 0; k--) {
            int dim = memoryOrder[k];
            strides[dim] = step;
            step *= Math.max(shape[dim], 1) + padding[k];
        }
        long unpadded = 1;
        for (long d : shape) {
            unpadded *= Math.max(d, 1);
        }
        return step > 4 * unpadded + 64 ? null : strides;
    }

    private static int[] order(SplittableRandom rng, int rank) {
        int[] order = new int[rank];
        for (int i = 0; i < rank; i++) {
            order[i] = i;
        }
        if (rng.nextBoolean()) {
            for (int i = rank - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        return order;
    }

    public long numel() {
        return Shapes.numel(shape);
    }

    /** Index into the allocation of every view element, in row-major order of the view. */
    public int[] elementPositions() {
        int numel = Math.toIntExact(numel());
        int[] positions = new int[numel];
        long[] index = new long[shape.length];
        for (int i = 0; i < numel; i++) {
            long at = lead + offset;
            for (int d = 0; d < shape.length; d++) {
                at += index[d] * strides[d];
            }
            positions[i] = Math.toIntExact(at);
            Shapes.increment(index, shape);
        }
        return positions;
    }

    public String describe() {
        return "shape " + Arrays.toString(shape) + " strides " + (nullStrides ? "null" : Arrays.toString(strides))
                + " offset " + offset + " ptr+" + lead + "el alloc " + allocation + "el format " + format;
    }
}
