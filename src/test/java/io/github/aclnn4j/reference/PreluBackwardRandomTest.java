package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Seeded random cases of PreluBackward, each checked against the float64 reference. */
class PreluBackwardRandomTest {
    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static LongStream seeds() {
        return RandomCases.seeds(0x2000_0000L);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void matchesReference(long seed) {
        PreluBackwardCase.run(seed, RandomCases.MAX_NUMEL);
    }

    static LongStream halfLayoutSeeds() {
        return LongStream.range(0, 120).map(i -> 0x2100_0000L + i);
    }

    /** 16-bit permuted self and gradOutput: the calls that copy them into the workspace first. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("halfLayoutSeeds")
    void halfLayoutsMatchReferenceAndContiguousCall(long seed) {
        PreluBackwardCase.runHalfLayouts(seed);
    }

    static LongStream channelsLastFloatSeeds() {
        return LongStream.range(0, 100).map(i -> 0x2200_0000L + i);
    }

    /** FLOAT channels-last self and gradOutput into a contiguous and a channels-last gradInput: the same bits. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("channelsLastFloatSeeds")
    void channelsLastFloatMatchesReferenceAndChannelsLastCall(long seed) {
        PreluBackwardCase.runChannelsLastFloat(seed);
    }

    static LongStream channelsLastBf16Seeds() {
        return LongStream.range(0, 100).map(i -> 0x2300_0000L + i);
    }

    /** BFLOAT16 channels-last self and gradOutput into a contiguous gradInput: the bits of the contiguous call. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("channelsLastBf16Seeds")
    void channelsLastBf16MatchesReferenceAndContiguousCall(long seed) {
        PreluBackwardCase.runChannelsLastBf16(seed);
    }
}
