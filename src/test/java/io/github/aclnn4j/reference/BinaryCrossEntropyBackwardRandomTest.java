package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Seeded random cases of BinaryCrossEntropyBackward, each checked against the float64 reference. */
class BinaryCrossEntropyBackwardRandomTest {
    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static LongStream seeds() {
        return RandomCases.seeds(0x1000_0000L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void matchesReference(long seed) {
        BinaryCrossEntropyBackwardCase.run(seed, RandomCases.MAX_NUMEL);
    }

    static LongStream halfLayoutSeeds() {
        return LongStream.range(0, 150).map(i -> 0x1100_0000L + i);
    }

    /** 16-bit transposed and channels-last operands: the calls computed in their inputs' memory order. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("halfLayoutSeeds")
    void halfLayoutsMatchReferenceAndContiguousCall(long seed) {
        BinaryCrossEntropyBackwardCase.runHalfLayouts(seed);
    }

    static LongStream floatLayoutSeeds() {
        return LongStream.range(0, 100).map(i -> 0x1200_0000L + i);
    }

    /** FLOAT transposed and channels-last operands: the calls computed in their inputs' memory order. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("floatLayoutSeeds")
    void floatLayoutsMatchReferenceAndContiguousCall(long seed) {
        BinaryCrossEntropyBackwardCase.runFloatLayouts(seed);
    }
}
