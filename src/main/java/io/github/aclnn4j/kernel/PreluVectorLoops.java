package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.BlockTranspose.*;
import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * PReLU forward's Vector API loops for {@link VectorDirectMath}, one per dtype; see
 * {@link VectorLanes} for the rules they follow.
 */
final class PreluVectorLoops {
    private PreluVectorLoops() {}

    static void prelu(DType dtype, MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        switch (dtype) {
            case FLOAT -> preluF32(x, xAt, w, out, outAt, n);
            case BF16 -> preluBf16(x, xAt, w, out, outAt, n);
            case FLOAT16 -> preluF16(x, xAt, w, out, outAt, n);
            default -> throw unsupported(dtype);
        }
    }

    private static void preluF32(MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        for (long o = 0, end = 4L * n; o < end; o += F_BYTES) {
            FloatVector xv = FloatVector.fromMemorySegment(F, x, xAt + o, ORDER);
            xv.mul(w).blend(xv, xv.compare(VectorOperators.GT, 0f)).intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    static void preluWeighted(DType dtype, MemorySegment x, long xAt, float[] w, int wAt, MemorySegment out, long outAt,
            int n) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        for (int i = 0; i < n; i += F.length()) {
            FloatVector xv = FloatVector.fromMemorySegment(F, x, xAt + 4L * i, ORDER);
            xv.mul(FloatVector.fromArray(F, w, wAt + i)).blend(xv, xv.compare(VectorOperators.GT, 0f))
                    .intoMemorySegment(out, outAt + 4L * i, ORDER);
        }
    }

    /**
     * A BFLOAT16 pair per int lane: x passes through as its own bits, w·x is rounded to nearest
     * even (NaN kept quiet, as HalfFloats.toBf16 does).
     */
    private static void preluBf16(MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        for (long o = 0, end = 2L * n; o < end; o += F_BYTES) {
            IntVector xp = IntVector.fromMemorySegment(I, x, xAt + o, ORDER);
            FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
            FloatVector f0 = x0.mul(w).blend(x0, x0.compare(VectorOperators.GT, 0f));
            FloatVector f1 = x1.mul(w).blend(x1, x1.compare(VectorOperators.GT, 0f));
            IntVector r0 = f0.reinterpretAsInts();
            IntVector r1 = f1.reinterpretAsInts();
            r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
            r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
            r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outAt + o, ORDER);
        }
    }

    /** FLOAT16 widened and narrowed by the JDK's conversions in runs of NARROW_RUN (see HalfFloats). */
    private static void preluF16(MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        float[] xs = Scratch.get().stageA;
        for (int run = 0; run < n; run += NARROW_RUN) {
            int len = Math.min(NARROW_RUN, n - run);
            HalfFloats.fromHalves(x, xAt + 2L * run, xs, 0, len);
            for (int i = 0; i < len; i += F.length()) {
                FloatVector xv = FloatVector.fromArray(F, xs, i);
                xv.mul(w).blend(xv, xv.compare(VectorOperators.GT, 0f)).intoArray(xs, i);
            }
            HalfFloats.toHalves(xs, 0, out, outAt + 2L * run, len);
        }
    }

    /**
     * FLOAT PReLU forward over a {@code rows × cols} panel of channels-last memory, stored
     * transposed: {@code x} holds rows {@code xRowStride} bytes apart, value j of a row being
     * channel j, with weight {@code w[wAt + j]}; channel j's results land as the run of {@code rows}
     * values at {@code outAt + j·outColStride}. Whole 8×8 blocks are computed in registers and
     * stored by {@link BlockTranspose}'s butterfly, eight channels at a time down all the rows (as
     * {@link BlockTranspose#transposeFloatsBetween} moves them); the last rows and channels one by
     * one, with the same operation.
     */
    static void preluTransposed(DType dtype, MemorySegment x, long xAt, long xRowStride, int rows, int cols, float[] w,
            int wAt, MemorySegment out, long outAt, long outColStride) {
        switch (dtype) {
            case FLOAT -> preluTransposedF32(x, xAt, xRowStride, rows, cols, w, wAt, out, outAt, outColStride);
            case BF16 -> preluTransposedBf16(x, xAt, xRowStride, rows, cols, w, wAt, out, outAt, outColStride);
            default -> throw unsupported(dtype);
        }
    }

    private static void preluTransposedF32(MemorySegment x, long xAt, long xRowStride, int rows, int cols, float[] w,
            int wAt, MemorySegment out, long outAt, long outColStride) {
        x = (MemorySegment) NATIVE.cast(x);
        out = (MemorySegment) NATIVE.cast(out);
        int fullRows = rows - rows % B;
        int fullCols = cols - cols % B;
        for (int c = 0; c < fullCols; c += B) {
            for (int r = 0; r < fullRows; r += B) {
                preluBlockF32(x, xAt + r * xRowStride + 4L * c, xRowStride, w, wAt + c, out,
                        outAt + c * outColStride + 4L * r, outColStride);
            }
            oneByOne(x, xAt, xRowStride, w, wAt, out, outAt, outColStride, fullRows, rows, c, c + B);
        }
        oneByOne(x, xAt, xRowStride, w, wAt, out, outAt, outColStride, 0, rows, fullCols, cols);
    }

    /**
     * {@link #preluTransposed} for BFLOAT16: each group of 2F channels of a pair of rows is loaded as
     * F ints and split into its even and odd channels, as {@link #preluBf16} splits elements, PReLU'd
     * and rounded alike (the same bits); the two rows' results of each channel are packed into one
     * 32-bit value, as they lie side by side in channels-first memory, so that the panel is
     * transposed as floats ({@link BlockTranspose#transposeInto(float[], int, int, int, int,
     * MemorySegment, long, long)}): half the permutes of a 16-bit transpose. The last row of an odd
     * count and the channels past the last group go one by one.
     */
    private static void preluTransposedBf16(MemorySegment x, long xAt, long xRowStride, int rows, int cols, float[] w,
            int wAt, MemorySegment out, long outAt, long outColStride) {
        int group = 2 * F.length();
        int whole = cols - cols % group;
        int pairRows = rows / 2;
        Scratch s = Scratch.get();
        float[] pairs = s.channelPairs(pairRows * cols);
        float[] lanes = s.weights(cols); // the weights in the order a group's vectors hold their channels
        for (int c = 0; c < whole; c++) {
            lanes[laneOf(c, cols)] = w[wAt + c];
        }
        preluPairsBf16(x, xAt, xRowStride, pairRows, cols, whole, lanes, pairs);
        storePairsTransposed(pairs, pairRows, cols, whole, out, outAt, outColStride);
        // called only when there is an edge: the empty ranges of the usual panel sent its compiled
        // loop back to the interpreter (loop predicates) the first time they came
        if (rows % 2 != 0) {
            oneByOneBf16(x, xAt, xRowStride, w, wAt, out, outAt, outColStride, rows - 1, rows, 0, whole);
        }
        if (whole < cols) {
            oneByOneBf16(x, xAt, xRowStride, w, wAt, out, outAt, outColStride, 0, rows, whole, cols);
        }
    }

    /**
     * {@link #preluTransposedBf16}'s pairs of rows, groups {@code [0, whole)} of each: row q of
     * {@code pairs} holds rows 2q and 2q + 1, each group's even channels then its odd ones.
     */
    private static void preluPairsBf16(MemorySegment x, long xAt, long xRowStride, int pairRows, int cols, int whole,
            float[] lanes, float[] pairs) {
        x = (MemorySegment) NATIVE.cast(x);
        for (int c = 0; c < whole; c += 2 * F.length()) {
            FloatVector w0 = FloatVector.fromArray(F, lanes, c);
            FloatVector w1 = FloatVector.fromArray(F, lanes, c + F.length());
            for (int q = 0; q < pairRows; q++) {
                long at = xAt + 2 * q * xRowStride + 2L * c;
                IntVector xp = IntVector.fromMemorySegment(I, x, at, ORDER);
                FloatVector x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                FloatVector x1 = xp.and(HIGH).reinterpretAsFloats();
                FloatVector f0 = x0.mul(w0).blend(x0, x0.compare(VectorOperators.GT, 0f));
                FloatVector f1 = x1.mul(w1).blend(x1, x1.compare(VectorOperators.GT, 0f));
                IntVector r0 = f0.reinterpretAsInts();
                IntVector r1 = f1.reinterpretAsInts();
                r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
                r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
                xp = IntVector.fromMemorySegment(I, x, at + xRowStride, ORDER); // the next row, the same way
                x0 = xp.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
                x1 = xp.and(HIGH).reinterpretAsFloats();
                f0 = x0.mul(w0).blend(x0, x0.compare(VectorOperators.GT, 0f));
                f1 = x1.mul(w1).blend(x1, x1.compare(VectorOperators.GT, 0f));
                IntVector s0 = f0.reinterpretAsInts();
                IntVector s1 = f1.reinterpretAsInts();
                s0 = s0.add(s0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f0.compare(VectorOperators.NE, f0).cast(I));
                s1 = s1.add(s1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                        .blend(0x7FC00000, f1.compare(VectorOperators.NE, f1).cast(I));
                int pair = q * cols + c;
                r0.lanewise(VectorOperators.LSHR, 16).or(s0.and(HIGH)).reinterpretAsFloats().intoArray(pairs, pair);
                r1.lanewise(VectorOperators.LSHR, 16).or(s1.and(HIGH)).reinterpretAsFloats()
                        .intoArray(pairs, pair + F.length());
            }
        }
    }

    /** {@link #preluTransposedBf16}'s rows {@code [r0, r1)} of channels {@code [c0, c1)}, one by one. */
    private static void oneByOneBf16(MemorySegment x, long xAt, long xRowStride, float[] w, int wAt, MemorySegment out,
            long outAt, long outColStride, int r0, int r1, int c0, int c1) {
        for (int c = c0; c < c1; c++) {
            float wc = w[wAt + c];
            for (int r = r0; r < r1; r++) {
                float v = HalfFloats.fromBf16(x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xAt + r * xRowStride + 2L * c));
                float f = v > 0 ? v : wc * v;
                int bits = Float.floatToRawIntBits(f);
                out.set(ValueLayout.JAVA_SHORT_UNALIGNED, outAt + c * outColStride + 2L * r,
                        (short) (f != f ? 0x7FC0 : (bits + ((bits >>> 16) & 1) + 0x7FFF) >>> 16));
            }
        }
    }

    /** {@link #preluTransposed}'s rows {@code [r0, r1)} of channels {@code [c0, c1)}, one by one. */
    private static void oneByOne(MemorySegment x, long xAt, long xRowStride, float[] w, int wAt, MemorySegment out,
            long outAt, long outColStride, int r0, int r1, int c0, int c1) {
        for (int c = c0; c < c1; c++) {
            float wc = w[wAt + c];
            for (int r = r0; r < r1; r++) {
                float v = x.get(ValueLayout.JAVA_FLOAT_UNALIGNED, xAt + r * xRowStride + 4L * c);
                out.set(ValueLayout.JAVA_FLOAT_UNALIGNED, outAt + c * outColStride + 4L * r, v > 0 ? v : wc * v);
            }
        }
    }

    // Generated by tools/kernels/generate_block_transposes.py: do not edit. PReLU on each loaded
    // row, lane j of a row being channel j, then the butterfly of BlockTranspose.
    /**
     * One 8×8 block of FLOATs from memory: PReLU on its rows, then {@link BlockTranspose}'s {@code blockBetweenFloats}.
     */
    private static void preluBlockF32(MemorySegment src, long from, long rowStride, float[] w, int wAt,
            MemorySegment seg, long to, long colStride) {
        src = (MemorySegment) NATIVE.cast(src);
        seg = (MemorySegment) NATIVE.cast(seg);
        FloatVector w8 = FloatVector.fromArray(F8, w, wAt);
        FloatVector x0 = FloatVector.fromMemorySegment(F8, src, from, VectorLanes.ORDER);
        FloatVector r0 = x0.mul(w8).blend(x0, x0.compare(VectorOperators.GT, 0f));
        FloatVector x1 = FloatVector.fromMemorySegment(F8, src, from + rowStride, VectorLanes.ORDER);
        FloatVector r1 = x1.mul(w8).blend(x1, x1.compare(VectorOperators.GT, 0f));
        FloatVector x2 = FloatVector.fromMemorySegment(F8, src, from + 2 * rowStride, VectorLanes.ORDER);
        FloatVector r2 = x2.mul(w8).blend(x2, x2.compare(VectorOperators.GT, 0f));
        FloatVector x3 = FloatVector.fromMemorySegment(F8, src, from + 3 * rowStride, VectorLanes.ORDER);
        FloatVector r3 = x3.mul(w8).blend(x3, x3.compare(VectorOperators.GT, 0f));
        FloatVector x4 = FloatVector.fromMemorySegment(F8, src, from + 4 * rowStride, VectorLanes.ORDER);
        FloatVector r4 = x4.mul(w8).blend(x4, x4.compare(VectorOperators.GT, 0f));
        FloatVector x5 = FloatVector.fromMemorySegment(F8, src, from + 5 * rowStride, VectorLanes.ORDER);
        FloatVector r5 = x5.mul(w8).blend(x5, x5.compare(VectorOperators.GT, 0f));
        FloatVector x6 = FloatVector.fromMemorySegment(F8, src, from + 6 * rowStride, VectorLanes.ORDER);
        FloatVector r6 = x6.mul(w8).blend(x6, x6.compare(VectorOperators.GT, 0f));
        FloatVector x7 = FloatVector.fromMemorySegment(F8, src, from + 7 * rowStride, VectorLanes.ORDER);
        FloatVector r7 = x7.mul(w8).blend(x7, x7.compare(VectorOperators.GT, 0f));
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
}
