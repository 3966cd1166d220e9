package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Seeded random cases of GroupNorm, each checked against the float64 reference. */
class GroupNormRandomTest {
    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static LongStream seeds() {
        return RandomCases.seeds(0xA000_0000L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void matchesReference(long seed) {
        GroupNormCase.run(seed, RandomCases.MAX_NUMEL);
    }

    static LongStream largeGroupSeeds() {
        return LongStream.range(0, 12).map(i -> 0xA100_0000L + i);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("largeGroupSeeds")
    void largeGroupsMatchReference(long seed) {
        GroupNormCase.run(seed, true);
    }
}
