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
}
