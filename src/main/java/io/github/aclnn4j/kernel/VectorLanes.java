package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * What the Vector API loops of the direct kernels share: their species, the class of native
 * segments they cast to, and the helpers that move fp32 chunk sums into double lanes. The loops
 * themselves live with their operator ({@link BceBackwardVectorLoops},
 * {@link BceWithLogitsVectorLoops}, {@link PreluBackwardVectorLoops},
 * {@link GroupNormBackwardVectorLoops}), one static method per operation and dtype, behind
 * {@link VectorDirectMath}; the rules below hold for all of them.
 *
 * <p>BFLOAT16 is widened and narrowed in registers. Most loops load it as ints, two elements per
 * lane, and split them into the even elements (the low halves) and the odd ones (the high halves):
 * widening is a shift or a mask, narrowing integer rounding, with no lane shuffles, and
 * element-wise math does not mind that a vector holds every other element, as all operands of a
 * loop are split alike (sums add in another fixed order). BCE with logits, whose softplus values
 * come from a table lookup in element order, instead widens a short vector with as many lanes as
 * the float vector.
 *
 * <p>FLOAT16, which the Vector API cannot convert, is converted by plain loops that C2 compiles to
 * the processor's conversion instructions (F16C, AVX-512): it vectorizes them from a memory segment
 * into an array and back, not from segment to segment. Element-wise work (BCE backward, GroupNorm's
 * update) happens inside such a loop, which widens, computes and stores into a per-thread float run
 * in one pass, and {@link HalfFloats} narrows the run into the output. Loops that also sum (PReLU,
 * GroupNorm's sums, BCE with logits) first widen their operands into float runs of
 * {@link Scratch#STAGE} elements, two operands per loop, and do the vector math on the runs, as C2
 * does not vectorize ordered fp32 sums. Converting in registers with integer and float arithmetic
 * took about ten vector operations per vector each way: on an AVX2 machine (Zen 3) FLOAT16 BCE
 * backward took 11.5 ms that way, 6.2 ms staged and 4.3 ms in one loop; GroupNorm backward 7.5, 3.2
 * and 2.8 ms. Only BCE with logits' gathering loop widens in registers, as it waits on its gathers
 * anyway (see {@code BceWithLogitsVectorLoops.bceWithLogitsF16Gathered}). All ways are exact and round to nearest even;
 * these convert exactly as the rows do ({@code Float.float16ToFloat}, {@code Float.floatToFloat16}).
 * No vector lives across a conversion call: sums carried from run to run wait in a scratch array
 * (see {@link SumOrder#addChunkLanes}).
 *
 * <p>The JIT shapes this code. C2 turns a loop into plain vector instructions only while every
 * vector operation in it is inlined and intrinsified; a vector that crosses a call that was not
 * inlined, or a loop that runs deoptimized or was compiled past C2's node limits, is boxed, which
 * costs far more than the math. So every loop spells out its math with API calls only (a method
 * stops inlining its own helpers once its graph is large), loops do not branch on a mode (a branch
 * first taken late sends the loop back to unoptimized code for seconds), and loop bodies stay
 * small: in a JVM that had run every workload, an even/odd FLOAT16 PReLU loop converting in
 * registers, twice the code, was compiled so that it boxed (348 MB per call). Lane sums go through
 * an array, as {@code lane(i)} in a loop is not compiled to an extraction. FLOAT loops with double
 * math use {@link #FD} lanes, so that every float-double conversion is lane for lane; the others
 * run at full width, and the 16-bit ones sum in fp32 chunks that are widened once.
 *
 * <p>Every loop first casts the segments it reads or writes to {@link #NATIVE}, the class of native
 * segments (the FLOAT16 drivers cast the output they hand to {@link HalfFloats#toHalves}, which
 * C2 may inline there and which rows also call with heap segments). Until C2 has compiled a loop,
 * the Vector API runs it as plain Java, which reinterprets a vector ({@code reinterpretAsInts},
 * {@code reinterpretAsFloats}: every 16-bit loop, and exp) by storing it into a segment over a
 * byte array. From then on the JDK's memory-access code, which
 * every caller shares, has heap segments in its type profile, and C2 compiles a loop over a
 * segment of unknown class for both kinds: as a store might then write into a Java object, the
 * segment's size, liveness and read-only flag are loaded and checked at every vector step (about
 * sixty scalar instructions per step, seen in C2's code). Once the class is known, C2 resolves
 * each access without the profile and checks once. Fresh JVMs, one workload each (AVX2): PReLU
 * backward BFLOAT16 4.6 → 3.5 ms, BCE backward BFLOAT16 5.5 → 4.2 ms, the other workloads within
 * noise; GroupNorm backward FLOAT after BFLOAT16 PReLU in the same JVM 8.5 → 4.6 ms (the slow
 * long-run compile of the earlier notes). {@link DirectOperands} keeps tensors in Java arrays away.
 *
 * <p>BCE with logits' FLOAT loops read and write through slices of exactly the elements they
 * cover, counted with int indices: C2 knows the slices' bounds and drops the per-access checks,
 * and, as each loop is a method of its own called from a small driver, escape analysis removes the
 * slices (with offsets instead: 12.6 against 11.2 ms for 2^24 elements in {@code bench ab}). The
 * other loops take offsets into the segments they are given. Their slices, from before the casts,
 * gained nothing once the class was known (GroupNorm backward BFLOAT16 2.00 against 1.97 ms, FLOAT
 * 4.16 against 4.33, PReLU backward FLOAT 5.48 against 5.90), and where C2 inlined such a loop into
 * a kernel's task it left {@code asSlice} out of line and allocated them, on every call: 7.7 KB per
 * PReLU backward FLOAT call of 2^18 elements, 640 bytes per GroupNorm call
 * ({@code robust/PhaseTwoAllocationTest}, counting every thread).
 */
final class VectorLanes {
    static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    static final VectorSpecies<Integer> I = F.withLanes(int.class);
    static final VectorSpecies<Float> FD = VectorBulkMath.FD;
    static final VectorSpecies<Double> D = VectorBulkMath.D;
    static final ByteOrder ORDER = ByteOrder.nativeOrder();
    static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    /** Shorts as many as {@link #F}'s lanes, for widening 16-bit values lane for lane. */
    static final VectorSpecies<Short> S = VectorSpecies.of(short.class,
            VectorShape.forBitSize(F.vectorBitSize() / 2));
    static final long F_BYTES = (long) F.length() * Float.BYTES;
    static final long FD_BYTES = (long) FD.length() * Float.BYTES;
    /** Most elements an int-counted loop covers, a multiple of every step and chunk. */
    static final long PIECE = 1 << 20;
    static final int HIGH = 0xFFFF0000;
    static final int STAGE = Scratch.STAGE;
    /**
     * Elements per run of the FLOAT16 loops whose run is narrowed into an output afterwards, where
     * the narrowing is a burst of stores of its own: shorter bursts overlap better with the next
     * run's loads. Sapphire Rapids, bench ab in both orders: BCE with logits none 5.65 -> 5.00 and
     * 5.71 -> 5.18 ms, PReLU backward 3.54 -> 3.34 and 3.63 -> 3.26 (its fp32 chunk sums still span
     * {@link #SUM_CHUNK}, carried from run to run, so the same bits). BCE with logits' reductions
     * (and BFLOAT16, which stores inside its loop) keep runs of {@link #STAGE}, 9-13% slower with
     * 512; so do BCE backward and GroupNorm's update, slower with 512 in both orders (BCE backward
     * 3.55 -> 3.90 and 3.39 -> 3.84 ms, GroupNorm 1.78 -> 1.87 and 1.77 -> 1.83).
     */
    static final int NARROW_RUN = 512;
    /** The class of native segments, which every loop casts its segments to: see above. */
    static final Class<?> NATIVE = MemorySegment.NULL.getClass();

    /**
     * Elements per fp32 chunk of the 16-bit sums (PReLU, GroupNorm): 64 terms per lane with 512-bit
     * vectors, up to 256 with 256-bit ones, so a chunk's fp32 sum errs by at most about 2^-18 to 2^-16
     * of its terms' magnitude before it is added in double. At most {@link #STAGE}: the FLOAT16 loops
     * widen a chunk at a time.
     */
    static final int SUM_CHUNK = 2048;

    private VectorLanes() {}

    /**
     * Where channel c of a row of {@code channels} lies once the 16-bit channels-last loops have
     * read it (PReLU's, forward and backward): each group of 2F channels is loaded as F ints and split
     * into its even channels (the low halves) and its odd ones (the high halves), as the dense loops
     * split elements; channels past the last whole group stay in order.
     */
    static int laneOf(int c, int channels) {
        int group = 2 * F.length();
        if (c >= channels - channels % group) {
            return c;
        }
        int within = c % group;
        return c - within + (within % 2 == 0 ? within / 2 : F.length() + within / 2);
    }

    /**
     * A tile of paired 16-bit values stored transposed: row q of {@code pairs} (rows {@code stride}
     * floats apart) holds positions 2q and 2q + 1 of each channel of the groups {@code [0, whole)}, in
     * {@link #laneOf} order, as one 32-bit value; channel c's run of {@code 2·pairRows} values lands at
     * {@code outAt + c·colStride}. Transposed as floats, so half the permutes of a 16-bit transpose.
     */
    static void storePairsTransposed(float[] pairs, int pairRows, int stride, int whole, MemorySegment out,
            long outAt, long colStride) {
        for (int c = 0; c < whole; c += 2 * F.length()) { // a group's even channels, then its odd ones
            long at = outAt + c * colStride;
            BlockTranspose.transposeInto(pairs, c, pairRows, F.length(), stride, out, at, 2 * colStride);
            BlockTranspose.transposeInto(pairs, c + F.length(), pairRows, F.length(), stride, out, at + colStride,
                    2 * colStride);
        }
    }

    static IllegalArgumentException unsupported(DType dtype) {
        return new IllegalArgumentException("no direct loop for " + dtype);
    }

    /**
     * FLOAT16 {@code a} and {@code b} from their byte offsets widened into {@code as[0, n)} and
     * {@code bs[0, n)} in one loop, which C2 vectorizes as it does {@link HalfFloats#fromHalves}:
     * both streams in flight at once, one loop's overhead instead of two (bench ab: GroupNorm
     * backward 2.86 → 2.55 ms, PReLU backward 5.49 → 5.17, BCE with logits 17.8 → 17.0).
     */
    static void widenPair(MemorySegment a, long aAt, MemorySegment b, long bAt, float[] as, float[] bs, int n) {
        a = (MemorySegment) NATIVE.cast(a);
        b = (MemorySegment) NATIVE.cast(b);
        for (int i = 0; i < n; i++) {
            as[i] = Float.float16ToFloat(a.get(ValueLayout.JAVA_SHORT_UNALIGNED, aAt + 2L * i));
            bs[i] = Float.float16ToFloat(b.get(ValueLayout.JAVA_SHORT_UNALIGNED, bAt + 2L * i));
        }
    }
}
