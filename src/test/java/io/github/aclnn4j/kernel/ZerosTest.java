package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Zeros#fill} clears exactly the bytes it is given, through copies and, from
 * {@link Zeros#MEMSET_MIN} bytes of native memory on, through memset (the test JVM has native
 * access), at offsets and lengths that are not multiples of its block or of a vector.
 */
class ZerosTest {
    static Stream<Arguments> ranges() {
        return Stream.of(true, false).flatMap(nativeMemory -> Stream.of(new long[] {0, 1}, new long[] {3, 4093},
                new long[] {64, 4096}, new long[] {7, 3 * 4096 + 5}, new long[] {1, 262_144 + 13}, new long[] {0, 0},
                new long[] {5, Zeros.MEMSET_MIN + 77})
                .map(r -> Arguments.of(nativeMemory, r[0], r[1])));
    }

    @ParameterizedTest(name = "native={0} offset={1} bytes={2}")
    @MethodSource("ranges")
    void clearsExactlyItsRange(boolean nativeMemory, long offset, long bytes) {
        assertClears(nativeMemory, offset, bytes);
    }

    /** memset takes the large native fills. */
    @Test
    void memsetClearsExactlyItsRange() {
        assertTrue(Zeros.usesMemset(), "memset bound (the test JVM has native access)");
        assertClears(true, 5, Zeros.MEMSET_MIN + 77);
        assertClears(true, 0, 3 * Zeros.MEMSET_MIN);
    }

    private static void assertClears(boolean nativeMemory, long offset, long bytes) {
        long size = offset + bytes + 67;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = nativeMemory ? arena.allocate(size) : MemorySegment.ofArray(new byte[(int) size]);
            segment.fill((byte) 0x5A);
            Zeros.fill(segment, offset, bytes);
            for (long i = 0; i < size; i++) {
                byte expected = i >= offset && i < offset + bytes ? 0 : (byte) 0x5A;
                assertEquals(expected, segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
        }
    }
}
