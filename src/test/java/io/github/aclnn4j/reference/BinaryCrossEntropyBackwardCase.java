package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;
import java.util.Arrays;

/** A random aclnnBinaryCrossEntropyBackward case: shapes, broadcasts, mixed dtypes, layouts, reductions. */
public final class BinaryCrossEntropyBackwardCase {
    private BinaryCrossEntropyBackwardCase() {}

    /** Runs the case of {@code seed}, checks it against the reference, and returns the output's bits. */
    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case for the direct loops (see {@link CaseRandom}). */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropyBackward", seed, dense)) {
            CaseRandom r = ctx.random;
            long[] shape = r.shape(r.nextInt(9), maxNumel, 20);
            int reduction = r.nextInt(3);
            long[] gradShape = reduction != Reference.NONE && r.nextBoolean()
                    ? (shape.length == 0 ? new long[0] : r.oneElementShape())
                    : r.broadcastableTo(shape);
            boolean weighted = r.nextBoolean();
            ctx.note("reduction", reduction);
            ctx.note("weight", weighted);

            DeviceTensor grad = ctx.input("gradOutput", r.floatType(), gradShape, () -> r.uniform(-2, 2));
            // CANN's code requires self, target and weight to carry one format tag
            StridedLayout selfLayout = ctx.layout(shape, true);
            int format = selfLayout.format();
            DeviceTensor self = ctx.input("self", r.floatType(), selfLayout, () -> probability(r));
            DeviceTensor target = ctx.input("target", r.floatType(),
                    ctx.layout(r.broadcastableTo(shape), true).withFormat(format), () -> probability(r));
            DeviceTensor weight = weighted ? ctx.input("weight", r.floatType(),
                    ctx.layout(r.broadcastableTo(shape), true).withFormat(format), () -> r.uniform(0, 3)) : null;
            DeviceTensor out = ctx.output("out", r.floatType(), shape);

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(grad.tensor, self.tensor, target.tensor,
                            weighted ? weight.tensor : null, reduction, out.tensor, ws, ex),
                    Aclnn::binaryCrossEntropyBackward);

            Reference.Expected expected = Reference.binaryCrossEntropyBackward(grad.arr(), self.arr(),
                    target.arr(), weighted ? weight.arr() : null, reduction);
            long[] outBits = out.readOutputBits();
            Compare.check("out", out.type, expected, outBits, ctx);
            for (DeviceTensor input : Arrays.asList(grad, self, target, weight)) {
                if (input != null) {
                    input.assertUntouched();
                }
            }
            return new long[][] {outBits};
        }
    }

    /**
     * A FLOAT case for the direct loops' way into an out that is not dense: dense gradOutput, self
     * and target of shape [3, 4196] (three blocks and a tail), reduction none, out in a random
     * non-dense layout; checked against the reference. Returns a description of out's layout.
     */
    public static String runIntoStridedOut(long seed) {
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropyBackward into a strided out", seed, true)) {
            CaseRandom r = ctx.random;
            long[] shape = {3, 4196};
            StridedLayout outLayout;
            do {
                outLayout = StridedLayout.random(r.rng, shape, false);
            } while (Arrays.equals(outLayout.strides(), StridedLayout.contiguous(shape).strides()));
            DeviceTensor grad = ctx.input("gradOutput", StoredType.FLOAT, StridedLayout.contiguous(shape),
                    () -> r.uniform(-2, 2));
            DeviceTensor self = ctx.input("self", StoredType.FLOAT, StridedLayout.contiguous(shape), () -> probability(r));
            DeviceTensor target = ctx.input("target", StoredType.FLOAT, StridedLayout.contiguous(shape),
                    () -> probability(r));
            DeviceTensor out = ctx.output("out", StoredType.FLOAT, outLayout);
            Launch.run(ctx::describe, false,
                    (ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(grad.tensor, self.tensor, target.tensor,
                            null, Reference.NONE, out.tensor, ws, ex),
                    Aclnn::binaryCrossEntropyBackward);
            Reference.Expected expected = Reference.binaryCrossEntropyBackward(grad.arr(), self.arr(), target.arr(),
                    null, Reference.NONE);
            Compare.check("out", out.type, expected, out.readOutputBits(), ctx);
            return outLayout.describe();
        }
    }

    /**
     * A random case of 16-bit operands, each contiguous, transposed (its last two dimensions swapped
     * in memory) or channels-last, of rank 2 to 4, with up to 700 rows or channels: the calls
     * computed in their inputs' memory order and moved into out (every input in one such order, out
     * contiguous), the direct loops over dense gradOutput and weight, and some just outside those
     * (mixed dtypes, inputs in different orders, a transposed out). Checked against the reference,
     * and bit for bit against the same call on contiguous copies of its inputs.
     */
    public static long[][] runHalfLayouts(long seed) {
        return runLayouts(seed, false);
    }

    /**
     * As {@link #runHalfLayouts}, the operands FLOAT (some inputs of another dtype), the shapes' memory runs
     * mostly longer than a tile's row: the FLOAT calls computed in their inputs' memory order.
     */
    public static long[][] runFloatLayouts(long seed) {
        return runLayouts(seed, true);
    }

    private static long[][] runLayouts(long seed, boolean floats) {
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropyBackward", seed, false)) {
            CaseRandom r = ctx.random;
            long[] shape = floats ? r.floatLayoutShape() : r.halfLayoutShape();
            int reduction = r.nextInt(3);
            StoredType type = r.layoutType(floats);
            ctx.note("reduction", reduction);
            StridedLayout selfLayout = r.contiguousOrPermuted(shape);
            int format = selfLayout.format();
            StridedLayout targetLayout = r.mostlyLike(selfLayout, shape).withFormat(format);
            boolean scalarGrad = reduction != Reference.NONE && r.nextBoolean();
            StridedLayout gradLayout = scalarGrad ? StridedLayout.contiguous(new long[0])
                    : r.mostlyLike(selfLayout, shape);
            int weighting = r.nextInt(3); // none, one value, dense
            StridedLayout weightLayout = weighting == 1 ? StridedLayout.contiguous(new long[] {1}).withFormat(format)
                    : r.mostlyLike(selfLayout, shape).withFormat(format);
            StridedLayout outLayout = r.oneIn(6) ? StridedLayout.transposed(shape) : StridedLayout.contiguous(shape);

            DeviceTensor grad = ctx.input("gradOutput", r.oneIn(8) ? r.floatType() : type, gradLayout,
                    () -> r.uniform(-2, 2));
            DeviceTensor self = ctx.input("self", type, selfLayout, () -> probability(r));
            DeviceTensor target = ctx.input("target", r.oneIn(8) ? r.floatType() : type, targetLayout,
                    () -> probability(r));
            DeviceTensor weight = weighting == 0 ? null
                    : ctx.input("weight", r.oneIn(8) ? r.floatType() : type, weightLayout, () -> r.uniform(0, 3));
            DeviceTensor out = ctx.output("out", type, outLayout);
            long[] outBits = call(ctx, grad, self, target, weight, reduction, out);

            Reference.Expected expected = Reference.binaryCrossEntropyBackward(grad.arr(), self.arr(),
                    target.arr(), weight == null ? null : weight.arr(), reduction);
            Compare.check("out", out.type, expected, outBits, ctx);
            for (DeviceTensor input : Arrays.asList(grad, self, target, weight)) {
                if (input != null) {
                    input.assertUntouched();
                }
            }

            DeviceTensor denseGrad = ctx.contiguousCopy("gradOutput", grad);
            DeviceTensor denseSelf = ctx.contiguousCopy("self", self);
            DeviceTensor denseTarget = ctx.contiguousCopy("target", target);
            DeviceTensor denseWeight = ctx.contiguousCopy("weight", weight);
            DeviceTensor denseOut = ctx.output("contiguous out", type, StridedLayout.contiguous(shape));
            long[] denseBits = call(ctx, denseGrad, denseSelf, denseTarget, denseWeight, reduction, denseOut);
            Compare.sameBits("out", out.type, outBits, denseBits, "the same call on contiguous inputs", ctx);
            return new long[][] {outBits};
        }
    }

    private static long[] call(CaseContext ctx, DeviceTensor grad, DeviceTensor self, DeviceTensor target,
            DeviceTensor weight, int reduction, DeviceTensor out) {
        Launch.run(ctx::describe, ctx.random.oneIn(4),
                (ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(grad.tensor, self.tensor, target.tensor,
                        weight == null ? null : weight.tensor, reduction, out.tensor, ws, ex),
                Aclnn::binaryCrossEntropyBackward);
        return out.readOutputBits();
    }

    /** Mostly in (0, 1), with exact 0 and 1 now and then (where the 1e-12 clamp acts). */
    private static double probability(CaseRandom r) {
        int pick = r.nextInt(20);
        return pick == 0 ? 0 : pick == 1 ? 1 : r.uniform(0, 1);
    }
}
