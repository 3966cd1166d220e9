package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/**
 * A random aclnnBinaryCrossEntropyWithLogitsBackward case: logits across the sigmoid's range
 * (saturated ends included), targets in [0, 1], gradOutput, weight and posWeight broadcast or
 * absent, every reduction; inputs of mixed float dtypes (out's is target's) outside dense cases.
 */
public final class BinaryCrossEntropyWithLogitsBackwardCase {
    private BinaryCrossEntropyWithLogitsBackwardCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case of one float type in dense layouts. */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropyWithLogitsBackward", seed, dense)) {
            CaseRandom r = ctx.random;
            long[] shape = r.shape(r.nextInt(9), maxNumel, 20);
            int reduction = r.nextInt(3);
            StoredType targetType = r.floatType();
            ctx.note("reduction", reduction);

            // a 1-element gradOutput of rank 1 would enlarge a 0-d self
            DeviceTensor grad = ctx.input("gradOutput", r.floatType(), reduction == 0 ? r.broadcastableTo(shape)
                    : r.nextBoolean() || shape.length == 0 ? new long[0] : new long[] {1}, () -> r.uniform(-2, 2));
            // CANN's code requires self, target and out to carry one format tag
            StridedLayout selfLayout = ctx.layout(shape, true);
            int format = selfLayout.format();
            DeviceTensor self = ctx.input("self", r.floatType(), selfLayout,
                    () -> r.oneIn(8) ? r.uniform(-40, 40) : r.uniform(-6, 6));
            DeviceTensor target = ctx.input("target", targetType, ctx.layout(shape, true).withFormat(format),
                    () -> r.oneIn(3) ? r.nextInt(2) : r.uniform(0, 1));
            DeviceTensor weight = r.nextBoolean() ? null
                    : ctx.input("weightOptional", r.floatType(), r.broadcastableTo(shape), () -> r.uniform(0, 2));
            DeviceTensor posWeight = r.nextBoolean() ? null
                    : ctx.input("posWeightOptional", r.floatType(), r.broadcastableTo(shape), () -> r.uniform(0, 3));
            DeviceTensor out = ctx.output("out", targetType, ctx.layout(shape, false).withFormat(format));

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(grad.tensor, self.tensor,
                            target.tensor, weight == null ? null : weight.tensor,
                            posWeight == null ? null : posWeight.tensor, reduction, out.tensor, ws, ex),
                    Aclnn::binaryCrossEntropyWithLogitsBackward);

            Reference.Expected expected = Reference.binaryCrossEntropyWithLogitsBackward(grad.arr(), self.arr(),
                    target.arr(), weight == null ? null : weight.arr(), posWeight == null ? null : posWeight.arr(),
                    reduction);
            long[] bits = out.readOutputBits();
            Compare.check("out", targetType, expected, bits, ctx);
            grad.assertUntouched();
            self.assertUntouched();
            target.assertUntouched();
            return new long[][] {bits};
        }
    }

    /**
     * A random case of 16-bit operands, each contiguous, transposed (its last two dimensions swapped
     * in memory) or channels-last, of rank 2 to 4, with up to 700 rows or channels: the calls
     * computed in their inputs' memory order and moved into out (every input in one such order, out
     * contiguous), the BFLOAT16 direct loops, and some just outside those (mixed dtypes, inputs in
     * different orders, dense weights, a transposed out). Checked against the reference, and bit for
     * bit against the same call on contiguous copies of its inputs.
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
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropyWithLogitsBackward", seed, false)) {
            CaseRandom r = ctx.random;
            long[] shape = floats ? r.floatLayoutShape() : r.halfLayoutShape();
            int reduction = r.nextInt(3);
            StoredType type = r.layoutType(floats);
            ctx.note("reduction", reduction);
            StridedLayout selfLayout = r.contiguousOrPermuted(shape);
            int format = selfLayout.format();
            StridedLayout targetLayout = r.mostlyLike(selfLayout, shape).withFormat(format);
            StridedLayout gradLayout = reduction != Reference.NONE && r.nextBoolean()
                    ? StridedLayout.contiguous(new long[0])
                    : r.mostlyLike(selfLayout, shape);
            StridedLayout weightLayout = r.oneIn(4) ? selfLayout : StridedLayout.contiguous(new long[] {1});
            StridedLayout posWeightLayout = r.oneIn(4) ? selfLayout : StridedLayout.contiguous(new long[] {1});
            StridedLayout outLayout = (r.oneIn(6) ? StridedLayout.transposed(shape) : StridedLayout.contiguous(shape))
                    .withFormat(format);

            DeviceTensor grad = ctx.input("gradOutput", r.oneIn(8) ? r.floatType() : type, gradLayout,
                    () -> r.uniform(-2, 2));
            DeviceTensor self = ctx.input("self", type, selfLayout,
                    () -> r.oneIn(8) ? r.uniform(-40, 40) : r.uniform(-6, 6));
            DeviceTensor target = ctx.input("target", type, targetLayout,
                    () -> r.oneIn(3) ? r.nextInt(2) : r.uniform(0, 1));
            DeviceTensor weight = r.nextBoolean() ? null
                    : ctx.input("weightOptional", r.oneIn(8) ? r.floatType() : type, weightLayout,
                            () -> r.uniform(0, 2));
            DeviceTensor posWeight = r.nextBoolean() ? null
                    : ctx.input("posWeightOptional", r.oneIn(8) ? r.floatType() : type, posWeightLayout,
                            () -> r.uniform(0, 3));
            DeviceTensor out = ctx.output("out", type, outLayout);
            long[] bits = call(ctx, grad, self, target, weight, posWeight, reduction, out);

            Reference.Expected expected = Reference.binaryCrossEntropyWithLogitsBackward(grad.arr(), self.arr(),
                    target.arr(), weight == null ? null : weight.arr(), posWeight == null ? null : posWeight.arr(),
                    reduction);
            Compare.check("out", type, expected, bits, ctx);
            grad.assertUntouched();
            self.assertUntouched();
            target.assertUntouched();

            DeviceTensor denseGrad = ctx.contiguousCopy("gradOutput", grad);
            DeviceTensor denseSelf = ctx.contiguousCopy("self", self);
            DeviceTensor denseTarget = ctx.contiguousCopy("target", target);
            DeviceTensor denseWeight = ctx.contiguousCopy("weight", weight);
            DeviceTensor densePosWeight = ctx.contiguousCopy("posWeight", posWeight);
            DeviceTensor denseOut = ctx.output("contiguous out", type, StridedLayout.contiguous(shape));
            long[] denseBits = call(ctx, denseGrad, denseSelf, denseTarget, denseWeight, densePosWeight, reduction,
                    denseOut);
            Compare.sameBits("out", out.type, bits, denseBits, "the same call on contiguous inputs", ctx);
            return new long[][] {bits};
        }
    }

    private static long[] call(CaseContext ctx, DeviceTensor grad, DeviceTensor self, DeviceTensor target,
            DeviceTensor weight, DeviceTensor posWeight, int reduction, DeviceTensor out) {
        Launch.run(ctx::describe, ctx.random.oneIn(4),
                (ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(grad.tensor, self.tensor,
                        target.tensor, weight == null ? null : weight.tensor,
                        posWeight == null ? null : posWeight.tensor, reduction, out.tensor, ws, ex),
                Aclnn::binaryCrossEntropyWithLogitsBackward);
        return out.readOutputBits();
    }
}
