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
