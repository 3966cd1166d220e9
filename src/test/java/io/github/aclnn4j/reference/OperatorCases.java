package io.github.aclnn4j.reference;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Each operator's seeded random case (its {@code *Case} class) by name, at the size the agreement
 * tests run in two JVMs and compare by digest ({@link ColdWarmAgreementTest},
 * {@link VectorFreeAgreementTest}).
 */
final class OperatorCases {
    /** The largest case: a few blocks of 4096 and a remainder, so that calls split and leave tails. */
    static final int MAX_NUMEL = 3 * 4096 + 100;

    /** (seed, dense) to the case's output bits, by operator name. */
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("BinaryCrossEntropyBackward", (s, d) -> BinaryCrossEntropyBackwardCase.run(s, MAX_NUMEL, d));
        ALL.put("BinaryCrossEntropyWithLogits", (s, d) -> BinaryCrossEntropyWithLogitsCase.run(s, MAX_NUMEL, d));
        ALL.put("PreluBackward", (s, d) -> PreluBackwardCase.run(s, MAX_NUMEL, d));
        ALL.put("GroupNormBackward", (s, d) -> GroupNormBackwardCase.run(s, MAX_NUMEL, d));
        ALL.put("NllLossBackward", (s, d) -> NllLossBackwardCase.run(s, MAX_NUMEL, d));
        ALL.put("BinaryCrossEntropy", (s, d) -> BinaryCrossEntropyCase.run(s, MAX_NUMEL, d));
        ALL.put("Prelu", (s, d) -> PreluCase.run(s, MAX_NUMEL, d));
        ALL.put("GroupNorm", (s, d) -> GroupNormCase.run(s, MAX_NUMEL, d));
        ALL.put("NllLoss", (s, d) -> NllLossCase.run(s, MAX_NUMEL, d));
        ALL.put("BinaryCrossEntropyWithLogitsBackward",
                (s, d) -> BinaryCrossEntropyWithLogitsBackwardCase.run(s, MAX_NUMEL, d));
    }

    private OperatorCases() {}

    /** Every operator. */
    static Map<String, BiFunction<Long, Boolean, long[][]>> all() {
        return ALL;
    }

    /** The operators named, in that order. */
    static Map<String, BiFunction<Long, Boolean, long[][]>> named(String... names) {
        Map<String, BiFunction<Long, Boolean, long[][]>> some = new LinkedHashMap<>();
        for (String name : names) {
            some.put(name, java.util.Objects.requireNonNull(ALL.get(name), name));
        }
        return some;
    }

    /** {@code case OPERATOR seed S dense D digest H/N}: one case's line, as both JVMs print it. */
    static String line(String operator, long seed, boolean dense, long[][] bits) {
        return "case " + operator + " seed " + seed + " dense " + dense + " digest " + Arrays.deepHashCode(bits) + "/"
                + Arrays.stream(bits).mapToInt(b -> b.length).sum();
    }
}
