package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/**
 * A random aclnnNLLLossBackward case: 1-D or 2-D self, INT64/INT32/UINT8 targets with ignored rows,
 * all three reductions, a totalWeight that is the forward's Σ w[t], an arbitrary value or zero.
 */
public final class NllLossBackwardCase {
    private NllLossBackwardCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case for the direct loops (see {@link CaseRandom}). */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnNLLLossBackward", seed, dense)) {
            CaseRandom r = ctx.random;
            boolean twoDimensional = r.nextInt(10) < 7;
            int classes = r.nextInt(1, 21);
            int rows = twoDimensional ? (r.oneIn(20) ? 0 : r.nextInt(1, Math.max(2, maxNumel / classes))) : 1;
            int reduction = r.nextInt(3);
            StoredType type = r.floatType();
            StoredType targetType = new StoredType[] {StoredType.INT64, StoredType.INT32, StoredType.UINT8}[r.nextInt(3)];
            long ignoreIndex = ignoreIndex(r, classes, targetType);
            boolean ignoreAppears = fits(ignoreIndex, targetType);
            ctx.note("reduction", reduction);
            ctx.note("ignoreIndex", ignoreIndex);

            long[] selfShape = twoDimensional ? new long[] {rows, classes} : new long[] {classes};
            long[] gradShape = reduction == Reference.NONE && twoDimensional ? new long[] {rows} : r.oneElementShape();
            DeviceTensor grad = ctx.input("gradOutput", type, gradShape, () -> r.uniform(-2, 2));
            DeviceTensor self = ctx.input("self", type, selfShape, () -> r.uniform(-5, 0));
            DeviceTensor target = ctx.input("target", targetType, twoDimensional ? new long[] {rows} : new long[0],
                    () -> ignoreAppears && r.oneIn(5) ? ignoreIndex : r.nextInt(classes));
            DeviceTensor weight = ctx.input("weight", type, new long[] {classes}, () -> r.uniform(0, 2));
            long[] targets = toLongs(target.values());
            double[] weights = weight.values();
            double totalWeight = switch (r.nextInt(8)) {
                case 0 -> 0;
                case 1 -> r.uniform(0.5, 5);
                default -> forwardTotalWeight(targets, weights, ignoreIndex);
            };
            DeviceTensor total = ctx.input("totalWeight", type, r.oneElementShape(), () -> totalWeight);
            DeviceTensor out = ctx.output("out", r.floatType(), selfShape);

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.nllLossBackwardGetWorkspaceSize(grad.tensor, self.tensor, target.tensor,
                            weight.tensor, reduction, ignoreIndex, total.tensor, out.tensor, ws, ex),
                    Aclnn::nllLossBackward);

            Reference.Expected expected = Reference.nllLossBackward(grad.values(), targets, weights, reduction,
                    ignoreIndex, total.values()[0], rows, classes, twoDimensional);
            long[] outBits = out.readOutputBits();
            Compare.check("out", out.type, expected, outBits, ctx);
            for (DeviceTensor input : new DeviceTensor[] {grad, self, target, weight, total}) {
                input.assertUntouched();
            }
            return new long[][] {outBits};
        }
    }

    /** -100 (PyTorch's default), a valid class, another negative value, 255, or a value no target takes. */
    static long ignoreIndex(CaseRandom r, int classes, StoredType targetType) {
        return switch (r.nextInt(6)) {
            case 0, 1 -> -100;
            case 2 -> r.nextInt(classes);
            case 3 -> -r.nextInt(1, 6);
            case 4 -> targetType == StoredType.UINT8 ? 255 : -1;
            default -> 1000;
        };
    }

    /** Whether a target of this type can hold the value (so that some rows are ignored). */
    static boolean fits(long value, StoredType targetType) {
        return targetType != StoredType.UINT8 || (value >= 0 && value <= 255);
    }

    /** What the forward computes: Σ w[t_i] over the rows that are not ignored. */
    private static double forwardTotalWeight(long[] targets, double[] weights, long ignoreIndex) {
        double sum = 0;
        for (long t : targets) {
            if (t != ignoreIndex) {
                sum += weights[(int) t];
            }
        }
        return sum;
    }

    static long[] toLongs(double[] values) {
        long[] longs = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            longs[i] = (long) values[i];
        }
        return longs;
    }
}
