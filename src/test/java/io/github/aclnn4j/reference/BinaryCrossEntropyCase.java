package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/**
 * A random aclnnBinaryCrossEntropy case: probabilities with exact 0s and 1s (the −100 clamp) and
 * values near both ends, targets in [0, 1], a weight absent or broadcast, every reduction; with a
 * weight every tensor shares one float type, without one they mix (outside dense cases).
 */
public final class BinaryCrossEntropyCase {
    private BinaryCrossEntropyCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case of one float type in dense layouts. */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropy", seed, dense)) {
            CaseRandom r = ctx.random;
            long[] shape = r.shape(r.nextInt(9), maxNumel, 20);
            int reduction = r.nextInt(3);
            boolean weighted = r.nextBoolean();
            StoredType selfType = r.floatType();
            StoredType targetType = weighted || r.nextBoolean() ? selfType : r.floatType();
            StoredType outType = weighted || r.nextBoolean() ? selfType : r.floatType();
            ctx.note("reduction", reduction);

            DeviceTensor self = ctx.input("self", selfType, shape, () -> probability(r));
            DeviceTensor target = ctx.input("target", targetType, shape,
                    () -> r.oneIn(3) ? r.nextInt(2) : r.uniform(0, 1));
            DeviceTensor weight = weighted
                    ? ctx.input("weight", selfType, r.broadcastableTo(shape), () -> r.uniform(0, 2)) : null;
            DeviceTensor out = ctx.output("out", outType, reduction == 0 ? shape : new long[] {1});

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.binaryCrossEntropyGetWorkspaceSize(self.tensor, target.tensor,
                            weight == null ? null : weight.tensor, reduction, out.tensor, ws, ex),
                    Aclnn::binaryCrossEntropy);

            Reference.Expected expected = Reference.binaryCrossEntropy(self.arr(), target.arr(),
                    weight == null ? null : weight.arr(), reduction);
            if (selfType != StoredType.FLOAT && outType != selfType) { // rounded to self's dtype on the way
                for (int i = 0; i < expected.value().length; i++) {
                    expected.value()[i] = selfType.round(expected.value()[i]);
                }
            }
            long[] bits = out.readOutputBits();
            Compare.check("out", outType, expected, bits, ctx);
            self.assertUntouched();
            target.assertUntouched();
            if (weight != null) {
                weight.assertUntouched();
            }
            return new long[][] {bits};
        }
    }

    /**
     * Self and target contiguous, transposed (the last two dimensions swapped in memory) or
     * channels-last, of rank 2 to 4, 16-bit: the calls of reduction none computed in their inputs'
     * memory order and moved into out (both inputs in one such order, weight absent, one value or in
     * that order too, out contiguous), and some just outside them (inputs in different orders, a
     * transposed out, mean and sum). Checked against the reference, and bit for bit against the same
     * call on contiguous copies of its inputs.
     */
    public static long[][] runHalfLayouts(long seed) {
        return runLayouts(seed, false);
    }

    /**
     * As {@link #runHalfLayouts}, FLOAT, the shapes' memory runs mostly longer than a tile's row: the
     * FLOAT calls computed in their inputs' memory order.
     */
    public static long[][] runFloatLayouts(long seed) {
        return runLayouts(seed, true);
    }

    private static long[][] runLayouts(long seed, boolean floats) {
        try (CaseContext ctx = new CaseContext("aclnnBinaryCrossEntropy", seed, false)) {
            CaseRandom r = ctx.random;
            long[] shape = floats ? r.floatLayoutShape() : r.halfLayoutShape();
            int reduction = r.nextBoolean() ? Reference.NONE : r.nextInt(3); // mostly none: the staged path
            StoredType type = r.layoutType(floats);
            ctx.note("reduction", reduction);
            StridedLayout selfLayout = r.contiguousOrPermuted(shape);
            int format = selfLayout.format();
            StridedLayout targetLayout = r.mostlyLike(selfLayout, shape).withFormat(format);
            int weighting = r.nextInt(3); // none, one value, dense
            StridedLayout weightLayout = weighting == 1 ? StridedLayout.contiguous(new long[] {1}).withFormat(format)
                    : r.mostlyLike(selfLayout, shape).withFormat(format);
            long[] outShape = reduction == Reference.NONE ? shape : new long[] {1};
            StridedLayout outLayout = reduction == Reference.NONE && r.oneIn(6) ? StridedLayout.transposed(shape)
                    : StridedLayout.contiguous(outShape);

            DeviceTensor self = ctx.input("self", type, selfLayout, () -> probability(r));
            DeviceTensor target = ctx.input("target", type, targetLayout,
                    () -> r.oneIn(3) ? r.nextInt(2) : r.uniform(0, 1));
            DeviceTensor weight = weighting == 0 ? null
                    : ctx.input("weight", type, weightLayout, () -> r.uniform(0, 2));
            DeviceTensor out = ctx.output("out", type, outLayout);
            long[] outBits = call(ctx, self, target, weight, reduction, out);

            Reference.Expected expected = Reference.binaryCrossEntropy(self.arr(), target.arr(),
                    weight == null ? null : weight.arr(), reduction);
            Compare.check("out", type, expected, outBits, ctx);
            self.assertUntouched();
            target.assertUntouched();

            DeviceTensor denseSelf = ctx.contiguousCopy("self", self);
            DeviceTensor denseTarget = ctx.contiguousCopy("target", target);
            DeviceTensor denseWeight = ctx.contiguousCopy("weight", weight);
            DeviceTensor denseOut = ctx.output("contiguous out", type, StridedLayout.contiguous(outShape));
            long[] denseBits = call(ctx, denseSelf, denseTarget, denseWeight, reduction, denseOut);
            Compare.sameBits("out", out.type, outBits, denseBits, "the same call on contiguous inputs", ctx);
            return new long[][] {outBits};
        }
    }

    private static long[] call(CaseContext ctx, DeviceTensor self, DeviceTensor target, DeviceTensor weight,
            int reduction, DeviceTensor out) {
        Launch.run(ctx::describe, ctx.random.oneIn(4),
                (ws, ex) -> Aclnn.binaryCrossEntropyGetWorkspaceSize(self.tensor, target.tensor,
                        weight == null ? null : weight.tensor, reduction, out.tensor, ws, ex),
                Aclnn::binaryCrossEntropy);
        return out.readOutputBits();
    }

    private static double probability(CaseRandom r) {
        return switch (r.nextInt(12)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> r.nextBoolean() ? r.uniform(0, 1e-6) : r.uniform(0, 1e-12);
            case 3 -> 1 - r.uniform(0, 1e-3);
            default -> r.uniform(0, 1);
        };
    }
}
