package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.testing.ChildJvm;
import org.junit.jupiter.api.Test;

/**
 * The warm-up thread runs every Vector API loop it knows to the end, without failing, unit by unit
 * (an operator's loops for one dtype) as calls ask for them (large calls too): an operator's calls
 * in a dtype leave plain Java once that unit is warm, while the units no call has asked for stay
 * cold, the strided views' loops included until a call needs them.
 */
class WarmupTest {
    private static final long TWO_MINUTES = 120_000_000_000L;
    private static final DType[] DTYPES = {DType.FLOAT, DType.BF16, DType.FLOAT16};

    @Test
    void warmsUpEveryUnitWithoutFailing() throws InterruptedException {
        long deadline = System.nanoTime() + TWO_MINUTES;
        for (Warmup.Family family : Warmup.Family.values()) {
            for (DType dtype : DTYPES) {
                askFor(family, dtype);
                while (Warmup.cold(family, dtype) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertFalse(Warmup.cold(family, dtype), () -> family + " " + dtype + " still cold after two minutes");
            }
        }
        assertTrue(Warmup.allWarm(), "every unit warm");
        assertNull(Warmup.failure, "what ended the warm-up");
    }

    @Test
    void onlyTheUnitsAskedForAreWarmedUp() throws Exception {
        if (!Warmup.vectorsWanted()) {
            return; // nothing to warm up without the Vector API
        }
        String output = ChildJvm.run(WarmupTest.class);
        assertTrue(output.contains("asked: warm; its other dtypes: cold; layouts not needed: cold; others: cold;"
                + " then asked: warm"), output);
        assertTrue(output.contains("loops while cold: plain; once warm: vector, plain; layouts once needed: vector,"
                + " vector; large while cold: plain"), output);
    }

    /** The element and layout loops a small FLOAT call of {@code family} takes now ("plain" or "vector", twice). */
    private static String loopsOfASmallCall(Warmup.Family family) {
        boolean begun = Warmup.begin(family, DType.FLOAT, 1);
        try {
            return name(BulkMath.current()) + ", " + name(BulkMath.forLayouts());
        } finally {
            Warmup.end(begun);
        }
    }

    private static String name(BulkMath loops) {
        return loops == BulkMath.PLAIN ? "plain" : "vector";
    }

    /** As a small call's phase 2 does: queues the unit's loops for the warm-up. */
    private static void askFor(Warmup.Family family, DType dtype) {
        Warmup.end(Warmup.begin(family, dtype, 1));
    }

    /**
     * Probe: a FLOAT call of BCE with logits that needs no strided view's loops asks for that unit;
     * once it is warm (and a second later) reports whether its 16-bit units, the layouts' loops and
     * GroupNorm's are; then a call that needs the layouts' loops asks for them; then a large
     * GroupNorm call, which takes plain Java too while its unit is cold and asks for it, and
     * whether that gets warm.
     */
    public static void main(String[] args) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TWO_MINUTES;
        boolean begun = Warmup.begin(Warmup.Family.BCE_WITH_LOGITS, DType.FLOAT, 1);
        String cold = name(BulkMath.current());
        Warmup.end(begun);
        while (Warmup.cold(Warmup.Family.BCE_WITH_LOGITS, DType.FLOAT) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        boolean asked = !Warmup.cold(Warmup.Family.BCE_WITH_LOGITS, DType.FLOAT);
        long asking = System.nanoTime() - start;
        Thread.sleep(1000);
        boolean otherDtypes = !Warmup.cold(Warmup.Family.BCE_WITH_LOGITS, DType.BF16)
                || !Warmup.cold(Warmup.Family.BCE_WITH_LOGITS, DType.FLOAT16);
        boolean layouts = Warmup.warm(Warmup.Family.LAYOUTS);
        boolean others = !Warmup.cold(Warmup.Family.GROUP_NORM, DType.FLOAT) || Warmup.allWarm();
        String warm = loopsOfASmallCall(Warmup.Family.BCE_WITH_LOGITS); // asks for the layouts' loops
        while (!Warmup.warm(Warmup.Family.LAYOUTS) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        String needed = loopsOfASmallCall(Warmup.Family.BCE_WITH_LOGITS);
        long later = System.nanoTime();
        // a large GroupNorm call: plain Java while cold, as small ones, and it asks for its unit's warm-up
        boolean large = Warmup.begin(Warmup.Family.GROUP_NORM, DType.FLOAT, Warmup.SMALL_CALL + 1);
        String largeLoops = name(BulkMath.current());
        Warmup.end(large);
        while (Warmup.cold(Warmup.Family.GROUP_NORM, DType.FLOAT) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        System.out.printf("asked: %s; its other dtypes: %s; layouts not needed: %s; others: %s; then asked: %s"
                + " (%.0f ms to the first unit, %.0f ms to the last; failure %s)%n", asked ? "warm" : "cold",
                otherDtypes ? "warm" : "cold", layouts ? "warm" : "cold", others ? "warm" : "cold",
                Warmup.cold(Warmup.Family.GROUP_NORM, DType.FLOAT) ? "cold" : "warm", asking / 1e6,
                (System.nanoTime() - later) / 1e6, Warmup.failure);
        System.out.println("loops while cold: " + cold + "; once warm: " + warm + "; layouts once needed: " + needed
                + "; large while cold: " + largeLoops);
    }
}
