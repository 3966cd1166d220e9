package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The inner loops that the JIT does not vectorize by itself, over rows of one block: BFLOAT16
 * conversions, the BCE-with-logits loss and paired sums. Two implementations, as Lucene has: the
 * Vector API ({@code jdk.incubator.vector}) when that module is present (run with
 * {@code --add-modules jdk.incubator.vector}), plain Java otherwise or when
 * {@code -Daclnn4j.vector=false}; kernels ask {@link #current()}, which is plain Java for a small
 * call while {@link Warmup} finds the Vector API's loops cold. Each is deterministic, and they give
 * the same bits wherever a call may take either.
 */
public interface BulkMath {
    /** The plain-Java implementation. */
    BulkMath PLAIN = new ScalarBulkMath();

    /**
     * The fastest implementation here: the Vector API's when present, else {@link #PLAIN}. Loaded
     * on first use (the Vector API's classes take tens of milliseconds to initialize).
     */
    static BulkMath fastest() {
        return Loader.FASTEST;
    }

    /**
     * The implementation a call should use now: plain Java while {@link Warmup} finds the Vector
     * API's loops cold, then {@link #fastest()}. Both give the same bits.
     */
    static BulkMath current() {
        return Warmup.bulkMath(Warmup.coldIndex());
    }

    /**
     * {@link #current()} for the panel, stepped and 16-bit conversion loops of strided views, which
     * {@link Warmup} warms as a family of their own ({@link Warmup.Family#LAYOUTS}).
     */
    static BulkMath forLayouts() {
        return Warmup.bulkMath(Warmup.coldLayoutsIndex());
    }

    /** A short name for reports: {@code vector-} and the vector bits ({@code vector-256}), or {@code scalar}. */
    String name();

    /** {@code dst[dstAt + i] = float(src[i])} for BFLOAT16 bit patterns, {@code i < n}. */
    void bf16ToFloat(short[] src, float[] dst, int dstAt, int n);

    /** {@code dst[i] = bf16(src[srcAt + i])}, rounded to nearest even, every NaN as 0x7FC0, {@code i < n}. */
    void floatToBf16(float[] src, int srcAt, short[] dst, int n);

    /**
     * The BCE-with-logits loss of each element, {@code ((1 − y)·x − (1 + (pw − 1)·y)·logσ(x))·w}
     * ({@code w}, {@code pw} rows of ones when absent: one code path keeps the vectors unboxed).
     * Writes the losses over {@code x} and returns their sum in {@link SumOrder#chunkedSum}'s order.
     * Both versions compute each loss in fp32 with the same operations ({@link Fp32Math}), as the
     * spec asks, so they give the same bits.
     */
    double bceWithLogits(float[] x, float[] y, float[] w, float[] pw, int n);

    /**
     * The BCE-with-logits gradient of each element, {@code ((pw·y + 1 − y)·σ(x) − pw·y)·g·w·scale}
     * ({@code w}, {@code pw} rows of ones when absent), written over {@code x}. The Vector API
     * version computes in fp32 with BCE with logits' own exp; the scalar one in double.
     */
    void bceWithLogitsBackward(float[] x, float[] y, float[] g, float[] w, float[] pw, float scale, int n);

    /**
     * The binary cross entropy of each element, {@code −w·(y·max(log x, −100) + (1 − y)·max(log1p(−x), −100))}
     * ({@code w} a row of ones when absent), written over {@code x}; returns their sum in double.
     * The Vector API version computes in fp32 with its own log (IEEE operations only, so the same
     * bits interpreted or compiled); the scalar one in double.
     */
    double binaryCrossEntropy(float[] x, float[] y, float[] w, int n);

    /**
     * One PReLU row segment with weight {@code w}: {@code x[i] = x[i] > 0 ? g[i] : w·g[i]} in place,
     * returning {@code Σ min(x[i], 0)·g[i]} (the gradWeight part) in double, for i in [from, to).
     */
    double preluRow(float[] x, float[] g, int from, int to, float w);

    /**
     * PReLU over whole rows of {@code channels} elements laid end to end (channels innermost, as
     * NHWC memory is), in [from, to): {@code x[i] = x[i] > 0 ? g[i] : w[c]·g[i]} in place and
     * {@code acc[c] += min(x[i], 0)·g[i]} in double, row after row. The products are exact in
     * double, so every implementation gives the same bits.
     */
    void preluChannelRows(float[] x, float[] g, int from, int to, float[] w, int channels, double[] acc);

    /** PReLU forward with weight {@code w}: {@code x[i] = x[i] > 0 ? x[i] : w·x[i]} in place, i in [from, to). */
    void prelu(float[] x, int from, int to, float w);

    /** PReLU forward with a weight per element: {@code x[i] = x[i] > 0 ? x[i] : w[i]·x[i]} in place, i in [from, to). */
    void preluWeighted(float[] x, float[] w, int from, int to);

    /** {@code a[i] = (float) (ca·a[i] + cb·b[i] + bias)} for i in [from, to), in double (the terms can cancel). */
    void affine(float[] a, float[] b, int from, int to, double ca, double cb, double bias);

    /**
     * GroupNorm's update for 16-bit outputs, in fp32: {@code dy[i] = fma(cx, x[i] − mean, fma(cdy, dy[i], k))}
     * for i in [from, to). Both fused multiply-adds round once, so any implementation gives the
     * same bits.
     */
    void groupNormUpdate(float[] dy, float[] x, int from, int to, float cdy, float cx, float mean, float k);

    /**
     * {@code Σ a[i]} and {@code Σ a[i]·b[i]} over i in [from, to), in double, into {@code out[0]}
     * and {@code out[1]}.
     */
    void sumAndDot(float[] a, float[] b, int from, int to, double[] out);

    /**
     * {@code Σ a[i]} over i in [from, to), in double, in {@link SumOrder#GROUP_LANES}: GroupNorm
     * forward's first pass.
     */
    double groupSum(float[] a, int from, int to);

    /**
     * {@code Σ (a[i] − shift)²} over i in [from, to), in double, in {@link SumOrder#GROUP_LANES}:
     * GroupNorm forward's second pass.
     */
    double squaredDeviations(float[] a, int from, int to, double shift);

    /** {@code a[i] = (float) fma(a[i], k, bias)} for i in [from, to), in double: GroupNorm forward's update. */
    void scaleShift(float[] a, int from, int to, double k, double bias);

    /**
     * Per-channel sums over rows of {@code channels} values laid end to end (channels innermost, as
     * channels-last memory is): {@code sum[c] += a[r·channels + c]}, row after row. Each channel's
     * additions run in row order, so every implementation gives the same bits. (GroupNorm forward's;
     * its backward's, with dots, is {@link #addChannelRows}: one loop each, so that neither's profile
     * is the other's, which deoptimized the shared loop at every switch between them.)
     */
    void addChannelSums(float[] a, int rows, int channels, double[] sum);

    /**
     * {@link #addChannelSums}, and {@code dot[c] = fma(a, b, dot[c])} at the same index, row after
     * row.
     */
    void addChannelRows(float[] a, float[] b, int rows, int channels, double[] sum, double[] dot);

    /**
     * {@code acc[c] = fma(d, d, acc[c])} with {@code d = a[r·channels + c] − shift[c]} in double, over
     * rows of {@code channels} values, row after row: the same bits in every implementation.
     */
    void addChannelSquaredDeviations(float[] a, int rows, int channels, double[] shift, double[] acc);

    /**
     * {@code a[r·channels + c] = (float) fma(k[c], a, bias[c])} over rows of {@code channels} values,
     * the fused multiply-add in double: the same bits in every implementation.
     */
    void affineChannelRows(float[] a, int rows, int channels, double[] k, double[] bias);

    /**
     * {@code a[i] = (float) (ca[c]·a[i] + cb[c]·b[i] + bias[c])} in double, i = r·channels + c, over
     * rows of {@code channels} values (GroupNorm backward's update over channels-last memory), with
     * {@link #affine}'s operations: the same bits in every implementation.
     */
    void affineChannelPairs(float[] a, float[] b, int rows, int channels, double[] ca, double[] cb, double[] bias);

    /**
     * {@link #sumAndDot} of each of {@code rows} rows of {@code length} elements laid end to end
     * from index 0: row r's sums into {@code out[2r]} and {@code out[2r + 1]}, with the bits
     * sumAndDot gives for that row. One call for a group of short rows (GroupNorm's 7×7 maps).
     */
    void sumAndDotRows(float[] a, float[] b, int rows, int length, double[] out);

    /** {@link #affine} of each of {@code rows} rows of {@code length} elements from index 0, row r with {@code ca[r]}. */
    default void affineRows(float[] a, float[] b, int rows, int length, double[] ca, double cb, double bias) {
        for (int r = 0; r < rows; r++) {
            affine(a, b, r * length, (r + 1) * length, ca[r], cb, bias);
        }
    }

    /**
     * {@link #groupNormUpdate} of each of {@code rows} rows of {@code length} elements from index
     * 0, row r with {@code cdy[r]}.
     */
    default void groupNormUpdateRows(float[] dy, float[] x, int rows, int length, float[] cdy, float cx, float mean,
            float k) {
        for (int r = 0; r < rows; r++) {
            groupNormUpdate(dy, x, r * length, (r + 1) * length, cdy[r], cx, mean, k);
        }
    }

    /**
     * Stores a FLOAT panel: {@code buf[at + i·cols + j]} to the float at {@code off + j·colStride + 4i}
     * of {@code seg}, for {@code i < rows} and {@code j < cols} (each memory column one contiguous run of
     * {@code rows} floats; the rows lie end to end in {@code buf}). {@code columns} is scratch the
     * memory columns may pass through.
     */
    default void storePanel(float[] buf, int at, int rows, int cols, MemorySegment seg, long off, long colStride,
            float[] columns) {
        for (int j = 0; j < cols; j++, off += colStride) {
            for (int i = 0; i < rows; i++) {
                seg.set(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 4L * i, buf[at + i * cols + j]);
            }
        }
    }

    /**
     * Loads {@code n} FLOATs that lie every other float from byte {@code off} of {@code seg} (a
     * view stepping by two, {@code x[..., ::2]}) into {@code dst[at, at + n)}.
     */
    default void loadEveryOther(MemorySegment seg, long off, float[] dst, int at, int n) {
        for (int i = 0; i < n; i++) {
            dst[at + i] = seg.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 8L * i);
        }
    }

    /**
     * Stores {@code src[at, at + n)} as FLOATs every other float from byte {@code off} of
     * {@code seg}, the inverse of {@link #loadEveryOther}; the floats between are not written.
     */
    default void storeEveryOther(float[] src, int at, int n, MemorySegment seg, long off) {
        for (int i = 0; i < n; i++) {
            seg.set(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 8L * i, src[at + i]);
        }
    }

    /**
     * Loads a FLOAT panel, the inverse of {@link #storePanel}: {@code buf[at + i·cols + j]} from the
     * float at {@code off + j·colStride + 4i}. {@code columns} is scratch the memory columns may pass
     * through.
     */
    default void loadPanel(MemorySegment seg, long off, long colStride, float[] buf, int at, int rows, int cols,
            float[] columns) {
        for (int j = 0; j < cols; j++, off += colStride) {
            for (int i = 0; i < rows; i++) {
                buf[at + i * cols + j] = seg.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off + 4L * i);
            }
        }
    }

    /**
     * {@link #storePanel} for BFLOAT16 memory: each float rounded to nearest even as
     * {@link HalfFloats#toBf16} does.
     */
    default void storeBf16Panel(float[] buf, int at, int rows, int cols, MemorySegment seg, long off, long colStride,
            float[] columns) {
        for (int j = 0; j < cols; j++, off += colStride) {
            for (int i = 0; i < rows; i++) {
                seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, off + 2L * i, HalfFloats.toBf16(buf[at + i * cols + j]));
            }
        }
    }

    /**
     * Copies 16-bit values transposed, unchanged, from memory to memory: the {@code rows × cols}
     * values at {@code src} from {@code srcOff}, rows {@code srcRowStride} bytes apart and 2 bytes
     * between columns; column j lands at {@code dst} from {@code dstOff + j·dstColStride}, 2 bytes
     * apart.
     */
    default void transposeHalves(MemorySegment src, long srcOff, long srcRowStride, int rows, int cols,
            MemorySegment dst, long dstOff, long dstColStride) {
        for (int j = 0; j < cols; j++) {
            for (int i = 0; i < rows; i++) {
                dst.set(ValueLayout.JAVA_SHORT_UNALIGNED, dstOff + j * dstColStride + 2L * i,
                        src.get(ValueLayout.JAVA_SHORT_UNALIGNED, srcOff + i * srcRowStride + 2L * j));
            }
        }
    }

    /** {@link #transposeHalves} for FLOATs: 4 bytes between columns, and between a column's values. */
    default void transposeFloats(MemorySegment src, long srcOff, long srcRowStride, int rows, int cols,
            MemorySegment dst, long dstOff, long dstColStride) {
        for (int j = 0; j < cols; j++) {
            for (int i = 0; i < rows; i++) {
                dst.set(ValueLayout.JAVA_FLOAT_UNALIGNED, dstOff + j * dstColStride + 4L * i,
                        src.get(ValueLayout.JAVA_FLOAT_UNALIGNED, srcOff + i * srcRowStride + 4L * j));
            }
        }
    }

    /**
     * Stores a panel of 16-bit values transposed, unchanged: column j of the {@code rows × cols}
     * row-major panel {@code src} to {@code seg} from {@code off + j·colStride}, 2 bytes apart.
     */
    default void storeHalfPanel(short[] src, int rows, int cols, MemorySegment seg, long off, long colStride) {
        for (int j = 0; j < cols; j++, off += colStride) {
            for (int i = 0; i < rows; i++) {
                seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, off + 2L * i, src[i * cols + j]);
            }
        }
    }

    /** {@link #loadPanel} for BFLOAT16 memory, the inverse of {@link #storeBf16Panel}. */
    default void loadBf16Panel(MemorySegment seg, long off, long colStride, float[] buf, int at, int rows, int cols,
            float[] columns) {
        for (int j = 0; j < cols; j++, off += colStride) {
            for (int i = 0; i < rows; i++) {
                buf[at + i * cols + j] = HalfFloats.fromBf16(seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, off + 2L * i));
            }
        }
    }

    /**
     * Transposes a matrix of floats: {@code dst[dstAt + c·srcRows + r] = src[srcAt + r·srcCols + c]}
     * for {@code r < srcRows} and {@code c < srcCols}. The rows of a panel whose memory columns are not FLOAT pass
     * through it ({@link StridedView}).
     */
    default void transpose(float[] src, int srcAt, int srcRows, int srcCols, float[] dst, int dstAt) {
        for (int c = 0; c < srcCols; c++) {
            for (int r = 0; r < srcRows; r++) {
                dst[dstAt + c * srcRows + r] = src[srcAt + r * srcCols + c];
            }
        }
    }

    /** Picks the implementation. */
    final class Loader {
        private Loader() {}

        static final BulkMath FASTEST = Warmup.loaded(load());

        private static BulkMath load() {
            if (!Warmup.vectorsWanted()) {
                return PLAIN;
            }
            try {
                return (BulkMath) Class.forName("io.github.aclnn4j.kernel.VectorBulkMath")
                        .getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                return PLAIN;
            }
        }
    }
}
