package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Seeded random cases of Prelu, each checked bit for bit against the float64 reference. */
class PreluRandomTest {
    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static LongStream seeds() {
        return RandomCases.seeds(0x6000_0000L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void matchesReference(long seed) {
        PreluCase.run(seed, RandomCases.MAX_NUMEL);
    }

    static LongStream channelsLastSeeds() {
        return LongStream.range(0, 120).map(i -> 0x6100_0000L + i);
    }

    /** 16-bit channels-last self, mostly into a contiguous out: the calls that copy self into out first. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("channelsLastSeeds")
    void channelsLastHalfMatchesReference(long seed) {
        PreluCase.runChannelsLastHalf(seed);
    }

    static LongStream channelsLastFloatSeeds() {
        return LongStream.range(0, 100).map(i -> 0x6200_0000L + i);
    }

    /** FLOAT channels-last self, mostly into a contiguous out: the calls computed and transposed in one pass. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("channelsLastFloatSeeds")
    void channelsLastFloatMatchesReference(long seed) {
        PreluCase.runChannelsLastFloat(seed);
    }
}
