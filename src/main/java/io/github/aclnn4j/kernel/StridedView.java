package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An operand as a kernel sees it: typed elements of {@code segment} at
 * {@code base + Σ index[d]·strides[d]·byteSize}, read and written in logical (row-major) order of
 * {@code shape} (the complex types only written: a real value, imaginary part zero). Dimensions that can be walked as one are merged at construction, so a contiguous
 * view is a single run however many dimensions it has. Values travel as float: FLOAT16 and BFLOAT16
 * are widened on load and rounded to nearest even on store. The caller (phase 1) has checked that
 * every element lies inside the segment.
 */
public final class StridedView {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final MemorySegment segment;
    private final long base;
    private final DType dtype;
    private final int es;
    private final long numel;
    private final long[] dims;        // merged dimensions, outermost first; empty for one element
    private final long[] byteStrides; // per merged dimension
    private final long[] shape;       // as given, for recutting the view (Tiling)
    private final long[] strides;

    public StridedView(MemorySegment segment, long baseByteOffset, DType dtype, long[] shape, long[] strides) {
        this.segment = segment;
        this.base = baseByteOffset;
        this.dtype = dtype;
        this.es = dtype.byteSize;
        this.shape = shape.clone();
        this.strides = strides.clone();
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        this.numel = n;
        int count = 0;
        long[] md = new long[shape.length];
        long[] ms = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] == 1) {
                continue;
            }
            if (count > 0 && ms[count - 1] == shape[i] * strides[i]) {
                md[count - 1] *= shape[i];
                ms[count - 1] = strides[i];
            } else {
                md[count] = shape[i];
                ms[count] = strides[i];
                count++;
            }
        }
        this.dims = java.util.Arrays.copyOf(md, count);
        this.byteStrides = new long[count];
        for (int i = 0; i < count; i++) {
            byteStrides[i] = ms[i] * es;
        }
    }

    public long numel() {
        return numel;
    }

    public DType dtype() {
        return dtype;
    }

    /** True when logical element i lies at {@code base + i·byteSize}: the whole view is one dense run. */
    public boolean isDense() {
        return dims.length == 0 || (dims.length == 1 && byteStrides[0] == es);
    }

    /** True when every logical element is the one at {@code base} (a broadcast single value). */
    public boolean isUniform() {
        return dims.length == 0 || (dims.length == 1 && byteStrides[0] == 0);
    }

    MemorySegment segment() {
        return segment;
    }

    /** The stride, in elements, of logical dimension {@code dim} as given at construction. */
    long stride(int dim) {
        return strides[dim];
    }

    /** The length of logical dimension {@code dim}. */
    long size(int dim) {
        return shape[dim];
    }

    /** The number of logical dimensions. */
    int rank() {
        return shape.length;
    }

    /**
     * Whether some logical dimension longer than one has stride 0: the view repeats its elements
     * (a broadcast operand), so it touches little memory in any order.
     */
    boolean isBroadcast() {
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] > 1 && strides[d] == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * When the view is one run of elements repeated along everything outside it (a per-channel
     * weight over channels-last memory, walked channels innermost): that run's length; else -1.
     */
    long repeatedRunLength() {
        if (dims.length == 2 && byteStrides[0] == 0 && byteStrides[1] != 0) {
            return dims[1];
        }
        return dims.length == 1 && byteStrides[0] != 0 ? dims[0] : -1;
    }

    /**
     * The logical dimension this view steps through fastest in memory: its smallest non-zero stride
     * among dimensions longer than one (the first such on a tie); -1 for a single value.
     */
    public int innermostDimension() {
        int inner = -1;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] > 1 && strides[d] != 0 && (inner < 0 || strides[d] < strides[inner])) {
                inner = d;
            }
        }
        return inner;
    }

    /** The same memory with its logical dimensions in {@code order} (dimension k of the result is {@code order[k]}). */
    public StridedView permute(int... order) {
        long[] s = new long[order.length];
        long[] st = new long[order.length];
        for (int k = 0; k < order.length; k++) {
            s[k] = shape[order[k]];
            st[k] = strides[order[k]];
        }
        return recut(0, s, st);
    }

    /**
     * The same memory seen through another logical shape: elements at {@code elementShift} from
     * this view's first, with {@code shape} and {@code strides} in elements. The caller keeps every
     * element inside this view's.
     */
    StridedView recut(long elementShift, long[] shape, long[] strides) {
        return new StridedView(segment, base + elementShift * es, dtype, shape, strides);
    }

    /**
     * Bytes between consecutive logical elements when the view is one run, evenly spaced in memory
     * (dense, stepped, or one value repeated: 0); -1 otherwise. Element {@code i} of such a view
     * lies at {@code denseOffset(0) + i·runStride()}.
     */
    long runStride() {
        return dims.length == 0 ? 0 : dims.length == 1 ? byteStrides[0] : -1;
    }

    /** Byte offset of logical element {@code flat} of a view in one run ({@link #runStride} not -1). */
    long runOffset(long flat) {
        return base + flat * runStride();
    }

    /** Byte offset of logical element {@code flat} of a {@linkplain #isDense() dense} view. */
    long denseOffset(long flat) {
        return base + flat * es;
    }

    /** Writes the view's single element {@code n} times from offset 0 of {@code dst} (for a uniform view). */
    void repeatFirstInto(MemorySegment dst, int n) {
        long bytes = (long) n * es;
        MemorySegment.copy(segment, base, dst, 0, es);
        for (long filled = es; filled < bytes; filled *= 2) { // doubling copies: log2(n) bulk moves
            MemorySegment.copy(dst, 0, dst, filled, Math.min(filled, bytes - filled));
        }
    }

    /** Byte offset of logical element {@code flat}. */
    private long offsetOf(long flat) {
        if (dims.length == 1) { // the common case after merging: no division
            return base + flat * byteStrides[0];
        }
        long off = base;
        for (int d = dims.length - 1; d >= 0 && flat != 0; d--) {
            long i = flat % dims[d];
            flat /= dims[d];
            off += i * byteStrides[d];
        }
        return off;
    }

    public float get(long flat) {
        return load(offsetOf(flat));
    }

    public void set(long flat, float value) {
        store(offsetOf(flat), value);
    }

    /** Reads an integer element (INT64, INT32, UINT8 and the other integer types) exactly. */
    public long getLong(long flat) {
        long off = offsetOf(flat);
        return switch (dtype) {
            case INT64, UINT64 -> segment.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
            case INT32 -> segment.get(ValueLayout.JAVA_INT_UNALIGNED, off);
            case UINT32 -> segment.get(ValueLayout.JAVA_INT_UNALIGNED, off) & 0xFFFFFFFFL;
            case INT16 -> segment.get(I16, off);
            case UINT16 -> segment.get(I16, off) & 0xFFFF;
            case INT8 -> segment.get(ValueLayout.JAVA_BYTE, off);
            case UINT8, BOOL -> segment.get(ValueLayout.JAVA_BYTE, off) & 0xFF;
            default -> (long) load(off);
        };
    }

    /**
     * Reads integer elements {@code [start, start + n)} (n at most {@link Blocks#SIZE}) exactly into
     * the calling thread's block of targets, returned, as {@link #getLong} does, with one loop per
     * dtype for a view of one run.
     */
    long[] gatherLongs(long start, int n) {
        Scratch s = Scratch.get();
        long[] dst = s.targets;
        if (dims.length > 1) {
            for (int i = 0; i < n; i++) {
                dst[i] = getLong(start + i);
            }
            return dst;
        }
        long stride = runStride();
        long off = base + start * stride;
        switch (dtype) {
            case INT64 -> {
                if (stride == Long.BYTES) { // straight into the array: a heap segment per call was allocated
                    MemorySegment.copy(segment, ValueLayout.JAVA_LONG_UNALIGNED, off, dst, 0, n);
                } else {
                    for (int i = 0; i < n; i++, off += stride) {
                        dst[i] = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
                    }
                }
            }
            case INT32 -> {
                for (int i = 0; i < n; i++, off += stride) {
                    dst[i] = segment.get(ValueLayout.JAVA_INT_UNALIGNED, off);
                }
            }
            case UINT8 -> {
                for (int i = 0; i < n; i++, off += stride) {
                    dst[i] = segment.get(ValueLayout.JAVA_BYTE, off) & 0xFF;
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = getLong(start + i);
                }
            }
        }
        return dst;
    }

    /** Loads the logical elements {@code flat[0, n)}, in that order, into {@code dst[0, n)}. */
    public void gatherAt(long[] flat, float[] dst, int n) {
        if (dims.length > 1) {
            for (int i = 0; i < n; i++) {
                dst[i] = get(flat[i]);
            }
            return;
        }
        long stride = runStride();
        switch (dtype) {
            case FLOAT -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = segment.get(F32, base + flat[i] * stride);
                }
            }
            case BF16 -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = HalfFloats.fromBf16(segment.get(I16, base + flat[i] * stride));
                }
            }
            case FLOAT16 -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = HalfFloats.fromHalf(segment.get(I16, base + flat[i] * stride));
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    dst[i] = get(flat[i]);
                }
            }
        }
    }

    /** Stores {@code src[0, n)} into the logical elements {@code flat[0, n)}. */
    public void scatterAt(long[] flat, float[] src, int n) {
        if (dims.length > 1) {
            for (int i = 0; i < n; i++) {
                set(flat[i], src[i]);
            }
            return;
        }
        long stride = runStride();
        switch (dtype) {
            case FLOAT -> {
                for (int i = 0; i < n; i++) {
                    segment.set(F32, base + flat[i] * stride, src[i]);
                }
            }
            case BF16 -> {
                for (int i = 0; i < n; i++) {
                    segment.set(I16, base + flat[i] * stride, HalfFloats.toBf16(src[i]));
                }
            }
            case FLOAT16 -> {
                for (int i = 0; i < n; i++) {
                    segment.set(I16, base + flat[i] * stride, HalfFloats.toHalf(src[i]));
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    set(flat[i], src[i]);
                }
            }
        }
    }

    /** Loads logical elements {@code [start, start + len)} into {@code dst[0, len)}. */
    public void gather(long start, float[] dst, int len) {
        walk(start, dst, len, false);
    }

    /** Stores {@code src[0, len)} into logical elements {@code [start, start + len)}. */
    public void scatter(long start, float[] src, int len) {
        walk(start, src, len, true);
    }

    /** Stores {@code value} into logical elements {@code [start, start + len)}. */
    public void fill(long start, long len, float value) {
        if (dims.length == 1 && byteStrides[0] == es && Float.floatToRawIntBits(value) == 0) {
            Zeros.fill(segment, base + start * es, len * es); // +0 is all zero bytes in every float type
            return;
        }
        float[] buf = Scratch.get().fillRow;
        java.util.Arrays.fill(buf, value);
        for (long done = 0; done < len; ) {
            int n = (int) Math.min(buf.length, len - done);
            scatter(start + done, buf, n);
            done += n;
        }
    }

    private void walk(long start, float[] buf, int len, boolean store) {
        int rank = dims.length;
        if (rank == 0) {
            for (int i = 0; i < len; i++) {
                if (store) {
                    store(base, buf[i]);
                } else {
                    buf[i] = load(base);
                }
            }
            return;
        }
        int last = rank - 1;
        long innerStride = byteStrides[last];
        if (rank == 1) {
            long off = base + start * innerStride;
            if (store) {
                storeRun(off, innerStride, buf, 0, len);
            } else {
                loadRun(off, innerStride, buf, 0, len);
            }
            return;
        }
        long[] idx = Scratch.get().index;
        long rest = start;
        long off = base;
        for (int d = rank - 1; d >= 0; d--) {
            idx[d] = rest % dims[d];
            rest /= dims[d];
            off += idx[d] * byteStrides[d];
        }
        int done = 0;
        // rows whose second-innermost dimension is the contiguous one (a transposed operand):
        // moved as [rows, cols] panels, column by column, each column a contiguous run in memory
        boolean panels = innerStride != es && byteStrides[last - 1] == es;
        while (done < len) {
            if (panels && idx[last] == 0 && len - done >= dims[last]) {
                int cols = (int) dims[last];
                int rows = (int) Math.min(Math.min(dims[last - 1] - idx[last - 1], Scratch.COLUMN),
                        (len - done) / cols);
                transposePanel(off, rows, cols, innerStride, buf, done, store);
                done += rows * cols;
                if (done == len) {
                    return;
                }
                off += rows * byteStrides[last - 1];
                idx[last - 1] += rows;
                for (int d = last - 1; d > 0 && idx[d] == dims[d]; d--) {
                    off -= idx[d] * byteStrides[d];
                    idx[d] = 0;
                    idx[d - 1]++;
                    off += byteStrides[d - 1];
                }
                continue;
            }
            int run = (int) Math.min(len - done, dims[last] - idx[last]);
            if (store) {
                storeRun(off, innerStride, buf, done, run);
            } else {
                loadRun(off, innerStride, buf, done, run);
            }
            done += run;
            if (done == len) {
                return;
            }
            off += run * innerStride;
            idx[last] += run;
            for (int d = last; d > 0 && idx[d] == dims[d]; d--) {
                off -= idx[d] * byteStrides[d];
                idx[d] = 0;
                idx[d - 1]++;
                off += byteStrides[d - 1];
            }
        }
    }

    /**
     * Elements {@code [at, at + rows·cols)} of {@code buf}, in logical (row-major) order, to or from
     * a panel whose rows lie contiguously in memory and whose columns are {@code colStride} bytes
     * apart. FLOAT and BFLOAT16 panels go through the vector loops: a stored FLOAT panel from the
     * registers straight to memory ({@link BulkMath#storePanel}), the others a vector per memory
     * column ({@link BulkMath#storeBf16Panel}, {@link BulkMath#loadPanel}); other dtypes convert
     * each memory column as one run into {@link Scratch#panel} and transpose that as floats, as many
     * rows at a time as fit there.
     */
    private void transposePanel(long off, int rows, int cols, long colStride, float[] buf, int at, boolean store) {
        Scratch s = Scratch.get();
        if (dtype == DType.FLOAT) {
            if (store) {
                BulkMath.forLayouts().storePanel(buf, at, rows, cols, segment, off, colStride, s.panel);
            } else {
                BulkMath.forLayouts().loadPanel(segment, off, colStride, buf, at, rows, cols, s.panel);
            }
            return;
        }
        if (dtype == DType.BF16 && store) {
            BulkMath.forLayouts().storeBf16Panel(buf, at, rows, cols, segment, off, colStride, s.panel);
            return;
        }
        if (cols > s.panel.length) { // not one row fits (a GroupNorm row of a group): rows as strided runs
            for (int i = 0; i < rows; i++) {
                if (store) {
                    storeRun(off + i * es, colStride, buf, at + i * cols, cols);
                } else {
                    loadRun(off + i * es, colStride, buf, at + i * cols, cols);
                }
            }
            return;
        }
        int step = s.panel.length / cols;
        for (int r = 0; r < rows; r += step) {
            panelThroughColumns(off + r * es, Math.min(step, rows - r), cols, colStride, buf, at + r * cols, store, s);
        }
    }

    /** {@link #transposePanel} of a 16-bit or wider panel of at most {@code Scratch.panel}'s size. */
    private void panelThroughColumns(long off, int rows, int cols, long colStride, float[] buf, int at, boolean store,
            Scratch s) {
        float[] columns = s.panel;
        if (dtype == DType.BF16) {
            BulkMath.forLayouts().loadBf16Panel(segment, off, colStride, buf, at, rows, cols, columns);
        } else if (store) {
            BulkMath.forLayouts().transpose(buf, at, rows, cols, columns, 0);
            for (int j = 0; j < cols; j++, off += colStride) {
                storeRun(off, es, columns, j * rows, rows);
            }
        } else {
            for (int j = 0; j < cols; j++, off += colStride) {
                loadRun(off, es, columns, j * rows, rows);
            }
            BulkMath.forLayouts().transpose(columns, 0, cols, rows, buf, at);
        }
    }

    private float load(long off) {
        return switch (dtype) {
            case FLOAT -> segment.get(F32, off);
            case FLOAT16 -> HalfFloats.fromHalf(segment.get(I16, off));
            case BF16 -> HalfFloats.fromBf16(segment.get(I16, off));
            case DOUBLE -> (float) segment.get(F64, off);
            default -> throw new IllegalStateException("no float load for " + dtype);
        };
    }

    private void store(long off, float v) {
        switch (dtype) {
            case FLOAT -> segment.set(F32, off, v);
            case FLOAT16 -> segment.set(I16, off, HalfFloats.toHalf(v));
            case BF16 -> segment.set(I16, off, HalfFloats.toBf16(v));
            case DOUBLE -> segment.set(F64, off, v);
            case COMPLEX64 -> { // a real value: imaginary part zero, as a cast from a float type gives
                segment.set(F32, off, v);
                segment.set(F32, off + 4, 0f);
            }
            case COMPLEX128 -> {
                segment.set(F64, off, v);
                segment.set(F64, off + 8, 0.0);
            }
            default -> throw new IllegalStateException("no float store for " + dtype);
        }
    }

    private void loadRun(long off, long stride, float[] dst, int at, int n) {
        if (stride == 0) { // a broadcast operand: one element read once
            java.util.Arrays.fill(dst, at, at + n, load(off));
            return;
        }
        switch (dtype) {
            case FLOAT -> {
                if (stride == 4) {
                    MemorySegment.copy(segment, off, Scratch.get().segmentOf(dst), 4L * at, 4L * n);
                } else if (stride == 8) {
                    BulkMath.forLayouts().loadEveryOther(segment, off, dst, at, n);
                } else {
                    for (int i = 0; i < n; i++, off += stride) {
                        dst[at + i] = segment.get(F32, off);
                    }
                }
            }
            case FLOAT16, BF16 -> {
                if (stride == 2) {
                    loadHalfRun(off, dst, at, n);
                } else {
                    for (int i = 0; i < n; i++, off += stride) {
                        dst[at + i] = load(off);
                    }
                }
            }
            default -> {
                for (int i = 0; i < n; i++, off += stride) {
                    dst[at + i] = load(off);
                }
            }
        }
    }

    /**
     * A contiguous 16-bit run. FLOAT16 converts straight from and to the segment with
     * {@link HalfFloats}' loops, which the JIT vectorizes with the processor's conversions (the
     * direct loops use the same); BFLOAT16 is bulk-copied through a short row that
     * {@link BulkMath} converts.
     */
    private void loadHalfRun(long off, float[] dst, int at, int n) {
        if (dtype == DType.FLOAT16) {
            HalfFloats.fromHalves(segment, off, dst, at, n);
            return;
        }
        Scratch s = Scratch.get();
        short[] row = s.halfRow;
        for (int done = 0; done < n; done += row.length) {
            int len = Math.min(row.length, n - done);
            MemorySegment.copy(segment, off + 2L * done, s.halfRowSegment, 0, 2L * len);
            BulkMath.forLayouts().bf16ToFloat(row, dst, at + done, len);
        }
    }

    private void storeHalfRun(long off, float[] src, int at, int n) {
        if (dtype == DType.FLOAT16) {
            HalfFloats.toHalves(src, at, segment, off, n);
            return;
        }
        Scratch s = Scratch.get();
        short[] row = s.halfRow;
        for (int done = 0; done < n; done += row.length) {
            int len = Math.min(row.length, n - done);
            BulkMath.forLayouts().floatToBf16(src, at + done, row, len);
            MemorySegment.copy(s.halfRowSegment, 0, segment, off + 2L * done, 2L * len);
        }
    }

    private void storeRun(long off, long stride, float[] src, int at, int n) {
        switch (dtype) {
            case FLOAT -> {
                if (stride == 4) {
                    MemorySegment.copy(Scratch.get().segmentOf(src), 4L * at, segment, off, 4L * n);
                } else if (stride == 8) {
                    BulkMath.forLayouts().storeEveryOther(src, at, n, segment, off);
                } else {
                    for (int i = 0; i < n; i++, off += stride) {
                        segment.set(F32, off, src[at + i]);
                    }
                }
            }
            case FLOAT16, BF16 -> {
                if (stride == 2) {
                    storeHalfRun(off, src, at, n);
                } else {
                    for (int i = 0; i < n; i++, off += stride) {
                        store(off, src[at + i]);
                    }
                }
            }
            default -> {
                for (int i = 0; i < n; i++, off += stride) {
                    store(off, src[at + i]);
                }
            }
        }
    }
}
