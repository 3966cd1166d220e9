package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Seeded random cases of BinaryCrossEntropy, each checked against the float64 reference. */
class BinaryCrossEntropyRandomTest {
    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static LongStream seeds() {
        return RandomCases.seeds(0x7000_0000L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void matchesReference(long seed) {
        BinaryCrossEntropyCase.run(seed, RandomCases.MAX_NUMEL);
    }

    static LongStream halfLayoutSeeds() {
        return LongStream.range(0, 100).map(i -> 0x7100_0000L + i);
    }

    /** 16-bit transposed and channels-last operands: reduction none computed in their inputs' memory order. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("halfLayoutSeeds")
    void halfLayoutsMatchReferenceAndContiguousCall(long seed) {
        BinaryCrossEntropyCase.runHalfLayouts(seed);
    }

    static LongStream floatLayoutSeeds() {
        return LongStream.range(0, 100).map(i -> 0x7200_0000L + i);
    }

    /** FLOAT transposed and channels-last operands: reduction none computed in their inputs' memory order. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("floatLayoutSeeds")
    void floatLayoutsMatchReferenceAndContiguousCall(long seed) {
        BinaryCrossEntropyCase.runFloatLayouts(seed);
    }
}
