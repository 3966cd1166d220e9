package io.github.aclnn4j.reference;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
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
    /**
     * The largest of the large cases: past {@code Warmup.SMALL_CALL} and the threshold for going
     * parallel, so that a cold call's plain Java is split across the compute threads.
     */
    static final int LARGE_NUMEL = 2 * 65536 + 4096 + 100;

    /** (seed, dense) to the case's output bits, by operator name. */
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> ALL = new LinkedHashMap<>();
    /** The same, at up to {@link #LARGE_NUMEL} elements. */
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> LARGE = new LinkedHashMap<>();
    /**
     * The suites' cases with layouts of their own (transposed and channels-last inputs and outputs,
     * the calls that stage copies in the workspace or transpose in registers): the 16-bit cases
     * where a case is "mixed", the FLOAT ones where it is "dense".
     */
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> LAYOUTS = new LinkedHashMap<>();

    static {
        put(MAX_NUMEL, ALL);
        put(LARGE_NUMEL, LARGE);
        LAYOUTS.put("BinaryCrossEntropyBackward layouts", (s, floats) -> floats
                ? BinaryCrossEntropyBackwardCase.runFloatLayouts(s) : BinaryCrossEntropyBackwardCase.runHalfLayouts(s));
        LAYOUTS.put("BinaryCrossEntropyWithLogits layouts", (s, floats) -> floats
                ? BinaryCrossEntropyWithLogitsCase.runFloatLayouts(s)
                : BinaryCrossEntropyWithLogitsCase.runHalfLayouts(s));
        LAYOUTS.put("BinaryCrossEntropyWithLogitsBackward layouts", (s, floats) -> floats
                ? BinaryCrossEntropyWithLogitsBackwardCase.runFloatLayouts(s)
                : BinaryCrossEntropyWithLogitsBackwardCase.runHalfLayouts(s));
        LAYOUTS.put("BinaryCrossEntropy layouts", (s, floats) -> floats
                ? BinaryCrossEntropyCase.runFloatLayouts(s) : BinaryCrossEntropyCase.runHalfLayouts(s));
        LAYOUTS.put("PreluBackward layouts", (s, floats) -> floats
                ? PreluBackwardCase.runChannelsLastFloat(s) : PreluBackwardCase.runHalfLayouts(s));
        LAYOUTS.put("PreluBackward channels-last BFLOAT16", (s, floats) -> PreluBackwardCase.runChannelsLastBf16(s));
        LAYOUTS.put("Prelu channels-last", (s, floats) -> floats
                ? PreluCase.runChannelsLastFloat(s) : PreluCase.runChannelsLastHalf(s));
        LAYOUTS.put("GroupNormBackward channels-last", (s, floats) -> floats
                ? GroupNormBackwardCase.runChannelsLastFloatIntoNchw(s)
                : GroupNormBackwardCase.runChannelsLast(s, true));
    }

    private static void put(int max, Map<String, BiFunction<Long, Boolean, long[][]>> into) {
        into.put("BinaryCrossEntropyBackward", (s, d) -> BinaryCrossEntropyBackwardCase.run(s, max, d));
        into.put("BinaryCrossEntropyWithLogits", (s, d) -> BinaryCrossEntropyWithLogitsCase.run(s, max, d));
        into.put("PreluBackward", (s, d) -> PreluBackwardCase.run(s, max, d));
        into.put("GroupNormBackward", (s, d) -> GroupNormBackwardCase.run(s, max, d));
        into.put("NllLossBackward", (s, d) -> NllLossBackwardCase.run(s, max, d));
        into.put("BinaryCrossEntropy", (s, d) -> BinaryCrossEntropyCase.run(s, max, d));
        into.put("Prelu", (s, d) -> PreluCase.run(s, max, d));
        into.put("GroupNorm", (s, d) -> GroupNormCase.run(s, max, d));
        into.put("NllLoss", (s, d) -> NllLossCase.run(s, max, d));
        into.put("BinaryCrossEntropyWithLogitsBackward",
                (s, d) -> BinaryCrossEntropyWithLogitsBackwardCase.run(s, max, d));
    }

    private OperatorCases() {}

    /** Every operator. */
    static Map<String, BiFunction<Long, Boolean, long[][]>> all() {
        return ALL;
    }

    /** The cases with layouts of their own ({@link #LAYOUTS}). */
    static Map<String, BiFunction<Long, Boolean, long[][]>> layouts() {
        return LAYOUTS;
    }

    /** Every operator, at up to {@link #LARGE_NUMEL} elements. */
    static Map<String, BiFunction<Long, Boolean, long[][]>> large() {
        return LARGE;
    }

    /** The operators named, in that order. */
    static Map<String, BiFunction<Long, Boolean, long[][]>> named(String... names) {
        Map<String, BiFunction<Long, Boolean, long[][]>> some = new LinkedHashMap<>();
        for (String name : names) {
            some.put(name, java.util.Objects.requireNonNull(ALL.get(name), name));
        }
        return some;
    }

    /**
     * The lines of {@code operators}' cases: per operator {@code seeds} seeds (the first operator's
     * from {@code first}, each next one's 0x1000 further), each mixed and then dense.
     */
    static List<String> lines(Map<String, BiFunction<Long, Boolean, long[][]>> operators, int seeds, long first) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, BiFunction<Long, Boolean, long[][]>> op : operators.entrySet()) {
            for (long seed = first; seed < first + seeds; seed++) {
                for (boolean dense : new boolean[] {false, true}) {
                    lines.add(line(op.getKey(), seed, dense, op.getValue().apply(seed, dense)));
                }
            }
            first += 0x1000L;
        }
        return lines;
    }

    /** The cases (their lines without the digest) whose bits differ between two runs of the same cases. */
    static List<String> differing(List<String> one, List<String> other) {
        List<String> differing = new ArrayList<>();
        for (int i = 0; i < one.size(); i++) {
            if (!one.get(i).equals(other.get(i))) {
                differing.add(one.get(i).replaceAll(" digest .*", ""));
            }
        }
        return differing;
    }

    /** {@code case OPERATOR seed S dense D digest H/N}: one case's line, as both JVMs print it. */
    static String line(String operator, long seed, boolean dense, long[][] bits) {
        return "case " + operator + " seed " + seed + " dense " + dense + " digest " + Arrays.deepHashCode(bits) + "/"
                + Arrays.stream(bits).mapToInt(b -> b.length).sum();
    }
}
