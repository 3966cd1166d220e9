package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Aclnn;

/**
 * A random aclnnPrelu case: per-channel or single weight of any shape, self, weight and out each of
 * any float dtype (not in a dense case), random or channels-last layouts, format tags. The result
 * is one rounding of an exact product (to the promoted dtype, then to out's when they differ), so
 * every element must be the reference's bits exactly.
 */
public final class PreluCase {
    private PreluCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case for the direct loops (see {@link CaseRandom}). */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnPrelu", seed, dense)) {
            CaseRandom r = ctx.random;
            long[] shape = r.shape(r.nextInt(9), maxNumel, 20);
            StoredType selfType = r.floatType();
            StoredType weightType = r.oneIn(2) ? selfType : r.floatType();
            StoredType outType = r.oneIn(2) ? StoredType.promote(selfType, weightType) : r.floatType();
            long channels = shape.length >= 2 ? shape[1] : 1;
            long[] weightShape = channels > 1 && r.nextInt(5) < 3 ? weightShape(r, channels) : singleWeightShape(r);
            boolean channelsLast = shape.length >= 3 && !dense && r.oneIn(4);
            return check(ctx, shape, selfType, weightType, outType, weightShape, channelsLast,
                    channelsLast && r.nextBoolean());
        }
    }

    /**
     * A random case whose self is a channels-last 16-bit tensor of 3 to 5 dimensions with maps of
     * up to 300 positions and up to 600 channels, its out mostly contiguous: the calls that copy
     * self into out's layout before computing there, and those just outside that path's bounds.
     */
    public static long[][] runChannelsLastHalf(long seed) {
        return runChannelsLast(seed, false);
    }

    /**
     * {@link #runChannelsLastHalf} for a FLOAT self, mostly into a contiguous out: the calls
     * computed and transposed in one pass once PReLU's direct loops are warm.
     */
    public static long[][] runChannelsLastFloat(long seed) {
        return runChannelsLast(seed, true);
    }

    private static long[][] runChannelsLast(long seed, boolean floatSelf) {
        try (CaseContext ctx = new CaseContext("aclnnPrelu", seed, false)) {
            CaseRandom r = ctx.random;
            int rank = 3 + r.nextInt(3);
            long[] shape = new long[rank];
            shape[0] = 1 + r.nextInt(3);
            shape[1] = r.oneIn(4) ? 1 + r.nextInt(600) : 1 + r.nextInt(40);
            long positions = r.oneIn(5) ? 1 + r.nextInt(63) : 64 + r.nextInt(240);
            for (int d = 2; d < rank; d++) { // the positions split over the spatial dimensions
                shape[d] = d == rank - 1 ? positions : 1 + r.nextInt(2);
            }
            StoredType selfType = floatSelf ? StoredType.FLOAT : r.nextBoolean() ? StoredType.BF16 : StoredType.FLOAT16;
            StoredType weightType = r.oneIn(5) ? r.floatType() : selfType;
            StoredType outType = r.oneIn(5) ? r.floatType() : StoredType.promote(selfType, weightType);
            long[] weightShape = shape[1] > 1 && !r.oneIn(5) ? weightShape(r, shape[1]) : singleWeightShape(r);
            return check(ctx, shape, selfType, weightType, outType, weightShape, true, r.oneIn(5));
        }
    }

    /** Runs the call and checks every element of out against the exact product, rounded as CANN rounds it. */
    private static long[][] check(CaseContext ctx, long[] shape, StoredType selfType, StoredType weightType,
            StoredType outType, long[] weightShape, boolean channelsLast, boolean outChannelsLast) {
        {
            CaseRandom r = ctx.random;
            long channels = shape.length >= 2 ? shape[1] : 1;
            ctx.note("channelsLast", channelsLast);
            ctx.note("outChannelsLast", outChannelsLast);

            DeviceTensor self = channelsLast
                    ? ctx.input("self", selfType, StridedLayout.channelsLast(shape), () -> value(r))
                    : ctx.input("self", selfType, shape, () -> value(r));
            DeviceTensor weight = ctx.input("weight", weightType, weightShape, () -> r.uniform(-1, 1));
            DeviceTensor out = outChannelsLast
                    ? ctx.output("out", outType, StridedLayout.channelsLast(shape))
                    : ctx.output("out", outType, shape);

            Launch.run(ctx::describe, r.oneIn(4),
                    (ws, ex) -> Aclnn.preluGetWorkspaceSize(self.tensor, weight.tensor, out.tensor, ws, ex),
                    Aclnn::prelu);

            double[] x = self.arr().data();
            double[] w = weight.values();
            StoredType promoted = StoredType.promote(selfType, weightType);
            long inner = x.length == 0 ? 1 : x.length / Math.max(1, shape.length >= 2 ? shape[0] * channels : 1);
            long[] bits = out.readOutputBits();
            for (int i = 0; i < x.length; i++) {
                double wi = w.length == 1 ? w[0] : w[(int) ((i / inner) % channels)];
                double exact = x[i] > 0 ? x[i] : wi * x[i]; // exact in double: two floats' product
                long expected = outType.encode(promoted.round(exact));
                if (bits[i] != expected) {
                    throw new AssertionError("out[" + i + "] (row-major view index) = " + outType.decode(bits[i])
                            + " (bits 0x" + Long.toHexString(bits[i]) + "), expected " + outType.decode(expected)
                            + " (bits 0x" + Long.toHexString(expected) + ") from self " + x[i] + ", weight " + wi
                            + "\n" + ctx.describe());
                }
            }
            self.assertUntouched();
            weight.assertUntouched();
            return new long[][] {bits};
        }
    }

    private static double value(CaseRandom r) {
        return r.oneIn(10) ? (r.nextBoolean() ? 0.0 : -0.0) : r.uniform(-3, 3);
    }

    /** C weights in a shape of their own: [C], [1,C], [C,1,1] or split into two factors. */
    private static long[] weightShape(CaseRandom r, long channels) {
        return switch (r.nextInt(4)) {
            case 0 -> new long[] {1, channels};
            case 1 -> new long[] {channels, 1, 1};
            case 2 -> channels % 2 == 0 ? new long[] {2, channels / 2} : new long[] {channels};
            default -> new long[] {channels};
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
