package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.tensor.Shapes;
import java.util.function.DoubleSupplier;

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

            long[] gradShape = r.broadcastableTo(shape);
            DeviceTensor grad = ctx.input("gradOutput", type, gradShape, gradValues(seed, r, Shapes.numel(gradShape)));
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

    /**
     * 16-bit self and gradOutput, each contiguous, transposed or (rank 4) channels-last, of rank 3 or
     * 4 with rows of up to 300 and up to 100 channels: the calls that copy their permuted inputs into
     * the workspace first, and some just outside that path (a broadcast gradOutput, a channels-last
     * gradInput, short rows). Checked against the reference, and bit for bit against the same call
     * on contiguous copies of its inputs.
     */
    public static long[][] runHalfLayouts(long seed) {
        try (CaseContext ctx = new CaseContext("aclnnPreluBackward", seed, false)) {
            CaseRandom r = ctx.random;
            int rank = 3 + r.nextInt(2);
            long[] shape = new long[rank];
            shape[0] = 1 + r.nextInt(3);
            shape[1] = r.oneIn(3) ? 1 + r.nextInt(100) : 2 + r.nextInt(20);
            for (int d = 2; d < rank; d++) {
                shape[d] = d == rank - 1 ? (r.oneIn(5) ? 1 + r.nextInt(63) : 64 + r.nextInt(240)) : 1 + r.nextInt(3);
            }
            StoredType type = r.nextBoolean() ? StoredType.BF16 : StoredType.FLOAT16;
            boolean perChannel = !r.oneIn(4);
            long[] weightShape = perChannel ? new long[] {shape[1]} : singleWeightShape(r);
            long[] gradWeightShape = perChannel ? new long[] {shape[1]} : weightShape;

            DoubleSupplier gradValues = gradValues(seed, r, Shapes.numel(shape));
            DeviceTensor grad = r.oneIn(8)
                    ? ctx.input("gradOutput", type, r.broadcastableTo(shape), gradValues)
                    : ctx.input("gradOutput", type, r.contiguousOrPermuted(shape), gradValues);
            DeviceTensor self = ctx.input("self", type, r.contiguousOrPermuted(shape),
                    () -> r.oneIn(10) ? 0 : r.uniform(-3, 3));
            DeviceTensor weight = ctx.input("weight", type, weightShape, () -> r.uniform(-1, 1));
            StridedLayout gradInputLayout = rank == 4 && r.oneIn(6) ? StridedLayout.channelsLast(shape)
                    : StridedLayout.contiguous(shape);
            long[][] bits = call(ctx, grad, self, weight, ctx.output("gradInput", type, gradInputLayout),
                    ctx.output("gradWeight", type, gradWeightShape));

            checkAgainstReferenceAndContiguousCall(ctx, type, grad, self, weight, shape, gradWeightShape, bits);
            return bits;
        }
    }

    /**
     * FLOAT channels-last self and gradOutput of rank 4 (maps of up to 300 positions, up to 120
     * channels), into a contiguous gradInput and into a channels-last one: both read as rows of
     * channels in place once warm, the first stored through transposing panels, the second in its
     * own order. Both checked against the reference, and against each other bit for bit: the same
     * operations per element, each channel's sum in the same order.
     */
    public static long[][] runChannelsLastFloat(long seed) {
        try (CaseContext ctx = new CaseContext("aclnnPreluBackward", seed, false)) {
            CaseRandom r = ctx.random;
            long[] shape = {1 + r.nextInt(3), 2 + r.nextInt(r.oneIn(3) ? 119 : 20), 1 + r.nextInt(3),
                    r.oneIn(5) ? 1 + r.nextInt(63) : 8 + r.nextInt(292)};
            StoredType type = StoredType.FLOAT;
            boolean perChannel = !r.oneIn(4);
            long[] weightShape = perChannel ? new long[] {shape[1]} : singleWeightShape(r);
            long[] gradWeightShape = perChannel ? new long[] {shape[1]} : weightShape;
            DeviceTensor grad = ctx.input("gradOutput", type, StridedLayout.channelsLast(shape),
                    gradValues(seed, r, Shapes.numel(shape)));
            DeviceTensor self = ctx.input("self", type, StridedLayout.channelsLast(shape),
                    () -> r.oneIn(10) ? 0 : r.uniform(-3, 3));
            DeviceTensor weight = ctx.input("weight", type, weightShape, () -> r.uniform(-1, 1));
            long[][] bits = call(ctx, grad, self, weight,
                    ctx.output("gradInput", type, StridedLayout.contiguous(shape)),
                    ctx.output("gradWeight", type, gradWeightShape));

            Reference.Expected[] expected = Reference.preluBackward(grad.arr(), self.arr(), weight.values());
            Compare.check("gradInput", type, expected[0], bits[0], ctx);
            Compare.check("gradWeight", type, expected[1], bits[1], ctx);
            long[][] channelsLastBits = call(ctx, grad, self, weight,
                    ctx.output("channels-last gradInput", type, StridedLayout.channelsLast(shape)),
                    ctx.output("gradWeight of the channels-last call", type, gradWeightShape));
            String channelsLast = "the call into a channels-last gradInput";
            Compare.sameBits("gradInput", type, bits[0], channelsLastBits[0], channelsLast, ctx);
            Compare.sameBits("gradWeight", type, bits[1], channelsLastBits[1], channelsLast, ctx);
            grad.assertUntouched();
            self.assertUntouched();
            return bits;
        }
    }

    /**
     * BFLOAT16 channels-last self and gradOutput of rank 4 or 5 into a contiguous gradInput: mostly
     * maps whose positions are whole steps of 32 (read in place, the gradient transposed in 32-bit
     * pairs, each channel's sum in the dense loop's lanes), from 64 positions to past a block of 4096
     * (so long rows cut into blocks), 32 to 160 channels (groups of 2F and the one-by-one edge).
     * Some cases put infinities and subnormals in gradOutput where self is positive, side by side in
     * a channel's first two positions, so that a pair of gradients packs to a signalling NaN's bits.
     * Checked against the reference, and bit for bit against the same call on contiguous copies.
     */
    public static long[][] runChannelsLastBf16(long seed) {
        try (CaseContext ctx = new CaseContext("aclnnPreluBackward", seed, false)) {
            CaseRandom r = ctx.random;
            long channels = r.oneIn(2) ? 32L * (1 + r.nextInt(4)) : 32 + r.nextInt(129);
            long positions = r.oneIn(8) ? 64 + r.nextInt(300) : 32L * (2 + r.nextInt(r.oneIn(6) ? 160 : 40));
            long samples = positions * channels > 200_000 ? 1 : 1 + r.nextInt(3);
            long[] shape = r.oneIn(4) && positions % 4 == 0
                    ? new long[] {samples, channels, 2, 2, positions / 4}
                    : new long[] {samples, channels, positions % 2 == 0 && r.nextBoolean() ? 2 : 1, 0};
            if (shape.length == 4) {
                shape[3] = positions / shape[2];
            }
            StoredType type = StoredType.BF16;
            boolean perChannel = !r.oneIn(4);
            long[] weightShape = perChannel ? new long[] {shape[1]} : singleWeightShape(r);
            long[] gradWeightShape = perChannel ? new long[] {shape[1]} : weightShape;
            boolean specials = r.oneIn(4);
            long[] next = {0, 0}; // memory order: channel 0's first two positions are values 0 and C
            DeviceTensor grad = ctx.input("gradOutput", type, StridedLayout.channelsLast(shape), () -> {
                long i = next[0]++;
                if (specials && (i == 0 || i == channels)) { // a subnormal, then +inf
                    return i == 0 ? 1e-40 : Double.POSITIVE_INFINITY;
                }
                return specials && r.oneIn(200) ? (r.nextBoolean() ? Double.NEGATIVE_INFINITY : 1e-40)
                        : r.uniform(-2, 2);
            });
            DeviceTensor self = ctx.input("self", type, StridedLayout.channelsLast(shape), () -> {
                long i = next[1]++;
                return specials && (i == 0 || i == channels) ? 1 : r.oneIn(10) ? 0 : r.uniform(-3, 3);
            });
            DeviceTensor weight = ctx.input("weight", type, weightShape, () -> r.uniform(-1, 1));
            long[][] bits = call(ctx, grad, self, weight,
                    ctx.output("gradInput", type, StridedLayout.contiguous(shape)),
                    ctx.output("gradWeight", type, gradWeightShape));

            checkAgainstReferenceAndContiguousCall(ctx, type, grad, self, weight, shape, gradWeightShape, bits);
            return bits;
        }
    }

    /**
     * {@code bits} (gradInput's, gradWeight's) against the reference, the inputs untouched, and bit
     * for bit against the same call on contiguous copies of gradOutput and self.
     */
    private static void checkAgainstReferenceAndContiguousCall(CaseContext ctx, StoredType type, DeviceTensor grad,
            DeviceTensor self, DeviceTensor weight, long[] shape, long[] gradWeightShape, long[][] bits) {
        Reference.Expected[] expected = Reference.preluBackward(grad.arr(), self.arr(), weight.values());
        Compare.check("gradInput", type, expected[0], bits[0], ctx);
        Compare.check("gradWeight", type, expected[1], bits[1], ctx);
        grad.assertUntouched();
        self.assertUntouched();

        DeviceTensor denseGrad = ctx.contiguousCopy("gradOutput", grad);
        DeviceTensor denseSelf = ctx.contiguousCopy("self", self);
        long[][] denseBits = call(ctx, denseGrad, denseSelf, weight,
                ctx.output("contiguous gradInput", type, StridedLayout.contiguous(shape)),
                ctx.output("contiguous gradWeight", type, gradWeightShape));
        Compare.sameBits("gradInput", type, bits[0], denseBits[0], "the same call on contiguous inputs", ctx);
        Compare.sameBits("gradWeight", type, bits[1], denseBits[1], "the same call on contiguous inputs", ctx);
    }

    private static long[][] call(CaseContext ctx, DeviceTensor grad, DeviceTensor self, DeviceTensor weight,
            DeviceTensor gradInput, DeviceTensor gradWeight) {
        Launch.run(ctx::describe, ctx.random.oneIn(4),
                (ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(grad.tensor, self.tensor, weight.tensor,
                        gradInput.tensor, gradWeight.tensor, ws, ex),
                Aclnn::preluBackward);
        return new long[][] {gradInput.readOutputBits(), gradWeight.readOutputBits()};
    }

    /**
     * gradOutput's values: uniform in [-2, 2), and in one seed of eight also a few infinities and
     * NaNs among {@code count} values, which meet positive and negative self alike. A positive self's
     * term of gradWeight is 0 whatever gradOutput holds (SPEC §5.2): a sum of {@code min(x, 0)·g}
     * made it NaN there. Decided by the seed, so the other cases draw what they drew before.
     */
    private static DoubleSupplier gradValues(long seed, CaseRandom r, long count) {
        if (Long.remainderUnsigned(seed, 8) != 5) {
            return () -> r.uniform(-2, 2);
        }
        int oneIn = (int) Math.max(4, Math.min(count / 3, 1 << 20));
        return () -> !r.oneIn(oneIn) ? r.uniform(-2, 2) : switch (r.nextInt(3)) {
            case 0 -> Double.POSITIVE_INFINITY;
            case 1 -> Double.NEGATIVE_INFINITY;
            default -> Double.NaN;
        };
    }

    private static long[] singleWeightShape(CaseRandom r) {
        return switch (r.nextInt(3)) {
            case 0 -> new long[0];
            case 1 -> new long[] {1};
            default -> new long[] {1, 1};
        };
    }
}
