package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random cases whose tensors all share one float type and lie densely in memory (a few
 * operands broadcast from a single value): the layouts that take the kernels' direct loops rather
 * than rows, each checked against the float64 reference. Sizes run to several blocks, so that
 * whole loop steps, the rows that finish a block and the split across threads all occur.
 */
class DenseRandomTest {
    private static final int CASES_PER_OPERATOR = 150;
    private static final int MAX_NUMEL = 3 * 4096 + 100;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> cases = Stream.builder();
        add(cases, "BinaryCrossEntropyBackward", 0xE1_0000L, BinaryCrossEntropyBackwardCase::run);
        add(cases, "PreluBackward", 0xE2_0000L, PreluBackwardCase::run);
        add(cases, "BinaryCrossEntropyWithLogits", 0xE3_0000L, BinaryCrossEntropyWithLogitsCase::run);
        add(cases, "GroupNormBackward", 0xE4_0000L, GroupNormBackwardCase::run);
        add(cases, "NllLossBackward", 0xE5_0000L, NllLossBackwardCase::run);
        add(cases, "Prelu", 0xE6_0000L, PreluCase::run);
        add(cases, "BinaryCrossEntropy", 0xE7_0000L, BinaryCrossEntropyCase::run);
        add(cases, "BinaryCrossEntropyWithLogitsBackward", 0xE8_0000L, BinaryCrossEntropyWithLogitsBackwardCase::run);
        add(cases, "NllLoss", 0xE9_0000L, NllLossCase::run);
        add(cases, "GroupNorm", 0xEA_0000L, GroupNormCase::run);
        return cases.build();
    }

    private interface DenseCase {
        long[][] run(long seed, int maxNumel, boolean dense);
    }

    private static void add(Stream.Builder<Arguments> cases, String operator, long firstSeed, DenseCase run) {
        for (long seed = firstSeed; seed < firstSeed + CASES_PER_OPERATOR; seed++) {
            cases.add(Arguments.of(operator, seed, (BiFunction<Long, Integer, long[][]>) (s, n) -> run.run(s, n, true)));
        }
    }

    @ParameterizedTest(name = "{0} dense seed {1}")
    @MethodSource("cases")
    void matchesReference(String operator, long seed, BiFunction<Long, Integer, long[][]> run) {
        run.apply(seed, MAX_NUMEL);
    }

    /** One case in eight again, its tensors in Java arrays: the direct loops take native memory only. */
    static Stream<Arguments> javaArrayCases() {
        return cases().filter(c -> ((Long) c.get()[1] & 7) == 0);
    }

    @ParameterizedTest(name = "{0} dense seed {1} in Java arrays")
    @MethodSource("javaArrayCases")
    void matchesReferenceInJavaArrays(String operator, long seed, BiFunction<Long, Integer, long[][]> run) {
        DeviceTensor.inJavaArrays(() -> run.apply(seed, MAX_NUMEL));
    }
}
