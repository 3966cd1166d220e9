package io.github.aclnn4j.rt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.acl.Acl;
import org.junit.jupiter.api.Test;

/**
 * aclFloatToFloat16 and aclFloat16ToFloat over all 65,536 patterns against the JDK's IEEE
 * conversions, with CANN's departures from them: no infinities or NaN either way (the largest
 * exponent reads as an ordinary one; what would round past 65504 saturates there).
 */
class HalfConversionTest {
    @Test
    void everyPatternReadsAsTheJdkReadsItButTheLargestExponent() {
        for (int b = 0; b < 1 << 16; b++) {
            int bits = b;
            short h = (short) bits;
            float expected = (bits & 0x7C00) == 0x7C00
                    ? Math.copySign(65536f * (1 + (bits & 0x3FF) / 1024f), (bits & 0x8000) != 0 ? -1f : 1f)
                    : Float.float16ToFloat(h);
            assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(Acl.float16ToFloat(h)),
                    () -> "aclFloat16ToFloat(0x" + Integer.toHexString(bits) + ")");
        }
    }

    /**
     * Each finite value round trips; the midpoints to the next value, and the floats just beside
     * them, round as the JDK rounds (to nearest, ties to even); past 65504 it saturates.
     */
    @Test
    void everyValueAndMidpointRoundsAsTheJdkRoundsInRange() {
        for (int b = 0; b < 1 << 16; b++) {
            int bits = b;
            if ((bits & 0x7C00) == 0x7C00) {
                continue;
            }
            short h = (short) bits;
            float value = Float.float16ToFloat(h);
            assertEquals(h, Acl.floatToFloat16(value), () -> "round trip of 0x" + Integer.toHexString(bits));
            float next = (bits & 0x7FFF) == 0x7BFF ? Math.copySign(65536f, value)
                    : Float.float16ToFloat((short) (bits + 1));
            float mid = (value + next) / 2; // exact: a half's significand has 11 bits
            for (float x : new float[] {mid, Math.nextDown(mid), Math.nextUp(mid)}) {
                short jdk = Float.floatToFloat16(x);
                short expected = (jdk & 0x7C00) == 0x7C00 ? (short) ((jdk & 0x8000) | 0x7BFF) : jdk;
                assertEquals(expected, Acl.floatToFloat16(x), () -> "aclFloatToFloat16(" + x + ")");
            }
        }
    }

    @Test
    void infinitiesNanAndHugeValuesSaturate() {
        float[] positive = {Float.POSITIVE_INFINITY, Float.MAX_VALUE, 65520f, 1e6f, Float.NaN};
        for (float x : positive) {
            assertEquals((short) 0x7BFF, Acl.floatToFloat16(x), () -> "aclFloatToFloat16(" + x + ")");
            assertEquals((short) 0xFBFF, Acl.floatToFloat16(-x), () -> "aclFloatToFloat16(-" + x + ")");
        }
        assertEquals((short) 0x7BFF, Acl.floatToFloat16(Math.nextDown(65520f)), "just below the tie rounds down");
        assertEquals((short) 0x8000, Acl.floatToFloat16(-0f));
        assertEquals((short) 0, Acl.floatToFloat16(0x1p-25f), "the tie below the least subnormal goes to even 0");
        assertEquals((short) 1, Acl.floatToFloat16(Math.nextUp(0x1p-25f)));
    }
}
