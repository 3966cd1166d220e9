package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ten operators' random cases with infinities, NaN, signed zeros and subnormals among their
 * floating inputs ({@link CaseContext#withSpecials}), each checked against the float64 reference,
 * which computes the operators' formulas in IEEE arithmetic: a kernel that rewrites a formula into
 * one that is equal only for finite values (a sum of {@code min(x, 0)·g} for PReLU's gradWeight,
 * NaN where gradOutput held an infinity over a positive self) fails here. Random layouts (the rows)
 * and dense ones (the direct loops) alike.
 */
class SpecialValuesRandomTest {
    private static final int CASES_PER_KIND = 40;
    /** Several blocks, so that direct loops, the rows after them and both threads all meet the values. */
    private static final int DENSE_NUMEL = 3 * 4096 + 100;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    private interface Case {
        void run(long seed, int maxNumel, boolean dense);
    }

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> cases = Stream.builder();
        add(cases, "BinaryCrossEntropyBackward", 0x5E_0100L, BinaryCrossEntropyBackwardCase::run);
        add(cases, "PreluBackward", 0x5E_0200L, PreluBackwardCase::run);
        add(cases, "BinaryCrossEntropyWithLogits", 0x5E_0300L, BinaryCrossEntropyWithLogitsCase::run);
        add(cases, "GroupNormBackward", 0x5E_0400L, GroupNormBackwardCase::run);
        add(cases, "NllLossBackward", 0x5E_0500L, NllLossBackwardCase::run);
        add(cases, "Prelu", 0x5E_0600L, PreluCase::run);
        add(cases, "BinaryCrossEntropy", 0x5E_0700L, BinaryCrossEntropyCase::run);
        add(cases, "BinaryCrossEntropyWithLogitsBackward", 0x5E_0800L, BinaryCrossEntropyWithLogitsBackwardCase::run);
        add(cases, "NllLoss", 0x5E_0900L, NllLossCase::run);
        add(cases, "GroupNorm", 0x5E_0A00L, GroupNormCase::run);
        // the calls computed in their inputs' memory order, and the channels-last kernels
        addLayouts(cases, "BinaryCrossEntropyBackward 16-bit layouts", 0x5E_1100L,
                BinaryCrossEntropyBackwardCase::runHalfLayouts);
        addLayouts(cases, "BinaryCrossEntropyBackward FLOAT layouts", 0x5E_1200L,
                BinaryCrossEntropyBackwardCase::runFloatLayouts);
        addLayouts(cases, "BinaryCrossEntropy 16-bit layouts", 0x5E_1300L, BinaryCrossEntropyCase::runHalfLayouts);
        addLayouts(cases, "BinaryCrossEntropy FLOAT layouts", 0x5E_1400L, BinaryCrossEntropyCase::runFloatLayouts);
        addLayouts(cases, "BinaryCrossEntropyWithLogits 16-bit layouts", 0x5E_1500L,
                BinaryCrossEntropyWithLogitsCase::runHalfLayouts);
        addLayouts(cases, "BinaryCrossEntropyWithLogits FLOAT layouts", 0x5E_1600L,
                BinaryCrossEntropyWithLogitsCase::runFloatLayouts);
        addLayouts(cases, "BinaryCrossEntropyWithLogitsBackward 16-bit layouts", 0x5E_1700L,
                BinaryCrossEntropyWithLogitsBackwardCase::runHalfLayouts);
        addLayouts(cases, "BinaryCrossEntropyWithLogitsBackward FLOAT layouts", 0x5E_1800L,
                BinaryCrossEntropyWithLogitsBackwardCase::runFloatLayouts);
        addLayouts(cases, "PreluBackward 16-bit layouts", 0x5E_1900L, PreluBackwardCase::runHalfLayouts);
        addLayouts(cases, "PreluBackward FLOAT channels-last", 0x5E_1A00L, PreluBackwardCase::runChannelsLastFloat);
        addLayouts(cases, "Prelu 16-bit channels-last", 0x5E_1B00L, PreluCase::runChannelsLastHalf);
        addLayouts(cases, "Prelu FLOAT channels-last", 0x5E_1C00L, PreluCase::runChannelsLastFloat);
        addLayouts(cases, "GroupNormBackward channels-last", 0x5E_1D00L, s -> GroupNormBackwardCase.runChannelsLast(s,
                (s & 1) == 0));
        return cases.build();
    }

    private static void addLayouts(Stream.Builder<Arguments> cases, String kind, long firstSeed, LongConsumer run) {
        for (long seed = firstSeed; seed < firstSeed + CASES_PER_KIND / 2; seed++) {
            cases.add(Arguments.of(kind, seed, "", run));
        }
    }

    private static void add(Stream.Builder<Arguments> cases, String operator, long firstSeed, Case run) {
        for (long seed = firstSeed; seed < firstSeed + CASES_PER_KIND; seed++) {
            boolean dense = (seed & 1) == 0;
            cases.add(Arguments.of(operator, seed, dense ? "dense" : "random layouts",
                    (LongConsumer) s -> run.run(s, DENSE_NUMEL, dense)));
        }
    }

    @ParameterizedTest(name = "{0} seed {1} {2}")
    @MethodSource("cases")
    void matchesReference(String operator, long seed, String kind, LongConsumer run) {
        run.accept(CaseContext.withSpecials(seed));
    }
}
