package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/**
 * A random aclnnNLLLoss case: 1-D or 2-D self of any float type, INT64/INT32/UINT8 targets with
 * ignored rows (sometimes all of them), all three reductions, out and totalWeightOut of any float
 * type, negative and zero weights.
 */
public final class NllLossCase {
    private NllLossCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case of one float type in dense layouts. */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnNLLLoss", seed, dense)) {
            CaseRandom r = ctx.random;
            boolean twoDimensional = r.nextInt(10) < 7;
            int classes = r.nextInt(1, 21);
            int rows = twoDimensional ? (r.oneIn(20) ? 0 : r.nextInt(1, Math.max(2, maxNumel / classes))) : 1;
            int reduction = r.nextInt(3);
            StoredType type = r.floatType();
            StoredType targetType = new StoredType[] {StoredType.INT64, StoredType.INT32, StoredType.UINT8}[r.nextInt(3)];
            long ignoreIndex = NllLossBackwardCase.ignoreIndex(r, classes, targetType);
            boolean ignoreAppears = NllLossBackwardCase.fits(ignoreIndex, targetType);
            boolean allIgnored = ignoreAppears && r.oneIn(10);
            ctx.note("reduction", reduction);
            ctx.note("ignoreIndex", ignoreIndex);

            long[] selfShape = twoDimensional ? new long[] {rows, classes} : new long[] {classes};
            DeviceTensor self = ctx.input("self", type, selfShape, () -> r.uniform(-5, 0));
            DeviceTensor target = ctx.input("target", targetType, twoDimensional ? new long[] {rows} : new long[0],
                    () -> allIgnored || (ignoreAppears && r.oneIn(5)) ? ignoreIndex : r.nextInt(classes));
            DeviceTensor weight = ctx.input("weight", type, new long[] {classes},
                    () -> r.oneIn(10) ? 0 : r.uniform(-0.5, 2));
            StoredType outType = r.nextBoolean() ? type : r.floatType();
            DeviceTensor out = ctx.output("out", outType,
                    reduction == Reference.NONE && twoDimensional ? new long[] {rows} : r.oneElementShape());
            DeviceTensor total = ctx.output("totalWeightOut", r.nextBoolean() ? type : r.floatType(),
                    r.oneElementShape());

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.nllLossGetWorkspaceSize(self.tensor, target.tensor, weight.tensor, reduction,
                            ignoreIndex, out.tensor, total.tensor, ws, ex),
                    Aclnn::nllLoss);

            long[] targets = NllLossBackwardCase.toLongs(target.values());
            Reference.Expected[] expected = Reference.nllLoss(self.values(), targets, weight.values(), reduction,
                    ignoreIndex, rows, classes);
            if (type == StoredType.BF16 && outType != StoredType.BF16) { // computed in BFLOAT16, then cast
                round(expected[0], StoredType.BF16);
            }
            long[] outBits = out.readOutputBits();
            long[] totalBits = total.readOutputBits();
            if (rows == 0 && reduction != Reference.NONE) {
                expected = new Reference.Expected[] {
                    new Reference.Expected(new double[] {reduction == Reference.MEAN ? Double.NaN : 0}, new double[1]),
                    new Reference.Expected(new double[1], new double[1])};
            }
            if (rows > 0 || reduction != Reference.NONE) {
                Compare.check("out", outType, expected[0], outBits, ctx);
            }
            if (expected[1] != null) {
                if (type == StoredType.BF16 && total.type != StoredType.BF16) {
                    round(expected[1], StoredType.BF16);
                }
                Compare.check("totalWeightOut", total.type, expected[1], totalBits, ctx);
            } else {
                total.assertUntouched();
            }
            for (DeviceTensor input : new DeviceTensor[] {self, target, weight}) {
                input.assertUntouched();
            }
            return new long[][] {outBits, totalBits};
        }
    }

    private static void round(Reference.Expected e, StoredType type) {
        for (int i = 0; i < e.value().length; i++) {
            e.value()[i] = type.round(e.value()[i]);
        }
    }
}
