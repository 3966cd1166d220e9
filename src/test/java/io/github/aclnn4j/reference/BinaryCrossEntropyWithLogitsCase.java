package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/** A random aclnnBinaryCrossEntropyWithLogits case: optional weight/posWeight broadcasts, mixed dtypes, reductions. */
public final class BinaryCrossEntropyWithLogitsCase {
    private BinaryCrossEntropyWithLogitsCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case for the direct loops (see {@link CaseRandom}). */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropyWithLogits", seed, dense)) {
            CaseRandom r = ctx.random;
            long[] shape = r.shape(r.nextInt(9), maxNumel, 15);
            int reduction = r.nextInt(3);
            StoredType selfType = r.floatType();
            StoredType targetType = r.floatType();
            boolean weighted = r.nextBoolean();
            boolean posWeighted = r.nextBoolean();
            ctx.note("reduction", reduction);
            long[] outShape = reduction == Reference.NONE ? shape : r.oneElementShape();

            DeviceTensor self = ctx.input("self", selfType, shape, () -> logit(r));
            DeviceTensor target = ctx.input("target", targetType, shape,
                    () -> r.oneIn(3) ? r.nextInt(2) : r.uniform(0, 1));
            DeviceTensor weight = weighted
                    ? ctx.input("weight", r.floatType(), r.broadcastableTo(shape), () -> r.uniform(0, 2))
                    : null;
            DeviceTensor posWeight = posWeighted
                    ? ctx.input("posWeight", r.floatType(), r.broadcastableTo(shape), () -> r.uniform(0, 3))
                    : null;
            DeviceTensor out = ctx.output("out", targetType, outShape);

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(self.tensor, target.tensor,
                            weighted ? weight.tensor : null, posWeighted ? posWeight.tensor : null, reduction,
                            out.tensor, ws, ex),
                    Aclnn::binaryCrossEntropyWithLogits);

            Reference.Expected expected = Reference.binaryCrossEntropyWithLogits(self.arr(), target.arr(),
                    weighted ? weight.arr() : null, posWeighted ? posWeight.arr() : null, reduction,
                    StoredType.promote(selfType, targetType));
            long[] outBits = out.readOutputBits();
            Compare.check("out", targetType, expected, outBits, ctx);
            self.assertUntouched();
            target.assertUntouched();
            if (weighted) {
                weight.assertUntouched();
            }
            if (posWeighted) {
                posWeight.assertUntouched();
            }
            return new long[][] {outBits};
        }
    }

    /**
     * A random case of 16-bit self and target, each contiguous, transposed (its last two dimensions
     * swapped in memory) or channels-last, of rank 2 to 4, with up to 700 rows or channels: the calls
     * that copy their transposed inputs into the workspace first, and some just outside that path
     * (mixed dtypes, a dense weight, a transposed out). Checked against the reference, and bit for bit
     * against the same call on contiguous copies of its inputs.
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
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropyWithLogits", seed, false)) {
            CaseRandom r = ctx.random;
            long[] shape = floats ? r.floatLayoutShape() : r.halfLayoutShape();
            int reduction = floats && r.nextBoolean() ? Reference.NONE : r.nextInt(3); // FLOAT: mostly none
            StoredType selfType = r.layoutType(floats);
            StoredType targetType = r.oneIn(8) ? r.floatType() : selfType;
            boolean weighted = r.oneIn(3);
            boolean posWeighted = r.oneIn(3);
            ctx.note("reduction", reduction);
            long[] outShape = reduction == Reference.NONE ? shape : r.oneElementShape();
            StridedLayout selfLayout = r.contiguousOrPermuted(shape);
            StridedLayout targetLayout = floats || r.nextBoolean() ? selfLayout : r.contiguousOrPermuted(shape);
            StridedLayout outLayout = reduction == Reference.NONE && r.oneIn(6) ? StridedLayout.transposed(shape)
                    : StridedLayout.contiguous(outShape);
            StoredType computeType = StoredType.promote(selfType, targetType);

            DeviceTensor self = ctx.input("self", selfType, selfLayout, () -> logit(r));
            DeviceTensor target = ctx.input("target", targetType, targetLayout,
                    () -> r.oneIn(3) ? r.nextInt(2) : r.uniform(0, 1));
            DeviceTensor weight = weighted ? ctx.input("weight", r.oneIn(4) ? r.floatType() : computeType,
                    r.oneIn(4) ? shape : new long[] {1}, () -> r.uniform(0, 2)) : null;
            DeviceTensor posWeight = posWeighted ? ctx.input("posWeight", r.oneIn(4) ? r.floatType() : computeType,
                    r.oneIn(4) ? new long[0] : new long[] {1}, () -> r.uniform(0, 3)) : null;
            DeviceTensor out = ctx.output("out", targetType, outLayout);
            long[] outBits = call(ctx, self, target, weight, posWeight, reduction, out);

            Reference.Expected expected = Reference.binaryCrossEntropyWithLogits(self.arr(), target.arr(),
                    weighted ? weight.arr() : null, posWeighted ? posWeight.arr() : null, reduction, computeType);
            Compare.check("out", targetType, expected, outBits, ctx);
            self.assertUntouched();
            target.assertUntouched();

            DeviceTensor denseSelf = ctx.contiguousCopy("self", self);
            DeviceTensor denseTarget = ctx.contiguousCopy("target", target);
            DeviceTensor denseOut = ctx.output("contiguous out", targetType, StridedLayout.contiguous(outShape));
            long[] denseBits = call(ctx, denseSelf, denseTarget, weight, posWeight, reduction, denseOut);
            Compare.sameBits("out", out.type, outBits, denseBits, "the same call on contiguous inputs", ctx);
            return new long[][] {outBits};
        }
    }

    private static long[] call(CaseContext ctx, DeviceTensor self, DeviceTensor target, DeviceTensor weight,
            DeviceTensor posWeight, int reduction, DeviceTensor out) {
        Launch.run(ctx::describe, ctx.random.oneIn(4),
                (ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(self.tensor, target.tensor,
                        weight == null ? null : weight.tensor, posWeight == null ? null : posWeight.tensor, reduction,
                        out.tensor, ws, ex),
                Aclnn::binaryCrossEntropyWithLogits);
        return out.readOutputBits();
    }

    /** Mostly in [-20, 20], sometimes ±100 (where a naive log(1 + exp(x)) overflows). */
    private static double logit(CaseRandom r) {
        return r.oneIn(20) ? (r.nextBoolean() ? 100 : -100) : r.uniform(-20, 20);
    }
}
