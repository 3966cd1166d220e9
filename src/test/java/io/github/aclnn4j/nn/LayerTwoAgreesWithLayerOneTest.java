package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Layer 2 is layer 1 driven for the caller: for each of the ten operators, in FLOAT, FLOAT16 and
 * BFLOAT16, each reduction, optional inputs absent and present (for the operators without one,
 * the variant named at the test), and seeded shapes (broadcast inputs; transposed, permuted
 * channels-last, sliced and expanded views; 0-d and empty tensors), the outputs of a
 * {@link Functional} call have the documented dtype and shape and are bit for bit the outputs of
 * the same call made through layer 1 as the demo's calling examples make it, on the same bytes with
 * the same strides and offsets ({@link Layer1}, {@link Input}).
 */
class LayerTwoAgreesWithLayerOneTest {
    private static Device device;

    @BeforeAll
    static void open() {
        device = Device.open();
    }

    @AfterAll
    static void close() {
        device.close();
    }

    /** One generated case; {@code variant} picks the shape family and how the inputs are viewed. */
    record Case(DType dtype, Reduction reduction, boolean optional, int variant) {
        Random random(String op) {
            return new Random(Objects.hash(op, dtype.ordinal(), reduction.ordinal(), optional, variant));
        }

        @Override
        public String toString() {
            return dtype + " " + reduction + (optional ? " with optional" : " without optional") + " #" + variant;
        }
    }

    private static final List<DType> DTYPES = List.of(DType.FLOAT, DType.FLOAT16, DType.BFLOAT16);
    private static final int VARIANTS = 5;

    static Stream<Case> lossCases() {
        List<Case> cases = new ArrayList<>();
        for (DType d : DTYPES) {
            for (Reduction r : Reduction.values()) {
                for (boolean optional : new boolean[] {false, true}) {
                    for (int v = 0; v < VARIANTS; v++) {
                        cases.add(new Case(d, r, optional, v));
                    }
                }
            }
        }
        return cases.stream();
    }

    static Stream<Case> plainCases() {
        return lossCases().filter(c -> c.reduction() == Reduction.NONE);
    }

    // ---------------------------------------------------------------- shapes and views

    /** Variant 0: a fixed [3, 5]; 1: rank 3-4; 2: rank 1-3; 3: rank 0-4 (some dimensions 1); 4: empty. */
    private static long[] shape(int variant, Random rnd) {
        return switch (variant) {
            case 0 -> new long[] {3, 5};
            case 1 -> dims(3 + rnd.nextInt(2), 2, 5, rnd);
            case 2 -> dims(1 + rnd.nextInt(3), 1, 7, rnd);
            case 3 -> dims(rnd.nextInt(5), 1, 4, rnd);
            default -> {
                long[] s = dims(1 + rnd.nextInt(3), 1, 4, rnd);
                s[rnd.nextInt(s.length)] = 0;
                yield s;
            }
        };
    }

    private static long[] dims(int rank, int min, int max, Random rnd) {
        long[] s = new long[rank];
        for (int i = 0; i < rank; i++) {
            s[i] = min + rnd.nextInt(max - min + 1);
        }
        return s;
    }

    /** The main input: contiguous (variant 0), transposed or permuted (1), sliced (2), any (3, 4). */
    private static Input.Form selfForm(int variant, Random rnd) {
        return switch (variant) {
            case 0 -> Input.Form.CONTIGUOUS;
            case 1 -> rnd.nextBoolean() ? Input.Form.PERMUTED : Input.Form.TRANSPOSED;
            case 2 -> Input.Form.SLICED;
            default -> anyForm(variant, rnd);
        };
    }

    /** The other inputs: contiguous in variant 0, else any form. */
    private static Input.Form otherForm(int variant, Random rnd) {
        return variant == 0 ? Input.Form.CONTIGUOUS : anyForm(variant, rnd);
    }

    /** Any form; for the empty shapes of variant 4, no expanding (a size-1 dimension expanded to 0). */
    private static Input.Form anyForm(int variant, Random rnd) {
        Input.Form[] all = variant == 4
                ? new Input.Form[] {Input.Form.CONTIGUOUS, Input.Form.TRANSPOSED, Input.Form.SLICED,
                    Input.Form.PERMUTED}
                : Input.Form.values();
        return all[rnd.nextInt(all.length)];
    }

    /** For a gradOutput or weight: the full shape or (sometimes) a shape broadcasting to it. */
    private static long[] maybeBroadcast(long[] shape, int variant, Random rnd) {
        return variant == 0 || rnd.nextBoolean() ? shape.clone() : Input.broadcastable(shape, rnd);
    }

    private static double uniform(Random rnd, double lo, double hi) {
        return lo + (hi - lo) * rnd.nextDouble();
    }

    private static long[] reducedShape(Reduction r, long[] shape) {
        return r == Reduction.NONE ? shape.clone() : new long[0];
    }

    // ---------------------------------------------------------------- the ten operators

    @ParameterizedTest
    @MethodSource("lossCases")
    void binaryCrossEntropyBackward(Case c) {
        Random rnd = c.random("bceBackward");
        long[] shape = shape(c.variant(), rnd);
        DType d = c.dtype();
        Input self = Input.floats(d, shape, selfForm(c.variant(), rnd), () -> uniform(rnd, 0.02, 0.98));
        Input target = Input.floats(d, shape, otherForm(c.variant(), rnd), rnd::nextDouble);
        long[] gradShape = c.reduction() == Reduction.NONE ? maybeBroadcast(shape, c.variant(), rnd)
                : shape.length == 0 || rnd.nextBoolean() ? new long[0] : new long[] {1};
        Input grad = Input.floats(d, gradShape, otherForm(c.variant(), rnd), () -> uniform(rnd, -1, 1));
        Input weight = c.optional()
                ? Input.floats(d, maybeBroadcast(shape, c.variant(), rnd), otherForm(c.variant(), rnd),
                        () -> uniform(rnd, 0, 2))
                : null;
        agree(Arrays.asList(grad, self, target, weight),
                t -> List.of(Functional.binaryCrossEntropyBackward(t.get(0), t.get(1), t.get(2), t.get(3),
                        c.reduction())),
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, shape);
                    l1.run((ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(t.get(0), t.get(1), t.get(2),
                            t.get(3), c.reduction().ordinal(), out.tensor(), ws, ex),
                            Aclnn::binaryCrossEntropyBackward);
                    return List.of(out);
                });
    }

    @ParameterizedTest
    @MethodSource("lossCases")
    void binaryCrossEntropy(Case c) {
        Random rnd = c.random("bce");
        long[] shape = shape(c.variant(), rnd);
        DType d = c.dtype();
        Input self = Input.floats(d, shape, selfForm(c.variant(), rnd), () -> uniform(rnd, 0.02, 0.98));
        Input target = Input.floats(d, shape, otherForm(c.variant(), rnd), rnd::nextDouble);
        Input weight = c.optional()
                ? Input.floats(d, maybeBroadcast(shape, c.variant(), rnd), otherForm(c.variant(), rnd),
                        () -> uniform(rnd, 0, 2))
                : null;
        agree(Arrays.asList(self, target, weight),
                t -> List.of(Functional.binaryCrossEntropy(t.get(0), t.get(1), t.get(2), c.reduction())),
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, reducedShape(c.reduction(), shape));
                    l1.run((ws, ex) -> Aclnn.binaryCrossEntropyGetWorkspaceSize(t.get(0), t.get(1), t.get(2),
                            c.reduction().ordinal(), out.tensor(), ws, ex), Aclnn::binaryCrossEntropy);
                    return List.of(out);
                });
    }

    @ParameterizedTest
    @MethodSource("lossCases")
    void binaryCrossEntropyWithLogits(Case c) {
        Random rnd = c.random("bceWithLogits");
        long[] shape = shape(c.variant(), rnd);
        DType d = c.dtype();
        Input self = Input.floats(d, shape, selfForm(c.variant(), rnd), () -> logit(rnd));
        Input target = Input.floats(d, shape, otherForm(c.variant(), rnd), rnd::nextDouble);
        int which = c.optional() ? 1 + rnd.nextInt(3) : 0; // bit 0: weight, bit 1: posWeight
        Input weight = (which & 1) != 0
                ? Input.floats(d, maybeBroadcast(shape, c.variant(), rnd), otherForm(c.variant(), rnd),
                        () -> uniform(rnd, 0, 2))
                : null;
        Input posWeight = (which & 2) != 0
                ? Input.floats(d, maybeBroadcast(shape, c.variant(), rnd), otherForm(c.variant(), rnd),
                        () -> uniform(rnd, 0.25, 3))
                : null;
        agree(Arrays.asList(self, target, weight, posWeight),
                t -> List.of(Functional.binaryCrossEntropyWithLogits(t.get(0), t.get(1), t.get(2), t.get(3),
                        c.reduction())),
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, reducedShape(c.reduction(), shape));
                    l1.run((ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(t.get(0), t.get(1),
                            t.get(2), t.get(3), c.reduction().ordinal(), out.tensor(), ws, ex),
                            Aclnn::binaryCrossEntropyWithLogits);
                    return List.of(out);
                });
    }

    @ParameterizedTest
    @MethodSource("lossCases")
    void binaryCrossEntropyWithLogitsBackward(Case c) {
        Random rnd = c.random("bceWithLogitsBackward");
        long[] shape = shape(c.variant(), rnd);
        DType d = c.dtype();
        long[] gradShape = c.reduction() == Reduction.NONE ? maybeBroadcast(shape, c.variant(), rnd)
                : shape.length == 0 || rnd.nextBoolean() ? new long[0] : new long[] {1};
        Input grad = Input.floats(d, gradShape, otherForm(c.variant(), rnd), () -> uniform(rnd, -1, 1));
        Input self = Input.floats(d, shape, selfForm(c.variant(), rnd), () -> logit(rnd));
        Input target = Input.floats(d, shape, otherForm(c.variant(), rnd), rnd::nextDouble);
        int which = c.optional() ? 1 + rnd.nextInt(3) : 0;
        Input weight = (which & 1) != 0
                ? Input.floats(d, maybeBroadcast(shape, c.variant(), rnd), otherForm(c.variant(), rnd),
                        () -> uniform(rnd, 0, 2))
                : null;
        Input posWeight = (which & 2) != 0
                ? Input.floats(d, maybeBroadcast(shape, c.variant(), rnd), otherForm(c.variant(), rnd),
                        () -> uniform(rnd, 0.25, 3))
                : null;
        agree(Arrays.asList(grad, self, target, weight, posWeight),
                t -> List.of(Functional.binaryCrossEntropyWithLogitsBackward(t.get(0), t.get(1), t.get(2), t.get(3),
                        t.get(4), c.reduction())),
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, shape);
                    l1.run((ws, ex) -> Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(t.get(0), t.get(1),
                            t.get(2), t.get(3), t.get(4), c.reduction().ordinal(), out.tensor(), ws, ex),
                            Aclnn::binaryCrossEntropyWithLogitsBackward);
                    return List.of(out);
                });
    }

    /** Mostly moderate logits, sometimes large ones. */
    private static double logit(Random rnd) {
        return rnd.nextInt(10) == 0 ? uniform(rnd, -40, 40) : uniform(rnd, -5, 5);
    }

    /** PReLU's weight: per channel when {@code perChannel}, else one element, as [1] or 0-d. */
    private static long[] preluWeightShape(long[] shape, boolean perChannel, Random rnd) {
        long channels = shape.length >= 2 ? shape[1] : 1;
        return perChannel ? new long[] {channels} : rnd.nextBoolean() ? new long[] {1} : new long[0];
    }

    /** Values of PReLU's self: both signs, and some exact zeros (the w·g branch). */
    private static double preluValue(Random rnd) {
        return rnd.nextInt(8) == 0 ? 0 : uniform(rnd, -2, 2);
    }

    /** {@code optional} here: a weight per channel rather than one weight. */
    @ParameterizedTest
    @MethodSource("plainCases")
    void prelu(Case c) {
        Random rnd = c.random("prelu");
        long[] shape = shape(c.variant(), rnd);
        DType d = c.dtype();
        Input self = Input.floats(d, shape, selfForm(c.variant(), rnd), () -> preluValue(rnd));
        Input weight = Input.floats(d, preluWeightShape(shape, c.optional(), rnd), otherForm(c.variant(), rnd),
                () -> uniform(rnd, -0.5, 1));
        agree(Arrays.asList(self, weight),
                t -> List.of(Functional.prelu(t.get(0), t.get(1))),
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, shape);
                    l1.run((ws, ex) -> Aclnn.preluGetWorkspaceSize(t.get(0), t.get(1), out.tensor(), ws, ex),
                            Aclnn::prelu);
                    return List.of(out);
                });
    }

    /** {@code optional} here: a weight per channel rather than one weight. */
    @ParameterizedTest
    @MethodSource("plainCases")
    void preluBackward(Case c) {
        Random rnd = c.random("preluBackward");
        long[] shape = shape(c.variant(), rnd);
        DType d = c.dtype();
        Input grad = Input.floats(d, maybeBroadcast(shape, c.variant(), rnd), otherForm(c.variant(), rnd),
                () -> uniform(rnd, -1, 1));
        Input self = Input.floats(d, shape, selfForm(c.variant(), rnd), () -> preluValue(rnd));
        long[] weightShape = preluWeightShape(shape, c.optional(), rnd);
        Input weight = Input.floats(d, weightShape, otherForm(c.variant(), rnd), () -> uniform(rnd, -0.5, 1));
        agree(Arrays.asList(grad, self, weight),
                t -> {
                    PreluGrads g = Functional.preluBackward(t.get(0), t.get(1), t.get(2));
                    return List.of(g.gradInput(), g.gradWeight());
                },
                (l1, t) -> {
                    Layer1.Output gradInput = l1.output(d, shape);
                    Layer1.Output gradWeight = l1.output(d, weightShape);
                    l1.run((ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(t.get(0), t.get(1), t.get(2),
                            gradInput.tensor(), gradWeight.tensor(), ws, ex), Aclnn::preluBackward);
                    return List.of(gradInput, gradWeight);
                });
    }

    /** GroupNorm's sizes: [N, C, spatial...] with C a multiple of group. */
    private record Norm(long n, long c, long hxw, long group, long[] shape) {}

    private static Norm norm(int variant, Random rnd) {
        long n = variant == 0 ? 2 : variant == 4 ? rnd.nextInt(2) : 1 + rnd.nextInt(3);
        long group = variant == 0 ? 2 : 1 + rnd.nextInt(3);
        long c = group * (variant == 0 ? 2 : 1 + rnd.nextInt(3));
        int spatialRank = variant == 0 ? 1 : variant == 1 ? 1 + rnd.nextInt(2) : rnd.nextInt(3);
        long[] shape = new long[2 + spatialRank];
        shape[0] = n;
        shape[1] = c;
        long hxw = 1;
        for (int i = 2; i < shape.length; i++) {
            shape[i] = variant == 0 ? 3 : 1 + rnd.nextInt(4);
        }
        if (variant == 4 && n > 0) { // empty: N = 0, or else HxW = 0
            if (shape.length == 2) {
                shape = new long[] {n, c, 0};
            } else {
                shape[2 + rnd.nextInt(shape.length - 2)] = 0;
            }
        }
        for (int i = 2; i < shape.length; i++) {
            hxw *= shape[i];
        }
        return new Norm(n, c, hxw, group, shape);
    }

    /** {@code optional}: gamma and/or beta given. */
    @ParameterizedTest
    @MethodSource("plainCases")
    void groupNorm(Case c) {
        Random rnd = c.random("groupNorm");
        Norm g = norm(c.variant(), rnd);
        DType d = c.dtype();
        double eps = rnd.nextBoolean() ? 1e-5 : 0.1;
        Input self = Input.floats(d, g.shape(), selfForm(c.variant(), rnd), () -> uniform(rnd, -3, 3));
        int which = c.optional() ? 1 + rnd.nextInt(3) : 0;
        Input gamma = (which & 1) != 0
                ? Input.floats(d, new long[] {g.c()}, otherForm(c.variant(), rnd), () -> uniform(rnd, -2, 2))
                : null;
        Input beta = (which & 2) != 0
                ? Input.floats(d, new long[] {g.c()}, otherForm(c.variant(), rnd), () -> uniform(rnd, -1, 1))
                : null;
        agree(Arrays.asList(self, gamma, beta),
                t -> {
                    GroupNormResult r = Functional.groupNorm(t.get(0), t.get(1), t.get(2), g.n(), g.c(), g.hxw(),
                            g.group(), eps);
                    return List.of(r.out(), r.mean(), r.rstd());
                },
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, g.shape());
                    Layer1.Output mean = l1.output(d, g.n(), g.group());
                    Layer1.Output rstd = l1.output(d, g.n(), g.group());
                    l1.run((ws, ex) -> Aclnn.groupNormGetWorkspaceSize(t.get(0), t.get(1), t.get(2), g.n(), g.c(),
                            g.hxw(), g.group(), eps, out.tensor(), mean.tensor(), rstd.tensor(), ws, ex),
                            Aclnn::groupNorm);
                    return List.of(out, mean, rstd);
                });
    }

    /** {@code optional}: gamma given. The output mask is all true in variant 0, else drawn. */
    @ParameterizedTest
    @MethodSource("plainCases")
    void groupNormBackward(Case c) {
        Random rnd = c.random("groupNormBackward");
        Norm g = norm(c.variant(), rnd);
        DType d = c.dtype();
        Input grad = Input.floats(d, g.shape(), otherForm(c.variant(), rnd), () -> uniform(rnd, -1, 1));
        Input input = Input.floats(d, g.shape(), selfForm(c.variant(), rnd), () -> uniform(rnd, -3, 3));
        long[] stats = {g.n(), g.group()};
        Input mean = Input.floats(d, stats, otherForm(c.variant(), rnd), () -> uniform(rnd, -1, 1));
        Input rstd = Input.floats(d, stats, otherForm(c.variant(), rnd), () -> uniform(rnd, 0.5, 2));
        Input gamma = c.optional()
                ? Input.floats(d, new long[] {g.c()}, otherForm(c.variant(), rnd), () -> uniform(rnd, -2, 2))
                : null;
        int bits = c.variant() == 0 ? 7 : rnd.nextInt(8);
        boolean[] mask = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
        agree(Arrays.asList(grad, input, mean, rstd, gamma),
                t -> {
                    GroupNormGrads r = Functional.groupNormBackward(t.get(0), t.get(1), t.get(2), t.get(3), t.get(4),
                            g.n(), g.c(), g.hxw(), g.group(), mask.clone());
                    return Arrays.asList(r.gradInput(), r.gradGamma(), r.gradBeta());
                },
                (l1, t) -> {
                    Layer1.Output dx = mask[0] ? l1.output(d, g.shape()) : null;
                    Layer1.Output dGamma = mask[1] ? l1.output(d, g.c()) : null;
                    Layer1.Output dBeta = mask[2] ? l1.output(d, g.c()) : null;
                    l1.run((ws, ex) -> Aclnn.groupNormBackwardGetWorkspaceSize(t.get(0), t.get(1), t.get(2),
                            t.get(3), t.get(4), g.n(), g.c(), g.hxw(), g.group(), l1.boolArray(mask),
                            tensorOf(dx), tensorOf(dGamma), tensorOf(dBeta), ws, ex), Aclnn::groupNormBackward);
                    return Arrays.asList(dx, dGamma, dBeta);
                });
    }

    private static AclTensor tensorOf(Layer1.Output o) {
        return o == null ? null : o.tensor();
    }

    /** NLLLoss's inputs: self [N, C] or [C], targets (some ignored), weights. */
    private record Nll(long[] selfShape, long[] targetShape, long classes, long ignoreIndex, Input self,
            Input target, Input weight) {}

    /**
     * {@code optional} here (NLLLoss has no optional input; its weight is required): ignoreIndex is a
     * valid class rather than -100.
     */
    private static Nll nll(Case c, Random rnd) {
        DType d = c.dtype();
        boolean oneRow = c.variant() == 3 && rnd.nextBoolean();
        long classes = c.variant() == 0 ? 5 : 1 + rnd.nextInt(7);
        long rows = c.variant() == 0 ? 4 : c.variant() == 4 ? 0 : 1 + rnd.nextInt(6);
        long[] selfShape = oneRow ? new long[] {classes} : new long[] {rows, classes};
        long[] targetShape = oneRow ? new long[0] : new long[] {rows};
        long ignoreIndex = c.optional() ? rnd.nextInt((int) classes) : -100;
        Input self = Input.floats(d, selfShape, selfForm(c.variant(), rnd), () -> uniform(rnd, -4, 0));
        DType targetType = rnd.nextBoolean() ? DType.INT64 : DType.INT32;
        Input target = Input.longs(targetType, targetShape, otherForm(c.variant(), rnd),
                () -> rnd.nextInt(4) == 0 ? ignoreIndex : rnd.nextInt((int) classes));
        Input weight = Input.floats(d, new long[] {classes}, otherForm(c.variant(), rnd), () -> uniform(rnd, 0.1, 2));
        return new Nll(selfShape, targetShape, classes, ignoreIndex, self, target, weight);
    }

    @ParameterizedTest
    @MethodSource("lossCases")
    void nllLoss(Case c) {
        Random rnd = c.random("nllLoss");
        Nll p = nll(c, rnd);
        DType d = c.dtype();
        long[] outShape = c.reduction() == Reduction.NONE && p.selfShape().length == 2 ? p.targetShape() : new long[0];
        agree(Arrays.asList(p.self(), p.target(), p.weight()),
                t -> {
                    NllLossResult r = Functional.nllLoss(t.get(0), t.get(1), t.get(2), c.reduction(), p.ignoreIndex());
                    return List.of(r.out(), r.totalWeight());
                },
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, outShape);
                    Layer1.Output totalWeight = l1.output(d);
                    l1.run((ws, ex) -> Aclnn.nllLossGetWorkspaceSize(t.get(0), t.get(1), t.get(2),
                            c.reduction().ordinal(), p.ignoreIndex(), out.tensor(), totalWeight.tensor(), ws, ex),
                            Aclnn::nllLoss);
                    return List.of(out, totalWeight);
                });
    }

    @ParameterizedTest
    @MethodSource("lossCases")
    void nllLossBackward(Case c) {
        Random rnd = c.random("nllLossBackward");
        Nll p = nll(c, rnd);
        DType d = c.dtype();
        long[] gradShape = c.reduction() == Reduction.NONE && p.selfShape().length == 2 ? p.targetShape()
                : rnd.nextBoolean() ? new long[0] : new long[] {1};
        Input grad = Input.floats(d, gradShape, otherForm(c.variant(), rnd), () -> uniform(rnd, -2, 2));
        // what the forward computes: the weights of the rows not ignored (0 when all are, giving ±inf/NaN for mean)
        float[] w = p.weight().viewValues();
        float[] targets = p.target().viewValues();
        double sum = 0;
        for (float t : targets) {
            if ((long) t != p.ignoreIndex()) {
                sum += w[(int) t];
            }
        }
        Input totalWeight = Input.of(d, new float[] {(float) sum}, rnd.nextBoolean() ? new long[0] : new long[] {1});
        agree(Arrays.asList(grad, p.self(), p.target(), p.weight(), totalWeight),
                t -> List.of(Functional.nllLossBackward(t.get(0), t.get(1), t.get(2), t.get(3), c.reduction(),
                        p.ignoreIndex(), t.get(4))),
                (l1, t) -> {
                    Layer1.Output out = l1.output(d, p.selfShape());
                    l1.run((ws, ex) -> Aclnn.nllLossBackwardGetWorkspaceSize(t.get(0), t.get(1), t.get(2), t.get(3),
                            c.reduction().ordinal(), p.ignoreIndex(), t.get(4), out.tensor(), ws, ex),
                            Aclnn::nllLossBackward);
                    return List.of(out);
                });
    }

    // ---------------------------------------------------------------- running both layers

    /**
     * Runs the call in both layers with {@code inputs} (an absent optional input is null in both)
     * and asserts each layer-2 output has the layer-1
     * output's dtype, shape and bits (both null for an output left out).
     */
    private static void agree(List<Input> inputs, Function<List<Tensor>, List<Tensor>> layer2,
            BiFunction<Layer1, List<AclTensor>, List<Layer1.Output>> layer1) {
        List<Tensor> made = new ArrayList<>();
        try (Layer1 l1 = new Layer1()) {
            List<Tensor> in2 = new ArrayList<>();
            List<AclTensor> in1 = new ArrayList<>();
            for (Input i : inputs) {
                in2.add(i == null ? null : i.build(device, made));
                in1.add(l1.input(i));
            }
            List<Tensor> out2 = layer2.apply(in2);
            made.addAll(out2.stream().filter(Objects::nonNull).toList());
            List<Layer1.Output> out1 = layer1.apply(l1, in1);
            assertEquals(out1.size(), out2.size());
            for (int k = 0; k < out1.size(); k++) {
                String what = "output " + k + " for inputs " + inputs;
                Layer1.Output want = out1.get(k);
                Tensor got = out2.get(k);
                if (want == null) {
                    assertNull(got, () -> what + ": masked off, so null");
                    continue;
                }
                assertNotNull(got, what);
                assertEquals(want.dtype(), got.dtype(), () -> what + ": dtype");
                assertArrayEquals(want.shape(), got.shape(), () -> what + ": shape");
                assertSameBits(what, l1.read(want), got.toFloatArray());
            }
        } finally {
            for (Tensor t : made) {
                t.close();
            }
        }
    }

    static void assertSameBits(String what, float[] want, float[] got) {
        assertEquals(want.length, got.length, () -> what + ": element count");
        for (int i = 0; i < want.length; i++) {
            int w = Float.floatToRawIntBits(want[i]);
            int g = Float.floatToRawIntBits(got[i]);
            if (w != g) {
                int at = i;
                throw new AssertionError(what + ": element " + at + " is " + got[at] + " (0x"
                        + Integer.toHexString(g) + ") in layer 2, " + want[at] + " (0x" + Integer.toHexString(w)
                        + ") in layer 1\nlayer 2: " + Arrays.toString(got) + "\nlayer 1: " + Arrays.toString(want));
            }
        }
    }
}
