package io.github.aclnn4j.kernel;

import static io.github.aclnn4j.kernel.VectorLanes.*;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;

/**
 * BCE with logits' backward, Vector API loops for {@link VectorDirectMath}: FLOAT only; see
 * {@link VectorLanes} for the rules they follow.
 */
final class BceWithLogitsBackwardVectorLoops {
    private BceWithLogitsBackwardVectorLoops() {}

    /**
     * The gradients with the operations of VectorBulkMath's rows, run by run of
     * {@link VectorBulkMath#EXP_RUN}: each run's x copied to scratch for the shared
     * {@code exp(−|x|)} loop, then every operand read and the gradient stored in place.
     */
    static void bceWithLogitsBackward(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment g, long gAt, MemorySegment w, long wAt, MemorySegment pw, long pwAt, float scale,
            MemorySegment out, long outAt, int n) {
        if (dtype != DType.FLOAT) {
            throw unsupported(dtype);
        }
        x = (MemorySegment) NATIVE.cast(x);
        y = (MemorySegment) NATIVE.cast(y);
        g = (MemorySegment) NATIVE.cast(g);
        w = (MemorySegment) NATIVE.cast(w);
        pw = (MemorySegment) NATIVE.cast(pw);
        out = (MemorySegment) NATIVE.cast(out);
        Scratch scratch = Scratch.get();
        float[] xs = scratch.stageA;
        float[] exps = scratch.exps;
        for (int run = 0; run < n; run += VectorBulkMath.EXP_RUN) {
            int len = Math.min(VectorBulkMath.EXP_RUN, n - run);
            ArrayCopies.load(x, xAt + 4L * run, xs, 0, len);
            VectorBulkMath.expNegAbs(xs, 0, len, exps);
            for (int i = 0; i < len; i += F.length()) {
                long o = 4L * (run + i);
                FloatVector xv = FloatVector.fromArray(F, xs, i);
                FloatVector e = FloatVector.fromArray(F, exps, i);
                FloatVector sigmoid = FloatVector.broadcast(F, 1f).blend(e, xv.compare(VectorOperators.LT, 0f))
                        .div(e.add(1f));
                FloatVector yv = FloatVector.fromMemorySegment(F, y, yAt + o, ORDER);
                FloatVector pt = FloatVector.fromMemorySegment(F, pw, pwAt + o, ORDER).mul(yv);
                pt.add(FloatVector.broadcast(F, 1f).sub(yv)).fma(sigmoid, pt.neg())
                        .mul(FloatVector.fromMemorySegment(F, g, gAt + o, ORDER))
                        .mul(FloatVector.fromMemorySegment(F, w, wAt + o, ORDER)).mul(scale)
                        .intoMemorySegment(out, outAt + o, ORDER);
            }
        }
    }
}
