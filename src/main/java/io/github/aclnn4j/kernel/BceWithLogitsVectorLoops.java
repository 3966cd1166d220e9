package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;

/**
 * BCE with logits' Vector API loops for {@link VectorDirectMath}: FLOAT computes exp and log1p
 * in two loops per run, the 16-bit types look their softplus up in {@link SoftplusTable}; see
 * {@link VectorLanes} for the rules they follow.
 */
final class BceWithLogitsVectorLoops {
    private static final float LOG2E = Fp32Math.LOG2E;
    private static final float LN2_HI = Fp32Math.LN2_HI;
    private static final float LN2_LO = Fp32Math.LN2_LO;
    private static final int LOSS_CHUNK = VectorBulkMath.LOSS_CHUNK;
    private static final int EXP_RUN = VectorBulkMath.EXP_RUN;
    /** Whether SumOrder's lanes fit one vector (512 bits) or take two halves (256). */
    private static final boolean WIDE = VectorBulkMath.WIDE;

    private BceWithLogitsVectorLoops() {}

    static double bceWithLogits(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, MemorySegment w,
            long wAt, MemorySegment pw, long pwAt, MemorySegment out, long outAt, int n, boolean gather) {
        return switch (dtype) {
            case FLOAT -> bceWithLogitsF32(x, xAt, y, yAt, w, wAt, pw, pwAt, out, outAt, n);
            case BF16 -> bceWithLogitsBf16Weighted(x, xAt, y, yAt, w, wAt, pw, pwAt, out, outAt, n, gather);
            case FLOAT16 -> bceWithLogitsF16Weighted(x, xAt, y, yAt, w, wAt, pw, pwAt, out, outAt, n, gather);
            default -> throw unsupported(dtype);
        };
    }

    static double bceWithLogitsUniform(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, float w,
            float pw, MemorySegment out, long outAt, int n, boolean gather) {
        return switch (dtype) {
            case BF16 -> bceWithLogitsBf16(x, xAt, y, yAt, w, pw, out, outAt, n, gather);
            case FLOAT16 -> bceWithLogitsF16(x, xAt, y, yAt, w, pw, out, outAt, n, gather);
            default -> throw unsupported(dtype);
        };
    }

    // FLOAT, per EXP_RUN elements: one method computes exp(−|x|) into scratch and a second the rest,
    // as VectorBulkMath#bceLosses does (see there for why two loops); the 16-bit types look the
    // softplus up instead (see bceWithLogitsBf16). The losses add in SumOrder#chunkedSum's order, at
    // either width (runs are whole chunks; n is a multiple of DirectMath.STEP, so there is no tail),
    // and the double lanes of the sum wait in scratch between runs. Each loop is a method of its own
    // so that its slices stay free (see VectorLanes), and the chunk sums never cross a call. Each loss method stores and sums every loss without a
    // mode branch: a loop that mixed dtypes or modes was compiled, once all its branches had been
    // profiled, into code that boxed its vectors (measured: 2 s instead of 9 ms for 2^24 elements).
    // Its one branch, moving a LOSS_CHUNK's fp32 sums into double, is taken at the last vector of
    // every call, so no call finds it unprofiled. A reduction's losses go to scratch through the
    // same loop methods as the stored ones: a BFLOAT16 loop that only summed was 19% faster for
    // mean, but a program that switched from mean to none then ran the store loop cold, interpreted
    // and C1-compiled with boxed vectors, for most of a second (1.3 MB per call over its first
    // thousand 512x512 calls, PhaseTwoAllocationTest).

    /**
     * Where in {@code sink} a reduction's run of losses goes: at the address x has modulo 4 KB, as
     * an output tensor aligned like the inputs would be. A store stream that runs a little ahead of
     * a load stream in its low twelve address bits makes the loads wait on the stores (4K
     * aliasing), and with the sink's start fixed that depended on where malloc had put it: bench ab
     * BCE with logits FLOAT mean 7.40 -> 6.94 ms and 6.95 -> 6.76 (both orders), BFLOAT16 mean in
     * fresh JVMs 4 of 5 at 6.3-6.5 ms (2 of 5 before, the others 7.3-8.0). At most 4 KB + 4 KB of
     * the sink's 16 KB.
     */
    private static long sinkOffset(MemorySegment sink, MemorySegment x, long xAt) {
        return (x.address() + xAt - sink.address()) & 4095;
    }

    private static double bceWithLogitsF32(MemorySegment x, long xAt, MemorySegment y, long yAt, MemorySegment w,
            long wAt, MemorySegment pw, long pwAt, MemorySegment out, long outAt, int n) {
        Scratch scratch = Scratch.get();
        MemorySegment exps = scratch.expRun;
        double[] lanes = scratch.lanes;
        Arrays.fill(lanes, 0, SumOrder.LANES, 0.0);
        MemorySegment losses = out == null ? scratch.sink : out;
        for (int run = 0; run < n; run += EXP_RUN) {
            int len = Math.min(EXP_RUN, n - run);
            long at = 4L * run;
            bceWithLogitsF32Exps(x, xAt + at, exps, len);
            bceWithLogitsF32Losses(x, xAt + at, y, yAt + at, w, wAt + at, pw, pwAt + at, exps, losses,
                    out == null ? sinkOffset(losses, x, xAt + at) : outAt + at, len, lanes);
        }
        return SumOrder.sumLanes(lanes);
    }

    private static void bceWithLogitsF32Exps(MemorySegment x, long xAt, MemorySegment exps, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        exps = (MemorySegment) NATIVE.cast(exps);
        MemorySegment xs = x.asSlice(xAt, 4L * n); // slices: see VectorLanes
        MemorySegment es = exps.asSlice(0, 4L * n);
        for (int j = 0; j < n; j += F.length()) {
            FloatVector xv = FloatVector.fromMemorySegment(F, xs, 4L * j, ORDER);
            // exp(−|x|) exactly as VectorBulkMath#bceLosses computes it (see there)
            FloatVector ax = xv.abs();
            FloatVector a = ax.blend(104f, ax.compare(VectorOperators.GT, 104f)); // min(|x|, 104), NaN kept
            IntVector k = (IntVector) a.fma(LOG2E, 0.5f).convertShape(VectorOperators.F2I, I, 0);
            FloatVector kf = (FloatVector) k.convertShape(VectorOperators.I2F, F, 0);
            FloatVector r = kf.fma(FloatVector.broadcast(F, -LN2_HI), a);
            FloatVector u = kf.fma(FloatVector.broadcast(F, -LN2_LO), r);
            FloatVector p = u.fma(-1f / 5040, 1f / 720).fma(u, FloatVector.broadcast(F, -1f / 120))
                    .fma(u, FloatVector.broadcast(F, 1f / 24)).fma(u, FloatVector.broadcast(F, -1f / 6))
                    .fma(u, FloatVector.broadcast(F, 0.5f)).fma(u, FloatVector.broadcast(F, -1f))
                    .fma(u, FloatVector.broadcast(F, 1f));
            p.mul(IntVector.broadcast(I, 152).sub(k).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(0x1p-25f)
                    .intoMemorySegment(es, 4L * j, ORDER);
        }
    }

    private static void bceWithLogitsF32Losses(MemorySegment x, long xAt, MemorySegment y, long yAt, MemorySegment w,
            long wAt, MemorySegment pw, long pwAt, MemorySegment exps, MemorySegment out, long outAt, int n,
            double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        w = (MemorySegment) NATIVE.cast(w);
        pw = (MemorySegment) NATIVE.cast(pw);
        exps = (MemorySegment) NATIVE.cast(exps);
        out = (MemorySegment) NATIVE.cast(out);
        MemorySegment xs = x.asSlice(xAt, 4L * n); // slices: see VectorLanes
        MemorySegment ys = y.asSlice(yAt, 4L * n);
        MemorySegment ws = w.asSlice(wAt, 4L * n);
        MemorySegment pws = pw.asSlice(pwAt, 4L * n);
        MemorySegment es = exps.asSlice(0, 4L * n);
        MemorySegment outs = out.asSlice(outAt, 4L * n);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        for (int j = 0; j < n; j += F.length()) {
            FloatVector xv = FloatVector.fromMemorySegment(F, xs, 4L * j, ORDER);
            FloatVector yv = FloatVector.fromMemorySegment(F, ys, 4L * j, ORDER);
            FloatVector e = FloatVector.fromMemorySegment(F, es, 4L * j, ORDER);
            // log1p(e) and the loss exactly as VectorBulkMath#bceLosses computes them (see there)
            FloatVector s = e.div(e.add(2f));
            FloatVector s2 = s.mul(s);
            FloatVector softplus = s2.fma(2 * (1f / 15), 2 * (1f / 13))
                    .fma(s2, FloatVector.broadcast(F, 2 * (1f / 11))).fma(s2, FloatVector.broadcast(F, 2 * (1f / 9)))
                    .fma(s2, FloatVector.broadcast(F, 2 * (1f / 7)))
                    .fma(s2, FloatVector.broadcast(F, 2 * (1f / 5))).fma(s2, FloatVector.broadcast(F, 2 * (1f / 3)))
                    .fma(s2, FloatVector.broadcast(F, 2f)).mul(s);
            FloatVector pv = FloatVector.fromMemorySegment(F, pws, 4L * j, ORDER);
            FloatVector lw = pv.sub(1f).fma(yv, FloatVector.broadcast(F, 1f));
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(pv.mul(yv).neg(), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector loss = c.fma(xv, lw.mul(softplus)).mul(FloatVector.fromMemorySegment(F, ws, 4L * j, ORDER));
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            loss.intoMemorySegment(outs, 4L * j, ORDER);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    /**
     * BFLOAT16 here and FLOAT16 in {@link #bceWithLogitsF16}, whose weights are single values: each
     * element's softplus comes from {@link SoftplusTable} (the row loop's bits). Where gathers are
     * fast ({@link Gathers}) the loss loop gathers them itself, from indices it stores into a run
     * (the Vector API gathers through an index array): on Sapphire Rapids, one thread, 0.32 ns per
     * element against 0.50 for the plain loop of loads below and a loss loop that reads its results.
     * Elsewhere that plain loop looks them up per run first: on Zen 3 (AVX2, one thread, data in
     * L1) about 9 cycles per 8 elements where exp and log1p took 37 in two loops, and a gather 12.
     * FLOAT16 widens x and y into float runs first (see {@link VectorLanes}), or in registers where it
     * gathers, and narrows the losses from a run; BFLOAT16 converts in registers.
     */
    private static double bceWithLogitsBf16(MemorySegment x, long xAt, MemorySegment y, long yAt, float w, float pw,
            MemorySegment out, long outAt, int n, boolean gather) {
        float[] table = SoftplusTable.bf16(); // first: building it uses this thread's scratch
        Scratch scratch = Scratch.get();
        float[] softplus = scratch.softplus;
        double[] lanes = scratch.lanes;
        Arrays.fill(lanes, 0, SumOrder.LANES, 0.0);
        MemorySegment losses = out == null ? scratch.sink : out;
        for (int run = 0; run < n; run += STAGE) {
            int len = Math.min(STAGE, n - run);
            long at = 2L * run;
            long lossesAt = out == null ? sinkOffset(losses, x, xAt + at) : outAt + at;
            if (gather) {
                bceWithLogitsBf16Gathered(table, scratch.indices, x, xAt + at, y, yAt + at, w, pw, losses, lossesAt,
                        len, lanes);
            } else {
                softplusLookup(table, x, xAt + at, softplus, len);
                bceWithLogitsBf16Losses(x, xAt + at, y, yAt + at, w, pw, softplus, losses, lossesAt, len, lanes);
            }
        }
        return SumOrder.sumLanes(lanes);
    }

    private static double bceWithLogitsF16(MemorySegment x, long xAt, MemorySegment y, long yAt, float w, float pw,
            MemorySegment out, long outAt, int n, boolean gather) {
        float[] table = SoftplusTable.float16(); // first: building it uses this thread's scratch
        Scratch scratch = Scratch.get();
        float[] softplus = scratch.softplus;
        double[] lanes = scratch.lanes;
        Arrays.fill(lanes, 0, SumOrder.LANES, 0.0);
        int runLength = out == null ? STAGE : NARROW_RUN; // a multiple of LOSS_CHUNK: the same sum
        for (int run = 0; run < n; run += runLength) {
            int len = Math.min(runLength, n - run);
            long at = 2L * run;
            if (gather) {
                bceWithLogitsF16Gathered(table, scratch.indices, x, xAt + at, y, yAt + at, w, pw, scratch.stageA, len,
                        lanes);
            } else {
                widenPair(x, xAt + at, y, yAt + at, scratch.stageA, scratch.stageB, len);
                softplusLookup(table, x, xAt + at, softplus, len);
                bceWithLogitsF16Losses(scratch.stageA, scratch.stageB, w, pw, softplus, len, lanes);
            }
            if (out != null) {
                storeHalves(scratch.stageA, out, outAt + at, len);
            }
        }
        return SumOrder.sumLanes(lanes);
    }

    /**
     * {@code src[0, n)} narrowed to FLOAT16 at byte {@code outAt} of {@code out}, in a loop of its
     * own. With {@link HalfFloats#toHalves} instead, this driver was compiled with the narrowing
     * inlined and a call and liveness checks per element: FLOAT16 BCE
     * with logits took 40 to 60 ms for 2^24 elements instead of 9, in one JVM in two after BFLOAT16
     * ran first and in every JVM once the FLOAT16 driver was a method of its own. The other FLOAT16
     * loops keep {@code toHalves}, 5 to 10% faster there and never seen slow.
     */
    private static void storeHalves(float[] src, MemorySegment out, long outAt, int n) {
        out = (MemorySegment) NATIVE.cast(out);
        for (int i = 0; i < n; i++) {
            out.set(ValueLayout.JAVA_SHORT_UNALIGNED, outAt + 2L * i, Float.floatToFloat16(src[i]));
        }
    }

    /** {@code softplus[j] = table[x[j] & 0x7FFF]} for the 16-bit values x from byte {@code xAt}. */
    private static void softplusLookup(float[] table, MemorySegment x, long xAt, float[] softplus, int n) {
        x = (MemorySegment) NATIVE.cast(x);
        for (int j = 0; j < n; j++) {
            softplus[j] = table[x.get(ValueLayout.JAVA_SHORT_UNALIGNED, xAt + 2L * j) & 0x7FFF];
        }
    }

    private static void bceWithLogitsBf16Losses(MemorySegment x, long xAt, MemorySegment y, long yAt, float w, float pw,
            float[] softplus, MemorySegment out, long outAt, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        out = (MemorySegment) NATIVE.cast(out);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        float pwLess1 = pw - 1f;
        float negPw = -pw;
        for (int j = 0; j < n; j += F.length()) {
            FloatVector xv = ((IntVector) ShortVector.fromMemorySegment(S, x, xAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            FloatVector yv = ((IntVector) ShortVector.fromMemorySegment(S, y, yAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            // the loss as VectorBulkMath#bceLosses computes it (see there), with single weights
            FloatVector lw = yv.fma(pwLess1, 1f);
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(negPw), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, softplus, j))).mul(w);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            IntVector lb = loss.reinterpretAsInts(); // nearest even, NaN (self-compare: 2% here) as 0x7FC0
            IntVector bits = lb.add(lb.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, loss.compare(VectorOperators.NE, loss).cast(I))
                    .lanewise(VectorOperators.LSHR, 16);
            ((ShortVector) bits.convertShape(VectorOperators.I2S, S, 0))
                    .intoMemorySegment(out, outAt + 2L * j, ORDER);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    /**
     * As {@link #bceWithLogitsBf16Losses}, each vector's softplus gathered from {@code table} at the
     * indices {@code x & 0x7FFF}, which go through {@code indices} (the Vector API gathers through an
     * index array).
     */
    private static void bceWithLogitsBf16Gathered(float[] table, int[] indices, MemorySegment x, long xAt,
            MemorySegment y, long yAt, float w, float pw, MemorySegment out, long outAt, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        out = (MemorySegment) NATIVE.cast(out);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        float pwLess1 = pw - 1f;
        float negPw = -pw;
        for (int j = 0; j < n; j += F.length()) {
            IntVector xi = (IntVector) ShortVector.fromMemorySegment(S, x, xAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0);
            xi.and(0x7FFF).intoArray(indices, j);
            FloatVector xv = xi.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector yv = ((IntVector) ShortVector.fromMemorySegment(S, y, yAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            FloatVector lw = yv.fma(pwLess1, 1f);
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(negPw), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, table, 0, indices, j))).mul(w);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            IntVector lb = loss.reinterpretAsInts(); // as in bceWithLogitsBf16Losses
            IntVector bits = lb.add(lb.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, loss.compare(VectorOperators.NE, loss).cast(I))
                    .lanewise(VectorOperators.LSHR, 16);
            ((ShortVector) bits.convertShape(VectorOperators.I2S, S, 0))
                    .intoMemorySegment(out, outAt + 2L * j, ORDER);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    /**
     * As {@link #bceWithLogitsBf16Gathered} for FLOAT16 x and y, the losses stored into
     * {@code losses} for {@link #storeHalves}. The gather keeps this loop busy enough that widening
     * in registers beats the staged {@link VectorLanes#widenPair}: one thread, Sapphire Rapids, 0.41 against
     * 0.50 ns per element without storing the losses. Widening is exact, as
     * {@code Float.float16ToFloat}: the magnitude's bits moved into a float's place scaled by 2^112
     * (exact for normal and subnormal values alike), infinity and NaN (quieted, payload kept) patched
     * in, the sign put back.
     */
    private static void bceWithLogitsF16Gathered(float[] table, int[] indices, MemorySegment x, long xAt,
            MemorySegment y, long yAt, float w, float pw, float[] losses, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        float pwLess1 = pw - 1f;
        float negPw = -pw;
        for (int j = 0; j < n; j += F.length()) {
            IntVector xh = (IntVector) ShortVector.fromMemorySegment(S, x, xAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0);
            IntVector xm = xh.and(0x7FFF);
            xm.intoArray(indices, j);
            IntVector xs = xm.lanewise(VectorOperators.LSHL, 13);
            FloatVector xv = xs.reinterpretAsFloats().mul(0x1p112f).reinterpretAsInts()
                    .blend(xs.or(0x7F800000).blend(xs.or(0x7FC00000), xm.compare(VectorOperators.GT, 0x7C00)),
                            xm.compare(VectorOperators.GE, 0x7C00))
                    .or(xh.and(0x8000).lanewise(VectorOperators.LSHL, 16)).reinterpretAsFloats();
            IntVector yh = (IntVector) ShortVector.fromMemorySegment(S, y, yAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0);
            IntVector ym = yh.and(0x7FFF);
            IntVector ys = ym.lanewise(VectorOperators.LSHL, 13);
            FloatVector yv = ys.reinterpretAsFloats().mul(0x1p112f).reinterpretAsInts()
                    .blend(ys.or(0x7F800000).blend(ys.or(0x7FC00000), ym.compare(VectorOperators.GT, 0x7C00)),
                            ym.compare(VectorOperators.GE, 0x7C00))
                    .or(yh.and(0x8000).lanewise(VectorOperators.LSHL, 16)).reinterpretAsFloats();
            FloatVector lw = yv.fma(pwLess1, 1f);
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(negPw), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, table, 0, indices, j))).mul(w);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            loss.intoArray(losses, j);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    /** As {@link #bceWithLogitsBf16Losses} on widened FLOAT16 runs, the losses written over {@code xs}. */
    private static void bceWithLogitsF16Losses(float[] xs, float[] ys, float w, float pw, float[] softplus, int n,
            double[] lanes) {
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        float pwLess1 = pw - 1f;
        float negPw = -pw;
        for (int j = 0; j < n; j += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, xs, j);
            FloatVector yv = FloatVector.fromArray(F, ys, j);
            FloatVector lw = yv.fma(pwLess1, 1f);
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(negPw), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, softplus, j))).mul(w);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            loss.intoArray(xs, j);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    // Generated by tools/kernels/generate_weighted_loops.py from the loops above: do not edit.
    // The 16-bit loops with weight and posWeight per element, from FLOAT runs (a row repeated, see
    // DirectOperands): the same operations, so the same bits as the rows and, for one value, as the
    // loops above. Kept apart from those: reading the two runs cost the unweighted BFLOAT16 call 20%
    // (fresh JVMs, 2048x2048: 1.05-1.10 -> 1.23-1.38 ms a call).

    private static double bceWithLogitsBf16Weighted(MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment w, long wAt, MemorySegment pw, long pwAt, MemorySegment out, long outAt, int n,
            boolean gather) {
        float[] table = SoftplusTable.bf16(); // first: building it uses this thread's scratch
        Scratch scratch = Scratch.get();
        float[] softplus = scratch.softplus;
        double[] lanes = scratch.lanes;
        Arrays.fill(lanes, 0, SumOrder.LANES, 0.0);
        MemorySegment losses = out == null ? scratch.sink : out;
        for (int run = 0; run < n; run += STAGE) {
            int len = Math.min(STAGE, n - run);
            long at = 2L * run;
            long lossesAt = out == null ? sinkOffset(losses, x, xAt + at) : outAt + at;
            if (gather) {
                bceWithLogitsBf16GatheredWeighted(table, scratch.indices, x, xAt + at, y, yAt + at, w, wAt + 4L * run,
                        pw, pwAt + 4L * run, losses, lossesAt, len, lanes);
            } else {
                softplusLookup(table, x, xAt + at, softplus, len);
                bceWithLogitsBf16LossesWeighted(x, xAt + at, y, yAt + at, w, wAt + 4L * run, pw, pwAt + 4L * run,
                        softplus, losses, lossesAt, len, lanes);
            }
        }
        return SumOrder.sumLanes(lanes);
    }

    private static double bceWithLogitsF16Weighted(MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment w, long wAt, MemorySegment pw, long pwAt, MemorySegment out, long outAt, int n,
            boolean gather) {
        float[] table = SoftplusTable.float16(); // first: building it uses this thread's scratch
        Scratch scratch = Scratch.get();
        float[] softplus = scratch.softplus;
        double[] lanes = scratch.lanes;
        Arrays.fill(lanes, 0, SumOrder.LANES, 0.0);
        int runLength = out == null ? STAGE : NARROW_RUN; // a multiple of LOSS_CHUNK: the same sum
        for (int run = 0; run < n; run += runLength) {
            int len = Math.min(runLength, n - run);
            long at = 2L * run;
            if (gather) {
                bceWithLogitsF16GatheredWeighted(table, scratch.indices, x, xAt + at, y, yAt + at, w, wAt + 4L * run,
                        pw, pwAt + 4L * run, scratch.stageA, len, lanes);
            } else {
                widenPair(x, xAt + at, y, yAt + at, scratch.stageA, scratch.stageB, len);
                softplusLookup(table, x, xAt + at, softplus, len);
                bceWithLogitsF16LossesWeighted(scratch.stageA, scratch.stageB, w, wAt + 4L * run, pw, pwAt + 4L * run,
                        softplus, len, lanes);
            }
            if (out != null) {
                storeHalves(scratch.stageA, out, outAt + at, len);
            }
        }
        return SumOrder.sumLanes(lanes);
    }

    private static void bceWithLogitsBf16LossesWeighted(MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment w, long wAt, MemorySegment pw, long pwAt, float[] softplus, MemorySegment out, long outAt,
            int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        out = (MemorySegment) NATIVE.cast(out);
        w = (MemorySegment) NATIVE.cast(w);
        pw = (MemorySegment) NATIVE.cast(pw);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        for (int j = 0; j < n; j += F.length()) {
            FloatVector xv = ((IntVector) ShortVector.fromMemorySegment(S, x, xAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            FloatVector yv = ((IntVector) ShortVector.fromMemorySegment(S, y, yAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            // the loss as VectorBulkMath#bceLosses computes it (see there)
            FloatVector pv = FloatVector.fromMemorySegment(F, pw, pwAt + 4L * j, ORDER);
            FloatVector lw = yv.fma(pv.sub(1f), FloatVector.broadcast(F, 1f));
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(pv.neg()), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector wv = FloatVector.fromMemorySegment(F, w, wAt + 4L * j, ORDER);
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, softplus, j))).mul(wv);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            IntVector lb = loss.reinterpretAsInts(); // nearest even, NaN (self-compare: 2% here) as 0x7FC0
            IntVector bits = lb.add(lb.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, loss.compare(VectorOperators.NE, loss).cast(I))
                    .lanewise(VectorOperators.LSHR, 16);
            ((ShortVector) bits.convertShape(VectorOperators.I2S, S, 0))
                    .intoMemorySegment(out, outAt + 2L * j, ORDER);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    private static void bceWithLogitsBf16GatheredWeighted(float[] table, int[] indices, MemorySegment x, long xAt,
            MemorySegment y, long yAt, MemorySegment w, long wAt, MemorySegment pw, long pwAt, MemorySegment out,
            long outAt, int n, double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        out = (MemorySegment) NATIVE.cast(out);
        w = (MemorySegment) NATIVE.cast(w);
        pw = (MemorySegment) NATIVE.cast(pw);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        for (int j = 0; j < n; j += F.length()) {
            IntVector xi = (IntVector) ShortVector.fromMemorySegment(S, x, xAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0);
            xi.and(0x7FFF).intoArray(indices, j);
            FloatVector xv = xi.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats();
            FloatVector yv = ((IntVector) ShortVector.fromMemorySegment(S, y, yAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0)).lanewise(VectorOperators.LSHL, 16)
                    .reinterpretAsFloats();
            FloatVector pv = FloatVector.fromMemorySegment(F, pw, pwAt + 4L * j, ORDER);
            FloatVector lw = yv.fma(pv.sub(1f), FloatVector.broadcast(F, 1f));
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(pv.neg()), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector wv = FloatVector.fromMemorySegment(F, w, wAt + 4L * j, ORDER);
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, table, 0, indices, j))).mul(wv);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            IntVector lb = loss.reinterpretAsInts(); // as in bceWithLogitsBf16Losses
            IntVector bits = lb.add(lb.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, loss.compare(VectorOperators.NE, loss).cast(I))
                    .lanewise(VectorOperators.LSHR, 16);
            ((ShortVector) bits.convertShape(VectorOperators.I2S, S, 0))
                    .intoMemorySegment(out, outAt + 2L * j, ORDER);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    private static void bceWithLogitsF16GatheredWeighted(float[] table, int[] indices, MemorySegment x, long xAt,
            MemorySegment y, long yAt, MemorySegment w, long wAt, MemorySegment pw, long pwAt, float[] losses, int n,
            double[] lanes) {
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        w = (MemorySegment) NATIVE.cast(w);
        pw = (MemorySegment) NATIVE.cast(pw);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        for (int j = 0; j < n; j += F.length()) {
            IntVector xh = (IntVector) ShortVector.fromMemorySegment(S, x, xAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0);
            IntVector xm = xh.and(0x7FFF);
            xm.intoArray(indices, j);
            IntVector xs = xm.lanewise(VectorOperators.LSHL, 13);
            FloatVector xv = xs.reinterpretAsFloats().mul(0x1p112f).reinterpretAsInts()
                    .blend(xs.or(0x7F800000).blend(xs.or(0x7FC00000), xm.compare(VectorOperators.GT, 0x7C00)),
                            xm.compare(VectorOperators.GE, 0x7C00))
                    .or(xh.and(0x8000).lanewise(VectorOperators.LSHL, 16)).reinterpretAsFloats();
            IntVector yh = (IntVector) ShortVector.fromMemorySegment(S, y, yAt + 2L * j, ORDER)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, I, 0);
            IntVector ym = yh.and(0x7FFF);
            IntVector ys = ym.lanewise(VectorOperators.LSHL, 13);
            FloatVector yv = ys.reinterpretAsFloats().mul(0x1p112f).reinterpretAsInts()
                    .blend(ys.or(0x7F800000).blend(ys.or(0x7FC00000), ym.compare(VectorOperators.GT, 0x7C00)),
                            ym.compare(VectorOperators.GE, 0x7C00))
                    .or(yh.and(0x8000).lanewise(VectorOperators.LSHL, 16)).reinterpretAsFloats();
            FloatVector pv = FloatVector.fromMemorySegment(F, pw, pwAt + 4L * j, ORDER);
            FloatVector lw = yv.fma(pv.sub(1f), FloatVector.broadcast(F, 1f));
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(pv.neg()), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector wv = FloatVector.fromMemorySegment(F, w, wAt + 4L * j, ORDER);
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, table, 0, indices, j))).mul(wv);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            loss.intoArray(losses, j);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }

    private static void bceWithLogitsF16LossesWeighted(float[] xs, float[] ys, MemorySegment w, long wAt,
            MemorySegment pw, long pwAt, float[] softplus, int n, double[] lanes) {
        w = (MemorySegment) NATIVE.cast(w);
        pw = (MemorySegment) NATIVE.cast(pw);
        DoubleVector acc = DoubleVector.fromArray(D, lanes, 0); // SumOrder's double lanes: all, or [0, 4)
        DoubleVector accHigh = WIDE ? acc : DoubleVector.fromArray(D, lanes, D.length()); // and [4, 8)
        FloatVector chunk = FloatVector.zero(F); // this LOSS_CHUNK's 16 fp32 lanes: all, or [0, 8)
        FloatVector chunkHigh = chunk; // and [8, 16)
        for (int j = 0; j < n; j += F.length()) {
            FloatVector xv = FloatVector.fromArray(F, xs, j);
            FloatVector yv = FloatVector.fromArray(F, ys, j);
            FloatVector pv = FloatVector.fromMemorySegment(F, pw, pwAt + 4L * j, ORDER);
            FloatVector lw = yv.fma(pv.sub(1f), FloatVector.broadcast(F, 1f));
            FloatVector c = FloatVector.broadcast(F, 1f).sub(yv)
                    .blend(yv.mul(pv.neg()), xv.compare(VectorOperators.LT, 0f))
                    .blend(Float.NaN, xv.compare(VectorOperators.EQ, Float.NEGATIVE_INFINITY)); // SPEC: ∞ − ∞
            FloatVector wv = FloatVector.fromMemorySegment(F, w, wAt + 4L * j, ORDER);
            FloatVector loss = c.fma(xv, lw.mul(FloatVector.fromArray(F, softplus, j))).mul(wv);
            if (WIDE) {
                chunk = chunk.add(loss);
            } else { // vectors alternate between the fp32 lanes [0, 8) and [8, 16) (see chunkedSum)
                FloatVector added = chunk.add(loss);
                chunk = chunkHigh;
                chunkHigh = added;
            }
            if (((j + F.length()) & (LOSS_CHUNK - 1)) == 0 || j + F.length() >= n) {
                if (WIDE) {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1));
                } else {
                    acc = acc.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 0))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 0));
                    accHigh = accHigh.add((DoubleVector) chunk.convertShape(VectorOperators.F2D, D, 1))
                            .add((DoubleVector) chunkHigh.convertShape(VectorOperators.F2D, D, 1));
                }
                chunk = FloatVector.zero(F);
                chunkHigh = chunk;
            }
            loss.intoArray(xs, j);
        }
        acc.intoArray(lanes, 0);
        if (!WIDE) {
            accHigh.intoArray(lanes, D.length());
        }
    }
}
