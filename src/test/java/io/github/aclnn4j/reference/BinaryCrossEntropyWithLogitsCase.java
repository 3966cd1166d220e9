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

    /** Mostly in [-20, 20], sometimes ±100 (where a naive log(1 + exp(x)) overflows). */
    private static double logit(CaseRandom r) {
        return r.oneIn(20) ? (r.nextBoolean() ? 100 : -100) : r.uniform(-20, 20);
    }
}
