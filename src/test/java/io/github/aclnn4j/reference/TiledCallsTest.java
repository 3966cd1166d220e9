package io.github.aclnn4j.reference;

import io.github.aclnn4j.testing.TestDevice;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The element-wise calls at sizes where {@code Tiling} cuts a call whose operands disagree on
 * their layout into several pieces (dimensions past one 64-element tile and not a multiple of it),
 * each checked against the float64 reference. The other random tests stay below one tile.
 */
class TiledCallsTest {
    private static final int MAX_NUMEL = 1 << 15;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static LongStream seeds() {
        return LongStream.range(0, 150).map(i -> 0x5100_0000L + i);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void bceBackwardMatchesReference(long seed) {
        BinaryCrossEntropyBackwardCase.run(seed, MAX_NUMEL);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void bceWithLogitsMatchesReference(long seed) {
        BinaryCrossEntropyWithLogitsCase.run(seed, MAX_NUMEL);
    }
}
