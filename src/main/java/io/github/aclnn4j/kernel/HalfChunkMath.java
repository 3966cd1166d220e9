package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * The direct loops whose 16-bit sums add in fp32 chunks of an order of their own (PReLU backward's
 * gradWeight terms, GroupNorm backward's row sums), and GroupNorm backward's 16-bit update beside
 * them: the Vector API's ({@link DirectMath}) once the operator's loops are warm, and before that
 * {@link PlainHalfChunkLoops}, plain Java that adds in the same order, so that a 16-bit call gives
 * the same bits whenever it runs ({@link DirectOperands#halfChunkMath}). Arguments and results as
 * in {@link DirectMath}.
 */
interface HalfChunkMath {
    /**
     * {@code out = x > 0 ? g : w·g}, returning {@code Σ min(x, 0)·g}, as {@link BulkMath#preluRow}:
     * FLOAT adds in double, the 16-bit types in fp32 chunks as {@link #groupSums} does.
     */
    double prelu(DType dtype, MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n);

    /**
     * GroupNorm's row sums over {@code rows} rows that start {@code rowLength} elements apart:
     * {@code Σ a} and {@code Σ a·b} over the first {@code n} elements of each (a multiple of
     * {@link DirectMath#STEP}; for FLOAT any count), stored as a pair of doubles per row at byte
     * {@code sumsAt} of {@code sums}. FLOAT adds in double with {@link BulkMath#sumAndDot}'s
     * operations in its order, so the same bits; the 16-bit types add in fp32 lanes within chunks
     * of {@link VectorLanes#SUM_CHUNK} elements (2^-18 to 2^-16 relative error at most, by vector
     * width) and add the chunks in double.
     */
    void groupSums(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, long rows, long rowLength, long n,
            MemorySegment sums, long sumsAt);

    /**
     * GroupNorm's fp32 update, as {@link BulkMath#groupNormUpdate}, for BFLOAT16 and FLOAT16: over the
     * first {@code n} elements (a multiple of {@link DirectMath#STEP}) of {@code rows} rows that start
     * {@code rowLength} elements apart, row {@code r} with {@code cdy[r]}.
     */
    void groupNormUpdate(DType dtype, MemorySegment dy, long dyAt, MemorySegment x, long xAt, int rows, long rowLength,
            long n, float[] cdy, float cx, float mean, float k, MemorySegment out, long outAt);
}
