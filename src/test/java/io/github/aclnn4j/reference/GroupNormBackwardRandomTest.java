package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Seeded random cases of GroupNormBackward, each checked against the float64 reference. */
class GroupNormBackwardRandomTest {
    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static LongStream seeds() {
        return RandomCases.seeds(0x4000_0000L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void matchesReference(long seed) {
        GroupNormBackwardCase.run(seed, RandomCases.MAX_NUMEL);
    }

    static LongStream channelsLastSeeds() {
        return LongStream.range(0, 100).map(i -> 0x4100_0000L + i);
    }

    /** NHWC memory read as NCHW views, gradInput written channels-last (even seeds) or contiguous. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("channelsLastSeeds")
    void channelsLastMatchesReference(long seed) {
        GroupNormBackwardCase.runChannelsLast(seed, seed % 2 == 0);
    }

    /** As {@link #channelsLastMatchesReference} with samples too large to be read only once. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("largeChannelsLastSeeds")
    void largeChannelsLastMatchesReference(long seed) {
        GroupNormBackwardCase.runChannelsLast(seed, seed % 2 == 0, true);
    }

    static LongStream largeChannelsLastSeeds() {
        return LongStream.range(0, 6).map(i -> 0x4200_0000L + i);
    }
}
