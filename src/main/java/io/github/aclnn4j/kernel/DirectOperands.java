package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where a {@link DirectMath} loop finds an operand: a dense view in its own memory; a uniform one
 * (a broadcast single value) as that value repeated in per-thread scratch, a repeating one (a
 * row of at most a block broadcast over the others: a per-column weight) as its block's stretch of
 * that row repeated there, which the loop then reads like any dense run; and where it writes a FLOAT
 * output that is not dense (a scratch run, scattered after). Also decides whether a kernel may use
 * the direct loops at all.
 */
final class DirectOperands {
    private DirectOperands() {}

    /** The direct loops in use, or null when a kernel must use rows. */
    static DirectMath math() {
        return DirectMath.INSTANCE;
    }

    /**
     * Whether a call of {@code family} planned now should take the direct loops for {@code dtype}:
     * they exist for it, and {@link Warmup} finds the family's loops for it compiled (before that,
     * rows in plain Java give the same bits).
     */
    static boolean supported(Warmup.Family family, DType dtype) {
        return !Warmup.cold(family, dtype) && supportedFromTheStart(dtype); // cold first: DirectMath not yet loaded
    }

    /**
     * {@link #supported} for a kernel whose 16-bit direct loops add a sum in fp32 chunks of their own
     * (GroupNorm backward, PReLU backward): a 16-bit call is planned the same way warm or cold, so
     * that its bits do not depend on when it was planned, and while cold runs plain Java that adds
     * in the loops' order ({@link #halfChunkMath}).
     */
    static boolean supportedWithOwnHalfSums(Warmup.Family family, DType dtype) {
        // asked without loading the Vector API's loops, which a cold call does not run; they exist
        // where their steps of two vectors divide the loops' step (see VectorDirectMath)
        return dtype == DType.FLOAT ? supported(family, dtype)
                : Warmup.vectors() && (dtype == DType.BF16 || dtype == DType.FLOAT16)
                        && DirectMath.STEP % (2 * PlainHalfChunkLoops.LANES) == 0;
    }

    /**
     * The {@link HalfChunkMath} loops a direct call of a kernel planned with
     * {@link #supportedWithOwnHalfSums} takes now: for FLOAT {@link #math()} (planned direct only
     * when warm); for the 16-bit types the Vector API's once the operator's loops are warm, before
     * that plain Java with the same bits.
     */
    static HalfChunkMath halfChunkMath(DType dtype) {
        if (dtype == DType.FLOAT) {
            return math();
        }
        HalfChunkMath loops = HalfChunkPaths.PATHS[Warmup.coldIndex()]; // an index, not a branch (see Warmup#coldIndex)
        return loops != null ? loops : HalfChunkPaths.warm();
    }

    /**
     * [0]: the Vector API's loops, loaded by the first warm call (their classes take a cold call
     * about 110 ms to initialize); [1]: plain Java following them.
     */
    private static final class HalfChunkPaths {
        static final HalfChunkMath[] PATHS = {null, new PlainHalfChunkLoops()};

        /** The Vector API's loops, or where they cannot load after all, the plain ones (same bits). */
        static HalfChunkMath warm() {
            HalfChunkMath loops = math() != null ? math() : PATHS[1];
            PATHS[0] = loops;
            return loops;
        }
    }

    /** Whether direct loops exist for {@code dtype}, cold or not. */
    private static boolean supportedFromTheStart(DType dtype) {
        return DirectMath.INSTANCE != null && DirectMath.INSTANCE.supports(dtype);
    }

    /** {@code v} is dense in native memory and of {@code dtype}. */
    static boolean dense(StridedView v, DType dtype) {
        return v.dtype() == dtype && denseNative(v);
    }

    /** Whether dense native views {@code a} and {@code b}, of one dtype and size, share no byte of memory. */
    static boolean disjoint(StridedView a, StridedView b) {
        long bytes = a.numel() * a.dtype().byteSize;
        long from = a.segment().address() + a.denseOffset(0);
        long to = b.segment().address() + b.denseOffset(0);
        return from >= to + bytes || to >= from + bytes;
    }

    /** {@code v} is absent, dense in native memory, uniform or {@linkplain #period repeating}, and of {@code dtype}. */
    static boolean denseOrRepeating(StridedView v, DType dtype) {
        return v == null || (v.dtype() == dtype && (denseNative(v) || v.isUniform() || period(v) > 0));
    }

    /**
     * The length of the row {@code v} repeats (logical element i is element {@code i mod period}),
     * when that row is short enough to fill a block's run from: at most {@link Blocks#SIZE}; else -1.
     */
    private static int period(StridedView v) {
        long row = v.repeatedRunLength();
        return row > 0 && row <= Blocks.SIZE ? (int) row : -1;
    }

    /**
     * The direct loops read and write native memory only (they tell the JIT so, see
     * VectorLanes): a tensor over a Java array, which host memory may be, goes through rows.
     */
    private static boolean denseNative(StridedView v) {
        return v.isDense() && v.segment().isNative();
    }

    /** {@code v} is absent, uniform or {@linkplain #period repeating}, and of {@code dtype}. */
    static boolean absentUniformOrRepeating(StridedView v, DType dtype) {
        return v == null || (v.dtype() == dtype && (v.isUniform() || period(v) > 0));
    }

    /** {@code v} is absent or uniform, and of {@code dtype}. */
    static boolean absentOrUniform(StridedView v, DType dtype) {
        return v == null || (v.dtype() == dtype && v.isUniform());
    }

    /**
     * Memory holding view {@code v}'s elements from {@code start} for {@code n} (at most a block)
     * elements as FLOAT; read it from {@link #offset}. A dense FLOAT view is read in place; an absent
     * view reads as ones, a uniform one of any dtype as its value widened and repeated, and a
     * repeating FLOAT one as its row from {@code start}'s place in it, in the scratch run that
     * {@code slot} (0 to 3) picks.
     */
    static MemorySegment segment(StridedView v, int slot, long start, int n) {
        if (inPlace(v)) {
            return v.segment();
        }
        int period = v == null || v.isUniform() ? -1 : period(v);
        return period > 0 ? repeating(v, period, slot, start, n) : repeated(v, slot, n);
    }

    /**
     * Where a direct loop writes elements {@code [start, start + n)} of FLOAT output {@code out}
     * (at {@link #offset}): in place when dense, else a scratch run that {@link #flush} then
     * scatters.
     */
    static MemorySegment output(StridedView out) {
        return inPlace(out) ? out.segment() : Scratch.get().outputRun;
    }

    /** Scatters what a direct loop wrote to {@link #output}'s scratch run, if it wrote there. */
    static void flush(StridedView out, long start, int n) {
        if (!inPlace(out)) {
            Scratch s = Scratch.get();
            scatterRun(s.outputRun, s.e, out, start, n);
        }
    }

    /**
     * The first {@code n} floats of {@code run} (a direct loop's output, staged off-heap) stored
     * into logical elements {@code [start, start + n)} of {@code out}, through {@code through}.
     */
    static void scatterRun(MemorySegment run, float[] through, StridedView out, long start, int n) {
        MemorySegment.copy(run, ValueLayout.JAVA_FLOAT, 0, through, 0, n);
        out.scatter(start, through, n);
    }

    /** The byte offset that goes with {@link #segment}. */
    static long offset(StridedView v, long start) {
        return inPlace(v) ? v.denseOffset(start) : 0;
    }

    private static boolean inPlace(StridedView v) {
        return v != null && v.dtype() == DType.FLOAT && denseNative(v);
    }

    /**
     * Elements {@code [start, start + n)} of FLOAT view {@code v}, which repeats its first
     * {@code period} elements: one period from {@code start}'s phase, then doubled up (a multiple of
     * the period at every step, so the phase holds).
     */
    private static MemorySegment repeating(StridedView v, int period, int slot, long start, int n) {
        Scratch s = Scratch.get();
        MemorySegment run = s.repeated[slot];
        float[] row = s.period;
        v.gather(0, row, period);
        int phase = (int) (start % period);
        int first = Math.min(period - phase, n);
        ArrayCopies.store(row, phase, run, 0, first);
        ArrayCopies.store(row, 0, run, 4L * first, Math.min(phase, n - first));
        for (long filled = Math.min(period, n), total = n; filled < total; filled *= 2) {
            MemorySegment.copy(run, 0, run, 4 * filled, 4 * Math.min(filled, total - filled));
        }
        return run;
    }

    private static MemorySegment repeated(StridedView v, int slot, int n) {
        Scratch s = Scratch.get();
        if (v == null) {
            return s.ones32;
        }
        MemorySegment run = s.repeated[slot];
        if (v.dtype() == DType.FLOAT) {
            v.repeatFirstInto(run, n);
        } else if (n > 0) { // the value widened once, then doubled up like repeatFirstInto's bytes
            run.set(ValueLayout.JAVA_FLOAT, 0, v.get(0));
            for (long filled = Float.BYTES, bytes = (long) n * Float.BYTES; filled < bytes; filled *= 2) {
                MemorySegment.copy(run, 0, run, filled, Math.min(filled, bytes - filled));
            }
        }
        return run;
    }

}
