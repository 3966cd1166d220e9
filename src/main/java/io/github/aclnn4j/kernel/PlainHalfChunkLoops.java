package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorLanes.SUM_CHUNK;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import jdk.incubator.vector.VectorShape;

/**
 * Plain Java with the bits of the Vector API's 16-bit {@link HalfChunkMath} loops on this
 * processor: what a BFLOAT16 or FLOAT16 call of PReLU backward or GroupNorm backward takes while
 * those loops are cold, where it used to run them interpreted (a first call of 2^20 elements took
 * seconds). Their fp32 chunk sums depend on the vector width, so this class follows this
 * processor's, {@code F} fp32 lanes ({@link #LANES}), and keeps {@code F}-lane accumulators in
 * arrays: a BFLOAT16 loop reads pairs of elements as ints and puts each pair's even element in
 * one accumulator and its odd one in another (element {@code 2j} and {@code 2j + 1} of a step of
 * {@code 2F} in lane j of each); a FLOAT16 loop reads {@code F} consecutive elements per
 * accumulator. Chunk ends add the accumulators into {@code F / 2} double lanes, and the double lanes
 * are added in order, by the same code the Vector API's loops call ({@link SumOrder#addChunkLanes},
 * {@link SumOrder#addChunkPairs}, {@link SumOrder#sumFirst}). Element-wise results are exact
 * functions of their inputs ({@code fma} in fp32, rounded to nearest even), the same on either path.
 */
final class PlainHalfChunkLoops implements HalfChunkMath {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /**
     * fp32 lanes per vector of the loops followed: the Vector API's preferred species, which its
     * loops use, asked of its smallest class (initializing the float species costs a fresh JVM
     * about 25 ms).
     */
    static final int LANES = VectorShape.preferredShape().vectorBitSize() / Float.SIZE;

    @Override
    public double prelu(DType dtype, MemorySegment x, long xAt, MemorySegment g, long gAt, float w, MemorySegment out,
            long outAt, int n) {
        Scratch scratch = Scratch.get();
        float[] acc = scratch.chunkLanes;
        double[] sums = scratch.lanes;
        int f = LANES;
        boolean bf16 = bf16(dtype);
        Arrays.fill(sums, 0, f / 2, 0.0);
        for (int chunk = 0; chunk < n; chunk += SUM_CHUNK) {
            int end = Math.min(n, chunk + SUM_CHUNK);
            Arrays.fill(acc, 0, 2 * f, 0f);
            // a BFLOAT16 step of 2F: even elements into the first accumulator, odd into the second;
            // FLOAT16 steps of F into one accumulator
            int step = bf16 ? 2 * f : f;
            int stride = bf16 ? 2 : 1;
            for (int e = chunk; e < end; e += step) {
                for (int j = 0; j < f; j++) {
                    acc[j] = preluElement(x, xAt, g, gAt, w, out, outAt, e + stride * j, bf16, acc[j]);
                }
                for (int j = 0; bf16 && j < f; j++) {
                    acc[f + j] = preluElement(x, xAt, g, gAt, w, out, outAt, e + 2 * j + 1, true, acc[f + j]);
                }
            }
            SumOrder.addChunkLanes(sums, acc, bf16 ? 2 : 1, f / 2);
        }
        return SumOrder.sumFirst(sums, f / 2);
    }

    @Override
    public void groupSums(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, long rows, long rowLength,
            long n, MemorySegment sums, long sumsAt) {
        Scratch scratch = Scratch.get();
        float[] acc = scratch.chunkLanes; // sum0, sum1, dot0, dot1: F lanes each
        double[] sumLanes = scratch.lanes;
        double[] dotLanes = scratch.dotLanes;
        int f = LANES;
        boolean bf16 = bf16(dtype);
        for (long r = 0; r < rows; r++) {
            long row = r * rowLength;
            Arrays.fill(sumLanes, 0, f / 2, 0.0);
            Arrays.fill(dotLanes, 0, f / 2, 0.0);
            for (long chunk = 0; chunk < n; chunk += SUM_CHUNK) {
                int len = (int) Math.min(SUM_CHUNK, n - chunk);
                Arrays.fill(acc, 0, 4 * f, 0f);
                // steps of 2F: BFLOAT16's even elements into the first accumulators and odd ones into
                // the second, FLOAT16's first F elements and then the next F
                long start = row + chunk;
                int stride = bf16 ? 2 : 1;
                int second = bf16 ? 1 : f;
                for (int i = 0; i < len; i += 2 * f) {
                    for (int j = 0; j < f; j++) {
                        addPair(a, aAt, b, bAt, start + i + stride * j, bf16, acc, j, f);
                        addPair(a, aAt, b, bAt, start + i + stride * j + second, bf16, acc, f + j, f);
                    }
                }
                SumOrder.addChunkPairs(sumLanes, dotLanes, acc, f / 2);
            }
            sums.set(F64, sumsAt + 16 * r, SumOrder.sumFirst(sumLanes, f / 2));
            sums.set(F64, sumsAt + 16 * r + 8, SumOrder.sumFirst(dotLanes, f / 2));
        }
    }

    @Override
    public void groupNormUpdate(DType dtype, MemorySegment dy, long dyAt, MemorySegment x, long xAt, int rows,
            long rowLength, long n, float[] cdy, float cx, float mean, float k, MemorySegment out, long outAt) {
        boolean bf16 = bf16(dtype);
        for (int r = 0; r < rows; r++) {
            float c = cdy[r];
            for (long e = r * rowLength, end = e + n; e < end; e++) {
                float d = load(dy, dyAt, e, bf16);
                store(out, outAt, e, Math.fma(cx, load(x, xAt, e, bf16) - mean, Math.fma(c, d, k)), bf16);
            }
        }
    }

    /** One PReLU element: writes its gradInput, returns {@code acc} with its term added as the loops add it. */
    private static float preluElement(MemorySegment x, long xAt, MemorySegment g, long gAt, float w,
            MemorySegment out, long outAt, long e, boolean bf16, float acc) {
        float xe = load(x, xAt, e, bf16);
        float ge = load(g, gAt, e, bf16);
        store(out, outAt, e, xe > 0 ? ge : ge * w, bf16);
        return xe > 0 ? acc : Math.fma(xe, ge, acc); // as the loops: a positive x adds nothing, whatever g holds
    }

    /** Element {@code e}'s terms into lane {@code lane} of the sums' accumulators and of the dots' (2F further). */
    private static void addPair(MemorySegment a, long aAt, MemorySegment b, long bAt, long e, boolean bf16,
            float[] acc, int lane, int f) {
        float ae = load(a, aAt, e, bf16);
        acc[lane] += ae;
        acc[2 * f + lane] = Math.fma(ae, load(b, bAt, e, bf16), acc[2 * f + lane]);
    }

    private static boolean bf16(DType dtype) {
        return switch (dtype) {
            case BF16 -> true;
            case FLOAT16 -> false;
            default -> throw new IllegalArgumentException("no 16-bit chunk loops for " + dtype);
        };
    }

    private static float load(MemorySegment s, long at, long e, boolean bf16) {
        short bits = s.get(I16, at + 2 * e);
        return bf16 ? HalfFloats.fromBf16(bits) : HalfFloats.fromHalf(bits);
    }

    private static void store(MemorySegment s, long at, long e, float v, boolean bf16) {
        s.set(I16, at + 2 * e, bf16 ? HalfFloats.toBf16(v) : HalfFloats.toHalf(v));
    }
}
