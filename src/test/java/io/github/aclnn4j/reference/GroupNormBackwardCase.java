package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A random aclnnGroupNormBackward case: N, C, HxW (a third of them at most 64) and group drawn, gradOut and input each given
 * their own shape of N·C·HxW elements, optional gamma, a random output mask (outputs not asked for
 * are passed as null or as tensors that must stay untouched).
 */
public final class GroupNormBackwardCase {
    private static final String[] OUT_NAMES = {"gradInput", "gradGammaOut", "gradBetaOut"};

    private GroupNormBackwardCase() {}

    public static long[][] run(long seed, int maxNumel) {
        return run(seed, maxNumel, false);
    }

    /** As {@link #run(long, int)}; {@code dense} makes a case for the direct loops (see {@link CaseRandom}). */
    public static long[][] run(long seed, int maxNumel, boolean dense) {
        try (CaseContext ctx = new CaseContext("aclnnGroupNormBackward", seed, dense)) {
            ctx.finiteSpecials("gradOut", "input", "mean", "rstd", "gamma");
            CaseRandom r = ctx.random;
            int group = r.nextInt(1, 5);
            int drawnC = group * r.nextInt(1, 5);
            int drawnN = r.nextInt(1, 5);
            // a third of the maps small (up to 8×8): the short rows that kernels batch per group
            int drawnHxw = r.oneIn(3) ? r.nextInt(1, 65) : r.nextInt(1, Math.max(2, maxNumel / (drawnN * drawnC) + 1));
            int emptied = r.oneIn(15) ? r.nextInt(3) : -1;
            int n = emptied == 0 ? 0 : drawnN;
            int c = emptied == 1 ? 0 : drawnC;
            int hxw = emptied == 2 ? 0 : drawnHxw;
            StoredType type = r.floatType();
            boolean hasGamma = r.nextInt(10) < 7;
            boolean[] mask = {r.nextBoolean(), r.nextBoolean(), r.nextBoolean()};
            ctx.note("N", n);
            ctx.note("C", c);
            ctx.note("HxW", hxw);
            ctx.note("group", group);
            ctx.note("mask", Arrays.toString(mask));

            DeviceTensor gradOut = ctx.input("gradOut", type, dataShape(r, n, c, hxw), () -> r.uniform(-2, 2));
            DeviceTensor input = ctx.input("input", type, dataShape(r, n, c, hxw), () -> r.uniform(-3, 3));
            long[] statsShape = statsShape(r, n, group);
            DeviceTensor mean = ctx.input("mean", type, statsShape, () -> r.uniform(-1, 1));
            DeviceTensor rstd = ctx.input("rstd", type, statsShape, () -> r.uniform(0.2, 3));
            DeviceTensor gamma = hasGamma ? ctx.input("gamma", type, new long[] {c}, () -> r.uniform(-2, 2)) : null;
            long[][] outShapes = {input.layout.shape(), {c}, {c}};
            DeviceTensor[] outs = new DeviceTensor[3];
            for (int k = 0; k < 3; k++) {
                if (mask[k] || r.nextBoolean()) {
                    outs[k] = ctx.output(OUT_NAMES[k], type, outShapes[k]);
                }
            }
            return launchAndCheck(ctx, type, gradOut, input, mean, rstd, gamma, n, c, hxw, group, mask, outs);
        }
    }

    /**
     * A case whose gradOut and input are {@code [N, C, H, W]} views of channels-last memory, as
     * PyTorch's {@code channels_last} tensors are, with gradInput channels-last or contiguous;
     * mean, rstd and gamma contiguous.
     */
    public static long[][] runChannelsLast(long seed, boolean gradInputChannelsLast) {
        return runChannelsLast(seed, gradInputChannelsLast, false);
    }

    /**
     * As {@link #runChannelsLast(long, boolean)}; {@code large} draws samples of 150K to 640K
     * elements, beyond those the kernel reads only once.
     */
    public static long[][] runChannelsLast(long seed, boolean gradInputChannelsLast, boolean large) {
        return runChannelsLast(seed, gradInputChannelsLast, large, null);
    }

    /**
     * A large FLOAT case into a contiguous gradInput: NHWC inputs, NCHW output, samples written a
     * stretch of positions at a time (the direct loops' staged path once they are warm).
     */
    public static long[][] runChannelsLastFloatIntoNchw(long seed) {
        return runChannelsLast(seed, false, true, StoredType.FLOAT);
    }

    private static long[][] runChannelsLast(long seed, boolean gradInputChannelsLast, boolean large,
            StoredType forced) {
        try (CaseContext ctx = new CaseContext("aclnnGroupNormBackward channels-last", seed)) {
            ctx.finiteSpecials("gradOut", "input", "mean", "rstd", "gamma");
            CaseRandom r = ctx.random;
            int group = r.nextInt(1, 5);
            int c = group * r.nextInt(1, large ? 5 : 9);
            int n = large ? 1 : r.nextInt(1, 4);
            long[] shape = large ? new long[] {n, c, r.nextInt(150, 200), r.nextInt(150, 200)}
                    : new long[] {n, c, r.nextInt(1, 12), r.nextInt(2, 12)};
            int hxw = (int) (shape[2] * shape[3]);
            StoredType drawn = r.floatType();
            StoredType type = forced != null ? forced : drawn;
            boolean hasGamma = r.nextBoolean();
            boolean[] mask = {true, r.nextBoolean(), r.nextBoolean()};
            ctx.note("shape", Arrays.toString(shape));
            ctx.note("group", group);
            ctx.note("mask", Arrays.toString(mask));
            StridedLayout last = StridedLayout.channelsLast(shape);
            DeviceTensor gradOut = ctx.input("gradOut", type, last, () -> r.uniform(-2, 2));
            DeviceTensor input = ctx.input("input", type, last, () -> r.uniform(-3, 3));
            long[] stats = {n, group};
            DeviceTensor mean = ctx.input("mean", type, StridedLayout.contiguous(stats), () -> r.uniform(-1, 1));
            DeviceTensor rstd = ctx.input("rstd", type, StridedLayout.contiguous(stats), () -> r.uniform(0.2, 3));
            DeviceTensor gamma = hasGamma
                    ? ctx.input("gamma", type, StridedLayout.contiguous(new long[] {c}), () -> r.uniform(-2, 2)) : null;
            DeviceTensor[] outs = {
                ctx.output("gradInput", type, gradInputChannelsLast ? last : StridedLayout.contiguous(shape)),
                mask[1] ? ctx.output("gradGammaOut", type, StridedLayout.contiguous(new long[] {c})) : null,
                mask[2] ? ctx.output("gradBetaOut", type, StridedLayout.contiguous(new long[] {c})) : null};
            return launchAndCheck(ctx, type, gradOut, input, mean, rstd, gamma, n, c, hxw, group, mask, outs);
        }
    }

    /** Runs the operator on the case's tensors, then checks every output against the reference. */
    private static long[][] launchAndCheck(CaseContext ctx, StoredType type, DeviceTensor gradOut, DeviceTensor input,
            DeviceTensor mean, DeviceTensor rstd, DeviceTensor gamma, int n, int c, int hxw, int group, boolean[] mask,
            DeviceTensor[] outs) {
        boolean hasGamma = gamma != null;
        AclBoolArray outputMask = Acl.createBoolArray(mask, 3);
        try {
            Launch.run(ctx::describe, ctx.random.oneIn(4),
                    (ws, ex) -> Aclnn.groupNormBackwardGetWorkspaceSize(gradOut.tensor, input.tensor, mean.tensor,
                            rstd.tensor, hasGamma ? gamma.tensor : null, n, c, hxw, group, outputMask,
                            tensorOf(outs[0]), tensorOf(outs[1]), tensorOf(outs[2]), ws, ex),
                    Aclnn::groupNormBackward);
        } finally {
            Acl.destroyBoolArray(outputMask);
        }
        Reference.GroupNormGrads expected = Reference.groupNormBackward(gradOut.values(), input.values(),
                mean.values(), rstd.values(), hasGamma ? gamma.values() : null, n, c, hxw, group);
        Reference.Expected[] expectedOuts = {expected.gradInput(), expected.gradGamma(), expected.gradBeta()};
        List<long[]> results = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            if (outs[k] == null) {
                continue;
            }
            if (mask[k]) {
                long[] bits = outs[k].readOutputBits();
                Compare.check(OUT_NAMES[k], type, expectedOuts[k], bits, ctx);
                results.add(bits);
            } else {
                outs[k].assertUntouched();
            }
        }
        for (DeviceTensor t : Arrays.asList(gradOut, input, mean, rstd, gamma)) {
            if (t != null) {
                t.assertUntouched();
            }
        }
        return results.toArray(long[][]::new);
    }

    private static AclTensor tensorOf(DeviceTensor t) {
        return t == null ? null : t.tensor;
    }

    /**
     * A shape of N·C·HxW elements: [N, C, HxW] with HxW split into up to six factors, then
     * neighbouring dimensions merged at random (down to 1-D, or 0-d for a single element).
     */
    private static long[] dataShape(CaseRandom r, int n, int c, int hxw) {
        List<Long> dims = new ArrayList<>(List.of((long) n, (long) c));
        dims.addAll(split(r, hxw, r.nextInt(1, 7)));
        for (int merges = r.nextInt(dims.size()); merges > 0 && dims.size() > 1; merges--) {
            int at = r.nextInt(dims.size() - 1);
            dims.set(at, dims.get(at) * dims.remove(at + 1));
        }
        if ((long) n * c * hxw == 1 && r.oneIn(4)) {
            return new long[0];
        }
        return dims.stream().mapToLong(Long::longValue).toArray();
    }

    /** {@code value} as a product of {@code parts} factors (some possibly 1). */
    private static List<Long> split(CaseRandom r, long value, int parts) {
        List<Long> factors = new ArrayList<>();
        long rest = value;
        for (int k = 1; k < parts; k++) {
            List<Long> divisors = new ArrayList<>();
            for (long d = 1; d <= rest; d++) {
                if (rest % d == 0) {
                    divisors.add(d);
                }
            }
            long d = rest == 0 ? 1 : divisors.get(r.nextInt(divisors.size()));
            factors.add(d);
            rest = rest == 0 ? 0 : rest / d;
        }
        factors.add(rest);
        return factors;
    }

    /** mean and rstd: N·group elements as [N, group], [N·group] or [N, group, 1]. */
    private static long[] statsShape(CaseRandom r, int n, int group) {
        return switch (r.nextInt(3)) {
            case 0 -> new long[] {n, group};
            case 1 -> new long[] {(long) n * group};
            default -> new long[] {n, group, 1};
        };
    }
}
