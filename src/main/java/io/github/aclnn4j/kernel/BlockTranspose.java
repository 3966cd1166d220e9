package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Float matrices transposed in 8×8 blocks held in 256-bit registers, for the transposing panels of
 * {@link StridedView} ({@link VectorBulkMath#transpose} and the panel loads and stores built on it).
 * A block is eight row vectors put through three butterfly stages: at stage k (4, 2, 1) rows i and
 * i + k trade their off-diagonal k×k sub-blocks, each new row one lane permute and one blend. That
 * is 24 permutes per 64 elements where gathering the columns took 8 gathers, which on Zen 3 cost
 * three times as long (0.25 against 0.77 ns per element in cache, a `/tmp` harness). Used by
 * {@link VectorBulkMath} only, which exists where the preferred vectors have 256 bits or more.
 *
 * <p>The butterfly is one method per element type and memory kind: floats array to array
 * ({@link #block}), floats into memory from an array ({@code blockInto(float[]…)}) and from memory
 * ({@code blockBetweenFloats}), 16-bit values into memory from an array ({@code blockInto(short[]…)})
 * and from memory ({@code blockBetween}). Eight vectors cannot leave a method without being boxed
 * unless C2 inlines it, which it did not for a shared helper here (the BFLOAT16 store through one
 * ran 2.5× slower), and one memory kind per method keeps C2's view of its loads and stores exact. So
 * the five are generated from one template by {@code tools/kernels/generate_block_transposes.py},
 * at the end of the class. Unlike the direct loops, they do not cast their segments to the class
 * of native ones ({@link VectorLanes}): panels and transposing copies also move views and
 * workspaces that a program placed in Java arrays.
 */
final class BlockTranspose {
    static final VectorSpecies<Float> F8 = FloatVector.SPECIES_256;
    static final int B = 8;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    static final VectorShuffle<Float> SWAP4 = VectorShuffle.fromArray(F8, swap(4), 0);
    static final VectorShuffle<Float> SWAP2 = VectorShuffle.fromArray(F8, swap(2), 0);
    static final VectorShuffle<Float> SWAP1 = VectorShuffle.fromArray(F8, swap(1), 0);
    static final VectorMask<Float> HIGH4 = VectorMask.fromArray(F8, high(4), 0);
    static final VectorMask<Float> HIGH2 = VectorMask.fromArray(F8, high(2), 0);
    static final VectorMask<Float> HIGH1 = VectorMask.fromArray(F8, high(1), 0);
    static final VectorSpecies<Short> S8 = ShortVector.SPECIES_128;
    static final VectorShuffle<Short> SWAP4_S = VectorShuffle.fromArray(S8, swap(4), 0);
    static final VectorShuffle<Short> SWAP2_S = VectorShuffle.fromArray(S8, swap(2), 0);
    static final VectorShuffle<Short> SWAP1_S = VectorShuffle.fromArray(S8, swap(1), 0);
    static final VectorMask<Short> HIGH4_S = VectorMask.fromArray(S8, high(4), 0);
    static final VectorMask<Short> HIGH2_S = VectorMask.fromArray(S8, high(2), 0);
    static final VectorMask<Short> HIGH1_S = VectorMask.fromArray(S8, high(1), 0);

    private BlockTranspose() {}

    /** Lane l takes lane l ± k: the lanes of the two k-wide halves of each 2k-wide group swapped. */
    private static int[] swap(int k) {
        int[] lanes = new int[B];
        for (int l = 0; l < B; l++) {
            lanes[l] = (l & k) != 0 ? l - k : l + k;
        }
        return lanes;
    }

    /** The lanes whose bit k is set. */
    private static boolean[] high(int k) {
        boolean[] lanes = new boolean[B];
        for (int l = 0; l < B; l++) {
            lanes[l] = (l & k) != 0;
        }
        return lanes;
    }

    /**
     * {@code dst[dstAt + c·srcRows + r] = src[srcAt + r·srcCols + c]} for r < srcRows and
     * c < srcCols.
     */
    static void transpose(float[] src, int srcAt, int srcRows, int srcCols, float[] dst, int dstAt) {
        transpose(src, srcAt, srcRows, srcCols, srcCols, dst, dstAt, srcRows);
    }

    /**
     * A {@code rows × cols} corner of a larger matrix into the corner of another:
     * {@code dst[dstAt + c·dstStride + r] = src[srcAt + r·srcStride + c]}, whole 8×8 blocks in
     * registers, the last rows and columns one by one.
     */
    static void transpose(float[] src, int srcAt, int rows, int cols, int srcStride, float[] dst, int dstAt,
            int dstStride) {
        int fullRows = rows - rows % B;
        int fullCols = cols - cols % B;
        for (int r = 0; r < fullRows; r += B) {
            for (int c = 0; c < fullCols; c += B) {
                block(src, srcAt + r * srcStride + c, srcStride, dst, dstAt + c * dstStride + r, dstStride);
            }
        }
        oneByOne(src, srcAt, srcStride, dst, dstAt, dstStride, 0, fullRows, fullCols, cols);
        oneByOne(src, srcAt, srcStride, dst, dstAt, dstStride, fullRows, rows, 0, cols);
    }

    /**
     * A {@code rows × cols} corner of a matrix in {@code src} transposed straight into memory:
     * source column c becomes the run of {@code rows} floats at {@code off + c·colStride} bytes.
     * Whole 8×8 blocks go from registers to memory, eight columns at a time down all the rows, so
     * that each memory run is finished before the next eight are begun; the last rows and columns
     * one by one.
     */
    static void transposeInto(float[] src, int srcAt, int rows, int cols, int srcStride, MemorySegment seg, long off,
            long colStride) {
        int fullRows = rows - rows % B;
        int fullCols = cols - cols % B;
        for (int c = 0; c < fullCols; c += B) {
            for (int r = 0; r < fullRows; r += B) {
                blockInto(src, srcAt + r * srcStride + c, srcStride, seg, off + c * colStride + 4L * r, colStride);
            }
            for (int r = fullRows; r < rows; r++) {
                for (int k = c; k < c + B; k++) {
                    seg.set(F32, off + k * colStride + 4L * r, src[srcAt + r * srcStride + k]);
                }
            }
        }
        for (int c = fullCols; c < cols; c++) {
            for (int r = 0; r < rows; r++) {
                seg.set(F32, off + c * colStride + 4L * r, src[srcAt + r * srcStride + c]);
            }
        }
    }

    /**
     * {@link #transposeInto} for 16-bit values (BFLOAT16 already rounded, {@link
     * VectorBulkMath#storeBf16Panel}): {@code src} holds {@code rows} rows of {@code cols} values end
     * to end, and source column c becomes the run of {@code rows} values at {@code off + c·colStride}.
     */
    static void transposeInto(short[] src, int rows, int cols, MemorySegment seg, long off, long colStride) {
        int fullRows = rows - rows % B;
        int fullCols = cols - cols % B;
        for (int c = 0; c < fullCols; c += B) {
            for (int r = 0; r < fullRows; r += B) {
                blockInto(src, r * cols + c, cols, seg, off + c * colStride + 2L * r, colStride);
            }
            for (int r = fullRows; r < rows; r++) {
                for (int k = c; k < c + B; k++) {
                    seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, off + k * colStride + 2L * r, src[r * cols + k]);
                }
            }
        }
        for (int c = fullCols; c < cols; c++) {
            for (int r = 0; r < rows; r++) {
                seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, off + c * colStride + 2L * r, src[r * cols + c]);
            }
        }
    }

    /**
     * {@link #transposeInto} for 16-bit values from memory to memory: the {@code rows × cols} values
     * at {@code src} from {@code srcOff}, rows {@code srcRowStride} bytes apart, and source column c
     * becomes the run of {@code rows} values at {@code dstOff + c·dstColStride}. Read where they lie,
     * 8 values of a row at once, instead of first copying each row's run into a panel (a copy of 128
     * bytes costs about as much as the transposing store of its values).
     */
    static void transposeBetween(MemorySegment src, long srcOff, long srcRowStride, int rows, int cols,
            MemorySegment dst, long dstOff, long dstColStride) {
        int fullRows = rows - rows % B;
        int fullCols = cols - cols % B;
        for (int c = 0; c < fullCols; c += B) {
            for (int r = 0; r < fullRows; r += B) {
                blockBetween(src, srcOff + r * srcRowStride + 2L * c, srcRowStride, dst,
                        dstOff + c * dstColStride + 2L * r, dstColStride);
            }
            for (int r = fullRows; r < rows; r++) {
                for (int k = c; k < c + B; k++) {
                    dst.set(ValueLayout.JAVA_SHORT_UNALIGNED, dstOff + k * dstColStride + 2L * r,
                            src.get(ValueLayout.JAVA_SHORT_UNALIGNED, srcOff + r * srcRowStride + 2L * k));
                }
            }
        }
        for (int c = fullCols; c < cols; c++) {
            for (int r = 0; r < rows; r++) {
                dst.set(ValueLayout.JAVA_SHORT_UNALIGNED, dstOff + c * dstColStride + 2L * r,
                        src.get(ValueLayout.JAVA_SHORT_UNALIGNED, srcOff + r * srcRowStride + 2L * c));
            }
        }
    }

    /** The elements of rows {@code [r0, r1)} and columns {@code [c0, c1)}, one by one. */
    private static void oneByOne(float[] src, int srcAt, int srcStride, float[] dst, int dstAt, int dstStride, int r0,
            int r1, int c0, int c1) {
        for (int r = r0; r < r1; r++) {
            for (int c = c0; c < c1; c++) {
                dst[dstAt + c * dstStride + r] = src[srcAt + r * srcStride + c];
            }
        }
    }

    /** Floats from memory to memory, as {@link #transposeBetween} moves 16-bit values. */
    static void transposeFloatsBetween(MemorySegment src, long srcOff, long srcRowStride, int rows, int cols,
            MemorySegment dst, long dstOff, long dstColStride) {
        int fullRows = rows - rows % B;
        int fullCols = cols - cols % B;
        for (int c = 0; c < fullCols; c += B) {
            for (int r = 0; r < fullRows; r += B) {
                blockBetweenFloats(src, srcOff + r * srcRowStride + 4L * c, srcRowStride, dst,
                        dstOff + c * dstColStride + 4L * r, dstColStride);
            }
            for (int r = fullRows; r < rows; r++) {
                for (int k = c; k < c + B; k++) {
                    dst.set(F32, dstOff + k * dstColStride + 4L * r, src.get(F32, srcOff + r * srcRowStride + 4L * k));
                }
            }
        }
        for (int c = fullCols; c < cols; c++) {
            for (int r = 0; r < rows; r++) {
                dst.set(F32, dstOff + c * dstColStride + 4L * r, src.get(F32, srcOff + r * srcRowStride + 4L * c));
            }
        }
    }

    // Generated by tools/kernels/generate_block_transposes.py: do not edit. The butterflies, one method
    // per element type, source and destination kind.
    /** One 8×8 block: rows {@code rowStride} apart from {@code from}, its columns to rows {@code colStride} apart. */
    private static void block(float[] src, int from, int rowStride, float[] dst, int to, int colStride) {
        FloatVector r0 = FloatVector.fromArray(F8, src, from);
        FloatVector r1 = FloatVector.fromArray(F8, src, from + rowStride);
        FloatVector r2 = FloatVector.fromArray(F8, src, from + 2 * rowStride);
        FloatVector r3 = FloatVector.fromArray(F8, src, from + 3 * rowStride);
        FloatVector r4 = FloatVector.fromArray(F8, src, from + 4 * rowStride);
        FloatVector r5 = FloatVector.fromArray(F8, src, from + 5 * rowStride);
        FloatVector r6 = FloatVector.fromArray(F8, src, from + 6 * rowStride);
        FloatVector r7 = FloatVector.fromArray(F8, src, from + 7 * rowStride);
        FloatVector a0 = r0.blend(r4.rearrange(SWAP4), HIGH4);
        FloatVector a4 = r0.rearrange(SWAP4).blend(r4, HIGH4);
        FloatVector a1 = r1.blend(r5.rearrange(SWAP4), HIGH4);
        FloatVector a5 = r1.rearrange(SWAP4).blend(r5, HIGH4);
        FloatVector a2 = r2.blend(r6.rearrange(SWAP4), HIGH4);
        FloatVector a6 = r2.rearrange(SWAP4).blend(r6, HIGH4);
        FloatVector a3 = r3.blend(r7.rearrange(SWAP4), HIGH4);
        FloatVector a7 = r3.rearrange(SWAP4).blend(r7, HIGH4);
        FloatVector b0 = a0.blend(a2.rearrange(SWAP2), HIGH2);
        FloatVector b2 = a0.rearrange(SWAP2).blend(a2, HIGH2);
        FloatVector b1 = a1.blend(a3.rearrange(SWAP2), HIGH2);
        FloatVector b3 = a1.rearrange(SWAP2).blend(a3, HIGH2);
        FloatVector b4 = a4.blend(a6.rearrange(SWAP2), HIGH2);
        FloatVector b6 = a4.rearrange(SWAP2).blend(a6, HIGH2);
        FloatVector b5 = a5.blend(a7.rearrange(SWAP2), HIGH2);
        FloatVector b7 = a5.rearrange(SWAP2).blend(a7, HIGH2);
        b0.blend(b1.rearrange(SWAP1), HIGH1).intoArray(dst, to);
        b0.rearrange(SWAP1).blend(b1, HIGH1).intoArray(dst, to + colStride);
        b2.blend(b3.rearrange(SWAP1), HIGH1).intoArray(dst, to + 2 * colStride);
        b2.rearrange(SWAP1).blend(b3, HIGH1).intoArray(dst, to + 3 * colStride);
        b4.blend(b5.rearrange(SWAP1), HIGH1).intoArray(dst, to + 4 * colStride);
        b4.rearrange(SWAP1).blend(b5, HIGH1).intoArray(dst, to + 5 * colStride);
        b6.blend(b7.rearrange(SWAP1), HIGH1).intoArray(dst, to + 6 * colStride);
        b6.rearrange(SWAP1).blend(b7, HIGH1).intoArray(dst, to + 7 * colStride);
    }

    /** {@link #block} with its columns stored to memory runs {@code colStride} bytes apart (see the class comment). */
    private static void blockInto(float[] src, int from, int rowStride, MemorySegment seg, long to, long colStride) {
        FloatVector r0 = FloatVector.fromArray(F8, src, from);
        FloatVector r1 = FloatVector.fromArray(F8, src, from + rowStride);
        FloatVector r2 = FloatVector.fromArray(F8, src, from + 2 * rowStride);
        FloatVector r3 = FloatVector.fromArray(F8, src, from + 3 * rowStride);
        FloatVector r4 = FloatVector.fromArray(F8, src, from + 4 * rowStride);
        FloatVector r5 = FloatVector.fromArray(F8, src, from + 5 * rowStride);
        FloatVector r6 = FloatVector.fromArray(F8, src, from + 6 * rowStride);
        FloatVector r7 = FloatVector.fromArray(F8, src, from + 7 * rowStride);
        FloatVector a0 = r0.blend(r4.rearrange(SWAP4), HIGH4);
        FloatVector a4 = r0.rearrange(SWAP4).blend(r4, HIGH4);
        FloatVector a1 = r1.blend(r5.rearrange(SWAP4), HIGH4);
        FloatVector a5 = r1.rearrange(SWAP4).blend(r5, HIGH4);
        FloatVector a2 = r2.blend(r6.rearrange(SWAP4), HIGH4);
        FloatVector a6 = r2.rearrange(SWAP4).blend(r6, HIGH4);
        FloatVector a3 = r3.blend(r7.rearrange(SWAP4), HIGH4);
        FloatVector a7 = r3.rearrange(SWAP4).blend(r7, HIGH4);
        FloatVector b0 = a0.blend(a2.rearrange(SWAP2), HIGH2);
        FloatVector b2 = a0.rearrange(SWAP2).blend(a2, HIGH2);
        FloatVector b1 = a1.blend(a3.rearrange(SWAP2), HIGH2);
        FloatVector b3 = a1.rearrange(SWAP2).blend(a3, HIGH2);
        FloatVector b4 = a4.blend(a6.rearrange(SWAP2), HIGH2);
        FloatVector b6 = a4.rearrange(SWAP2).blend(a6, HIGH2);
        FloatVector b5 = a5.blend(a7.rearrange(SWAP2), HIGH2);
        FloatVector b7 = a5.rearrange(SWAP2).blend(a7, HIGH2);
        b0.blend(b1.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to, VectorLanes.ORDER);
        b0.rearrange(SWAP1).blend(b1, HIGH1).intoMemorySegment(seg, to + colStride, VectorLanes.ORDER);
        b2.blend(b3.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to + 2 * colStride, VectorLanes.ORDER);
        b2.rearrange(SWAP1).blend(b3, HIGH1).intoMemorySegment(seg, to + 3 * colStride, VectorLanes.ORDER);
        b4.blend(b5.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to + 4 * colStride, VectorLanes.ORDER);
        b4.rearrange(SWAP1).blend(b5, HIGH1).intoMemorySegment(seg, to + 5 * colStride, VectorLanes.ORDER);
        b6.blend(b7.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to + 6 * colStride, VectorLanes.ORDER);
        b6.rearrange(SWAP1).blend(b7, HIGH1).intoMemorySegment(seg, to + 7 * colStride, VectorLanes.ORDER);
    }

    /** {@link #blockInto} for floats from memory. */
    private static void blockBetweenFloats(MemorySegment src, long from, long rowStride, MemorySegment seg, long to,
            long colStride) {
        FloatVector r0 = FloatVector.fromMemorySegment(F8, src, from, VectorLanes.ORDER);
        FloatVector r1 = FloatVector.fromMemorySegment(F8, src, from + rowStride, VectorLanes.ORDER);
        FloatVector r2 = FloatVector.fromMemorySegment(F8, src, from + 2 * rowStride, VectorLanes.ORDER);
        FloatVector r3 = FloatVector.fromMemorySegment(F8, src, from + 3 * rowStride, VectorLanes.ORDER);
        FloatVector r4 = FloatVector.fromMemorySegment(F8, src, from + 4 * rowStride, VectorLanes.ORDER);
        FloatVector r5 = FloatVector.fromMemorySegment(F8, src, from + 5 * rowStride, VectorLanes.ORDER);
        FloatVector r6 = FloatVector.fromMemorySegment(F8, src, from + 6 * rowStride, VectorLanes.ORDER);
        FloatVector r7 = FloatVector.fromMemorySegment(F8, src, from + 7 * rowStride, VectorLanes.ORDER);
        FloatVector a0 = r0.blend(r4.rearrange(SWAP4), HIGH4);
        FloatVector a4 = r0.rearrange(SWAP4).blend(r4, HIGH4);
        FloatVector a1 = r1.blend(r5.rearrange(SWAP4), HIGH4);
        FloatVector a5 = r1.rearrange(SWAP4).blend(r5, HIGH4);
        FloatVector a2 = r2.blend(r6.rearrange(SWAP4), HIGH4);
        FloatVector a6 = r2.rearrange(SWAP4).blend(r6, HIGH4);
        FloatVector a3 = r3.blend(r7.rearrange(SWAP4), HIGH4);
        FloatVector a7 = r3.rearrange(SWAP4).blend(r7, HIGH4);
        FloatVector b0 = a0.blend(a2.rearrange(SWAP2), HIGH2);
        FloatVector b2 = a0.rearrange(SWAP2).blend(a2, HIGH2);
        FloatVector b1 = a1.blend(a3.rearrange(SWAP2), HIGH2);
        FloatVector b3 = a1.rearrange(SWAP2).blend(a3, HIGH2);
        FloatVector b4 = a4.blend(a6.rearrange(SWAP2), HIGH2);
        FloatVector b6 = a4.rearrange(SWAP2).blend(a6, HIGH2);
        FloatVector b5 = a5.blend(a7.rearrange(SWAP2), HIGH2);
        FloatVector b7 = a5.rearrange(SWAP2).blend(a7, HIGH2);
        b0.blend(b1.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to, VectorLanes.ORDER);
        b0.rearrange(SWAP1).blend(b1, HIGH1).intoMemorySegment(seg, to + colStride, VectorLanes.ORDER);
        b2.blend(b3.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to + 2 * colStride, VectorLanes.ORDER);
        b2.rearrange(SWAP1).blend(b3, HIGH1).intoMemorySegment(seg, to + 3 * colStride, VectorLanes.ORDER);
        b4.blend(b5.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to + 4 * colStride, VectorLanes.ORDER);
        b4.rearrange(SWAP1).blend(b5, HIGH1).intoMemorySegment(seg, to + 5 * colStride, VectorLanes.ORDER);
        b6.blend(b7.rearrange(SWAP1), HIGH1).intoMemorySegment(seg, to + 6 * colStride, VectorLanes.ORDER);
        b6.rearrange(SWAP1).blend(b7, HIGH1).intoMemorySegment(seg, to + 7 * colStride, VectorLanes.ORDER);
    }

    /** {@link #blockInto} for an 8×8 block of 16-bit values, in 128-bit registers. */
    private static void blockInto(short[] src, int from, int rowStride, MemorySegment seg, long to, long colStride) {
        ShortVector r0 = ShortVector.fromArray(S8, src, from);
        ShortVector r1 = ShortVector.fromArray(S8, src, from + rowStride);
        ShortVector r2 = ShortVector.fromArray(S8, src, from + 2 * rowStride);
        ShortVector r3 = ShortVector.fromArray(S8, src, from + 3 * rowStride);
        ShortVector r4 = ShortVector.fromArray(S8, src, from + 4 * rowStride);
        ShortVector r5 = ShortVector.fromArray(S8, src, from + 5 * rowStride);
        ShortVector r6 = ShortVector.fromArray(S8, src, from + 6 * rowStride);
        ShortVector r7 = ShortVector.fromArray(S8, src, from + 7 * rowStride);
        ShortVector a0 = r0.blend(r4.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a4 = r0.rearrange(SWAP4_S).blend(r4, HIGH4_S);
        ShortVector a1 = r1.blend(r5.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a5 = r1.rearrange(SWAP4_S).blend(r5, HIGH4_S);
        ShortVector a2 = r2.blend(r6.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a6 = r2.rearrange(SWAP4_S).blend(r6, HIGH4_S);
        ShortVector a3 = r3.blend(r7.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a7 = r3.rearrange(SWAP4_S).blend(r7, HIGH4_S);
        ShortVector b0 = a0.blend(a2.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b2 = a0.rearrange(SWAP2_S).blend(a2, HIGH2_S);
        ShortVector b1 = a1.blend(a3.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b3 = a1.rearrange(SWAP2_S).blend(a3, HIGH2_S);
        ShortVector b4 = a4.blend(a6.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b6 = a4.rearrange(SWAP2_S).blend(a6, HIGH2_S);
        ShortVector b5 = a5.blend(a7.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b7 = a5.rearrange(SWAP2_S).blend(a7, HIGH2_S);
        b0.blend(b1.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to, VectorLanes.ORDER);
        b0.rearrange(SWAP1_S).blend(b1, HIGH1_S).intoMemorySegment(seg, to + colStride, VectorLanes.ORDER);
        b2.blend(b3.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to + 2 * colStride, VectorLanes.ORDER);
        b2.rearrange(SWAP1_S).blend(b3, HIGH1_S).intoMemorySegment(seg, to + 3 * colStride, VectorLanes.ORDER);
        b4.blend(b5.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to + 4 * colStride, VectorLanes.ORDER);
        b4.rearrange(SWAP1_S).blend(b5, HIGH1_S).intoMemorySegment(seg, to + 5 * colStride, VectorLanes.ORDER);
        b6.blend(b7.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to + 6 * colStride, VectorLanes.ORDER);
        b6.rearrange(SWAP1_S).blend(b7, HIGH1_S).intoMemorySegment(seg, to + 7 * colStride, VectorLanes.ORDER);
    }

    /**
     * {@link #blockInto} for 16-bit values from memory: the same butterfly, kept apart from the array loads' so that
     * each method's loads have one kind of source.
     */
    private static void blockBetween(MemorySegment src, long from, long rowStride, MemorySegment seg, long to,
            long colStride) {
        ShortVector r0 = ShortVector.fromMemorySegment(S8, src, from, VectorLanes.ORDER);
        ShortVector r1 = ShortVector.fromMemorySegment(S8, src, from + rowStride, VectorLanes.ORDER);
        ShortVector r2 = ShortVector.fromMemorySegment(S8, src, from + 2 * rowStride, VectorLanes.ORDER);
        ShortVector r3 = ShortVector.fromMemorySegment(S8, src, from + 3 * rowStride, VectorLanes.ORDER);
        ShortVector r4 = ShortVector.fromMemorySegment(S8, src, from + 4 * rowStride, VectorLanes.ORDER);
        ShortVector r5 = ShortVector.fromMemorySegment(S8, src, from + 5 * rowStride, VectorLanes.ORDER);
        ShortVector r6 = ShortVector.fromMemorySegment(S8, src, from + 6 * rowStride, VectorLanes.ORDER);
        ShortVector r7 = ShortVector.fromMemorySegment(S8, src, from + 7 * rowStride, VectorLanes.ORDER);
        ShortVector a0 = r0.blend(r4.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a4 = r0.rearrange(SWAP4_S).blend(r4, HIGH4_S);
        ShortVector a1 = r1.blend(r5.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a5 = r1.rearrange(SWAP4_S).blend(r5, HIGH4_S);
        ShortVector a2 = r2.blend(r6.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a6 = r2.rearrange(SWAP4_S).blend(r6, HIGH4_S);
        ShortVector a3 = r3.blend(r7.rearrange(SWAP4_S), HIGH4_S);
        ShortVector a7 = r3.rearrange(SWAP4_S).blend(r7, HIGH4_S);
        ShortVector b0 = a0.blend(a2.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b2 = a0.rearrange(SWAP2_S).blend(a2, HIGH2_S);
        ShortVector b1 = a1.blend(a3.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b3 = a1.rearrange(SWAP2_S).blend(a3, HIGH2_S);
        ShortVector b4 = a4.blend(a6.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b6 = a4.rearrange(SWAP2_S).blend(a6, HIGH2_S);
        ShortVector b5 = a5.blend(a7.rearrange(SWAP2_S), HIGH2_S);
        ShortVector b7 = a5.rearrange(SWAP2_S).blend(a7, HIGH2_S);
        b0.blend(b1.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to, VectorLanes.ORDER);
        b0.rearrange(SWAP1_S).blend(b1, HIGH1_S).intoMemorySegment(seg, to + colStride, VectorLanes.ORDER);
        b2.blend(b3.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to + 2 * colStride, VectorLanes.ORDER);
        b2.rearrange(SWAP1_S).blend(b3, HIGH1_S).intoMemorySegment(seg, to + 3 * colStride, VectorLanes.ORDER);
        b4.blend(b5.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to + 4 * colStride, VectorLanes.ORDER);
        b4.rearrange(SWAP1_S).blend(b5, HIGH1_S).intoMemorySegment(seg, to + 5 * colStride, VectorLanes.ORDER);
        b6.blend(b7.rearrange(SWAP1_S), HIGH1_S).intoMemorySegment(seg, to + 6 * colStride, VectorLanes.ORDER);
        b6.rearrange(SWAP1_S).blend(b7, HIGH1_S).intoMemorySegment(seg, to + 7 * colStride, VectorLanes.ORDER);
    }
}
