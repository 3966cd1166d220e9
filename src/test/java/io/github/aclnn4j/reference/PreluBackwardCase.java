package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/** A random aclnnPreluBackward case: per-channel or single weight, broadcast gradOutput, layouts, format tags. */
public final class PreluBackwardCase {
    private PreluBackwardCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case for the direct loops (see {@link CaseRandom}). */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnPreluBackward", seed, dense)) {
            CaseRandom r = ctx.random;
            long[] shape = r.shape(r.nextInt(9), maxNumel, 20);
            StoredType type = r.floatType();
            boolean perChannel = shape.length >= 2 && r.nextInt(5) < 3;
            long[] weightShape = perChannel ? new long[] {shape[1]} : singleWeightShape(r);
            // One weight per channel means a 1-D [C] gradWeight; a single weight keeps weight's shape.
            long[] gradWeightShape = perChannel ? new long[] {shape[1]} : weightShape;

            DeviceTensor grad = ctx.input("gradOutput", type, r.broadcastableTo(shape), () -> r.uniform(-2, 2));
            DeviceTensor self = ctx.input("self", type, shape, () -> r.oneIn(10) ? 0 : r.uniform(-3, 3));
            DeviceTensor weight = ctx.input("weight", type, weightShape, () -> r.uniform(-1, 1));
            DeviceTensor gradInput = ctx.output("gradInput", type, shape);
            DeviceTensor gradWeight = ctx.output("gradWeight", type, gradWeightShape);

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(grad.tensor, self.tensor, weight.tensor,
                            gradInput.tensor, gradWeight.tensor, ws, ex),
                    Aclnn::preluBackward);

            Reference.Expected[] expected = Reference.preluBackward(grad.arr(), self.arr(), weight.values());
            long[] gradInputBits = gradInput.readOutputBits();
            long[] gradWeightBits = gradWeight.readOutputBits();
            Compare.check("gradInput", type, expected[0], gradInputBits, ctx);
            Compare.check("gradWeight", type, expected[1], gradWeightBits, ctx);
            grad.assertUntouched();
            self.assertUntouched();
            weight.assertUntouched();
            return new long[][] {gradInputBits, gradWeightBits};
        }
    }

    /**
     * Dense FLOAT self and gradOutput, a weight per channel, gradInput of a random strided layout:
     * the direct loops write it through scratch ({@code DirectOperands#output}). Rows of 300 (a
     * slab of short rows, a partial step each) or 4196 elements (long rows, cut into blocks).
     * Returns gradInput's layout.
     */
    public static String runIntoStridedGradInput(long seed) {
        try (CaseContext ctx = new CaseContext("aclnnPreluBackward into a strided gradInput", seed, true)) {
            CaseRandom r = ctx.random;
            long[] shape = r.nextBoolean() ? new long[] {2, 5, 300} : new long[] {2, 3, 4196};
            StridedLayout layout;
            do {
                layout = StridedLayout.random(r.rng, shape, false);
            } while (java.util.Arrays.equals(layout.strides(), StridedLayout.contiguous(shape).strides()));
            DeviceTensor grad = ctx.input("gradOutput", StoredType.FLOAT, shape, () -> r.uniform(-2, 2));
            DeviceTensor self = ctx.input("self", StoredType.FLOAT, shape, () -> r.oneIn(10) ? 0 : r.uniform(-3, 3));
            DeviceTensor weight = ctx.input("weight", StoredType.FLOAT, new long[] {shape[1]}, () -> r.uniform(-1, 1));
            DeviceTensor gradInput = ctx.output("gradInput", StoredType.FLOAT, layout);
            DeviceTensor gradWeight = ctx.output("gradWeight", StoredType.FLOAT, new long[] {shape[1]});
            Launch.run(ctx::describe, false,
                    (ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(grad.tensor, self.tensor, weight.tensor,
                            gradInput.tensor, gradWeight.tensor, ws, ex),
                    Aclnn::preluBackward);
            Reference.Expected[] expected = Reference.preluBackward(grad.arr(), self.arr(), weight.values());
            Compare.check("gradInput", StoredType.FLOAT, expected[0], gradInput.readOutputBits(), ctx);
            Compare.check("gradWeight", StoredType.FLOAT, expected[1], gradWeight.readOutputBits(), ctx);
            return layout.describe();
        }
    }

    private static long[] singleWeightShape(CaseRandom r) {
        return switch (r.nextInt(3)) {
            case 0 -> new long[0];
            case 1 -> new long[] {1};
            default -> new long[] {1, 1};
        };
    }
}
