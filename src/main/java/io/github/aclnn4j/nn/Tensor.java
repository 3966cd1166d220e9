package io.github.aclnn4j.nn;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclFormat;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclnnStatus;
import io.github.aclnn4j.tensor.HalfFloats;
import io.github.aclnn4j.tensor.Shapes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A view of device memory: dtype, shape, strides and offset in elements over a storage that its
 * views share. Views ({@link #transpose}, {@link #permute}, {@link #expand}, {@link #slice},
 * {@link #view}) copy
 * nothing and go to the operators as strided tensors; the memory is freed when the last open view
 * of it closes, or when its {@link Device} closes. Reads ({@link #toFloatArray}, {@link #item})
 * wait for the device's operators.
 */
public final class Tensor implements AutoCloseable {
    private final Device device;
    private final Device.Storage storage;
    private final DType dtype;
    private final long[] shape;
    private final long[] strides;
    private final long offset;
    private boolean closed;

    Tensor(Device device, Device.Storage storage, DType dtype, long[] shape, long[] strides, long offset) {
        count(shape); // no negative dimension
        this.device = device;
        this.storage = storage;
        this.dtype = dtype;
        this.shape = shape;
        this.strides = strides;
        this.offset = offset;
        synchronized (device) {
            storage.views++;
        }
    }

    /** The element type. */
    public DType dtype() {
        return dtype;
    }

    /** A copy of the shape. */
    public long[] shape() {
        return shape.clone();
    }

    /** A copy of the strides, in elements. */
    public long[] strides() {
        return strides.clone();
    }

    /** The offset of element 0 in the storage, in elements. */
    public long offset() {
        return offset;
    }

    /** The number of dimensions (0 for a scalar). */
    public int rank() {
        return shape.length;
    }

    /** The number of elements: the product of the shape. */
    public long numel() {
        return count(shape);
    }

    /** The device whose memory this view is of. */
    public Device device() {
        return device;
    }

    /** The view with dimensions {@code dim0} and {@code dim1} swapped (negative dims count from the end). */
    public Tensor transpose(int dim0, int dim1) {
        int a = dim(dim0);
        int b = dim(dim1);
        long[] s = shape.clone();
        long[] st = strides.clone();
        s[a] = shape[b];
        s[b] = shape[a];
        st[a] = strides[b];
        st[b] = strides[a];
        return view(s, st, offset);
    }

    /** The view whose dimension i is this tensor's {@code dims[i]}. */
    public Tensor permute(int... dims) {
        if (dims.length != shape.length) {
            throw new IllegalArgumentException("permute needs " + shape.length + " dims, got " + Arrays.toString(dims));
        }
        long[] s = new long[dims.length];
        long[] st = new long[dims.length];
        boolean[] seen = new boolean[dims.length];
        for (int i = 0; i < dims.length; i++) {
            int d = dim(dims[i]);
            if (seen[d]) {
                throw new IllegalArgumentException("permute: dim " + d + " repeated in " + Arrays.toString(dims));
            }
            seen[d] = true;
            s[i] = shape[d];
            st[i] = strides[d];
        }
        return view(s, st, offset);
    }

    /**
     * The broadcast view of {@code newShape}: dimensions of size 1 (and new leading ones) repeat
     * with stride 0; -1 keeps a dimension's size.
     */
    public Tensor expand(long... newShape) {
        if (newShape.length < shape.length) {
            throw new IllegalArgumentException("expand: " + Arrays.toString(newShape) + " has fewer dimensions than "
                    + Arrays.toString(shape));
        }
        int lead = newShape.length - shape.length;
        long[] s = new long[newShape.length];
        long[] st = new long[newShape.length];
        for (int i = 0; i < newShape.length; i++) {
            long want = newShape[i];
            if (i < lead) {
                if (want < 0) {
                    throw new IllegalArgumentException("expand: a new leading dimension cannot be " + want);
                }
                s[i] = want;
                continue;
            }
            long have = shape[i - lead];
            if (want == -1 || want == have) {
                s[i] = have;
                st[i] = strides[i - lead];
            } else if (have == 1 && want >= 0) {
                s[i] = want;
            } else {
                throw new IllegalArgumentException("expand: dimension " + (i - lead) + " of size " + have
                        + " cannot become " + want + " (shape " + Arrays.toString(shape) + " to "
                        + Arrays.toString(newShape) + ")");
            }
        }
        return view(s, st, offset);
    }

    /**
     * The same elements in {@code newShape}, row-major, without a copy: PyTorch's {@code view}, for
     * a tensor whose elements lie contiguously in row-major order; one dimension may be -1, the
     * size the others leave.
     *
     * @throws IllegalArgumentException for a shape of another element count
     * @throws IllegalStateException for a view whose elements are not contiguous (transposed,
     *     sliced with a step, expanded), which only a copy could reshape
     */
    public Tensor view(long... newShape) {
        long[] s = newShape.clone();
        int inferred = -1;
        long known = 1;
        for (int i = 0; i < s.length; i++) {
            if (s[i] == -1 && inferred < 0) {
                inferred = i;
            } else if (s[i] < 0) {
                throw new IllegalArgumentException("view: invalid shape " + Arrays.toString(newShape));
            } else {
                known = Math.multiplyExact(known, s[i]);
            }
        }
        if (inferred >= 0) {
            if (known == 0 || numel() % known != 0) {
                throw new IllegalArgumentException("view: " + Arrays.toString(newShape) + " cannot hold the "
                        + numel() + " elements of " + Arrays.toString(shape));
            }
            s[inferred] = numel() / known;
        }
        if (count(s) != numel()) {
            throw new IllegalArgumentException("view: " + Arrays.toString(newShape) + " holds " + count(s)
                    + " elements, " + Arrays.toString(shape) + " has " + numel());
        }
        if (!contiguous()) {
            throw new IllegalStateException("view: the elements of this " + Arrays.toString(shape) + " view (strides "
                    + Arrays.toString(strides) + ") are not contiguous; only a copy could reshape them");
        }
        return view(s, Shapes.contiguousStrides(s), offset);
    }

    /** Whether the elements lie in row-major order one after the other (dimensions of size 1 aside). */
    private boolean contiguous() {
        long expected = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] == 0) {
                return true;
            }
            if (shape[i] != 1 && strides[i] != expected) {
                return false;
            }
            expected *= shape[i];
        }
        return true;
    }

    /**
     * Elements {@code start, start + step, ...} below {@code end} of dimension {@code dim}; negative
     * start and end count from the dimension's end, and both are clamped to it, as in Python.
     */
    public Tensor slice(int dim, long start, long end, long step) {
        int d = dim(dim);
        if (step <= 0) {
            throw new IllegalArgumentException("slice: step must be positive, got " + step);
        }
        long size = shape[d];
        long from = clamp(start < 0 ? start + size : start, size);
        long to = clamp(end < 0 ? end + size : end, size);
        long length = to > from ? (to - from + step - 1) / step : 0;
        long[] s = shape.clone();
        long[] st = strides.clone();
        s[d] = length;
        st[d] = strides[d] * step;
        return view(s, st, offset + (length > 0 ? from * strides[d] : 0));
    }

    private static long clamp(long v, long size) {
        return Math.max(0, Math.min(size, v));
    }

    /**
     * The elements in row-major order of the shape, as floats (16-bit types widened exactly, integer
     * types converted); waits for the device's operators first.
     *
     * @throws AclnnException for an operator that failed while running, or a closed tensor
     */
    public float[] toFloatArray() {
        ByteBuffer b = read();
        int[] at = byteOffsets();
        float[] out = new float[at.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = floatAt(b, at[i]);
        }
        return out;
    }

    /** The elements in row-major order as longs, for integer and BOOL tensors. */
    public long[] toLongArray() {
        if (dtype.isFloatingPoint()) {
            throw new IllegalStateException("toLongArray needs an integer or BOOL tensor, this one is " + dtype);
        }
        ByteBuffer b = read();
        int[] at = byteOffsets();
        long[] out = new long[at.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = longAt(b, at[i]);
        }
        return out;
    }

    /**
     * The elements' bytes in row-major order of the shape and native byte order, after the device's
     * work (for writers of files, such as {@link Npy}).
     */
    byte[] toBytes() {
        ByteBuffer b = read();
        int size = dtype.byteSize();
        int[] at = byteOffsets();
        byte[] out = new byte[Math.toIntExact((long) at.length * size)];
        for (int i = 0; i < at.length; i++) {
            b.get(at[i], out, i * size, size);
        }
        return out;
    }

    /** The value of a one-element tensor, as {@link #toFloatArray} gives it. */
    public float item() {
        if (numel() != 1) {
            throw new IllegalStateException("item() needs one element, the shape " + Arrays.toString(shape) + " holds "
                    + numel());
        }
        return toFloatArray()[0];
    }

    /**
     * Gives the memory back once no other open view uses it; a second close does nothing. The memory
     * is freed when the device's stream is done with it, at the next {@link Device#synchronize()} or
     * read, so an operator already queued on this tensor still reads it.
     */
    @Override
    public void close() {
        synchronized (device) {
            if (closed) {
                return;
            }
            closed = true;
            if (--storage.views == 0) {
                device.release(storage);
            }
        }
    }

    @Override
    public String toString() {
        return "Tensor[" + dtype + " " + Arrays.toString(shape) + (closed ? ", closed]" : "]");
    }

    // ---- for Functional

    /** A layer-1 descriptor of this view over its storage; the caller destroys it. */
    AclTensor acl() {
        requireOpen();
        return Acl.createTensor(shape, shape.length, dtype.aclDataType(), strides, offset, AclFormat.ACL_FORMAT_ND,
                new long[] {storage.bytes / dtype.byteSize()}, 1, storage.pointer);
    }

    void requireOpen() {
        synchronized (device) {
            if (closed || storage.freed) {
                throw new AclnnException(AclnnStatus.ACLNN_ERR_PARAM_INVALID, "the tensor " + this + " is closed");
            }
        }
        device.requireOpen();
    }

    static long count(long[] shape) {
        long n = 1;
        for (long d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(shape));
            }
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    private Tensor view(long[] s, long[] st, long off) {
        requireOpen();
        return new Tensor(device, storage, dtype, s, st, off);
    }

    private int dim(int d) {
        int r = shape.length;
        if (d < -r || d >= r || r == 0) {
            throw new IndexOutOfBoundsException("dimension " + d + " is out of range for rank " + r);
        }
        return d < 0 ? d + r : d;
    }

    /** The storage's bytes from the view's first element to its last, after the device's work. */
    private ByteBuffer read() {
        requireOpen();
        long n = numel();
        if (n == 0) {
            device.synchronize();
            return ByteBuffer.allocate(0);
        }
        long last = offset;
        for (int i = 0; i < shape.length; i++) {
            last += (shape[i] - 1) * strides[i];
        }
        byte[] bytes = device.copyOut(storage, offset * dtype.byteSize(), (last - offset + 1) * dtype.byteSize());
        return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
    }

    /**
     * Each element's byte offset from the first element, in row-major order (an array the readers
     * loop over rather than a callback: a lambda is a class a JVM spins at its first read).
     */
    private int[] byteOffsets() {
        int n = Math.toIntExact(numel());
        int[] offsets = new int[n];
        int rank = shape.length;
        long[] at = new long[rank];
        long pos = 0;
        for (int i = 0; i < n; i++) {
            offsets[i] = Math.toIntExact(pos * dtype.byteSize());
            for (int d = rank - 1; d >= 0; d--) {
                if (++at[d] < shape[d]) {
                    pos += strides[d];
                    break;
                }
                pos -= (at[d] - 1) * strides[d];
                at[d] = 0;
            }
        }
        return offsets;
    }

    private float floatAt(ByteBuffer b, int at) {
        return switch (dtype) {
            case FLOAT -> b.getFloat(at);
            case FLOAT16 -> HalfFloats.fromHalf(b.getShort(at));
            case BFLOAT16 -> HalfFloats.fromBf16(b.getShort(at));
            case DOUBLE -> (float) b.getDouble(at);
            default -> longAt(b, at);
        };
    }

    private long longAt(ByteBuffer b, int at) {
        return switch (dtype) {
            case INT64 -> b.getLong(at);
            case INT32 -> b.getInt(at);
            case UINT8 -> b.get(at) & 0xFF;
            case BOOL -> b.get(at) != 0 ? 1 : 0;
            default -> throw new IllegalStateException(dtype + " is not an integer type");
        };
    }
}
