package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.testing.ChildJvm;
import org.junit.jupiter.api.Test;

/**
 * The warm-up thread runs every Vector API loop it knows to the end, without failing, family by
 * family as calls ask for them (large calls too): an operator's calls leave plain Java once its
 * family is warm, while the families no call has asked for stay cold.
 */
class WarmupTest {
    private static final long TWO_MINUTES = 120_000_000_000L;

    @Test
    void warmsUpEveryFamilyWithoutFailing() throws InterruptedException {
        long deadline = System.nanoTime() + TWO_MINUTES;
        for (Warmup.Family family : Warmup.Family.values()) {
            askFor(family);
            while (Warmup.cold(family) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertFalse(Warmup.cold(family), () -> family + " still cold after two minutes");
        }
        assertTrue(Warmup.allWarm(), "every family warm");
        assertNull(Warmup.failure, "what ended the warm-up");
    }

    @Test
    void onlyTheFamiliesAskedForAreWarmedUp() throws Exception {
        if (!Warmup.vectorsWanted()) {
            return; // nothing to warm up without the Vector API
        }
        String output = ChildJvm.run(WarmupTest.class);
        assertTrue(output.contains("asked: warm; others: cold; then asked: warm"), output);
        assertTrue(output.contains("loops while cold: plain, plain; once warm: vector, vector; large while cold: plain"), output);
    }

    /** The element and layout loops a small call of {@code family} takes now ("plain" or "vector", twice). */
    private static String loopsOfASmallCall(Warmup.Family family) {
        boolean begun = Warmup.begin(family, 1);
        try {
            return (BulkMath.current() == BulkMath.PLAIN ? "plain" : "vector") + ", "
                    + (BulkMath.forLayouts() == BulkMath.PLAIN ? "plain" : "vector");
        } finally {
            Warmup.end(begun);
        }
    }

    /** As a small call's phase 2 does: queues the family's loops (and LAYOUTS) for the warm-up. */
    private static void askFor(Warmup.Family family) {
        Warmup.end(Warmup.begin(family, 1));
    }

    /**
     * Probe: asks for BCE with logits' loops; once they are warm (and a second later) reports whether
     * GroupNorm's are; then makes a large GroupNorm call, which takes plain Java too while its
     * family is cold and asks for GroupNorm's, and reports whether they get warm. Also which loops a small call takes before
     * and after.
     */
    public static void main(String[] args) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TWO_MINUTES;
        String cold = loopsOfASmallCall(Warmup.Family.BCE_WITH_LOGITS); // which asks for them too
        while (Warmup.cold(Warmup.Family.BCE_WITH_LOGITS) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        boolean asked = Warmup.warm(Warmup.Family.BCE_WITH_LOGITS);
        while (Warmup.cold(Warmup.Family.LAYOUTS) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        String warm = loopsOfASmallCall(Warmup.Family.BCE_WITH_LOGITS);
        long asking = System.nanoTime() - start;
        Thread.sleep(1000);
        boolean others = Warmup.warm(Warmup.Family.GROUP_NORM) || Warmup.allWarm();
        long later = System.nanoTime();
        // a large GroupNorm call: plain Java while cold, as small ones, and it asks for its family's warm-up
        boolean large = Warmup.begin(Warmup.Family.GROUP_NORM, Warmup.SMALL_CALL + 1);
        String largeLoops = BulkMath.current() == BulkMath.PLAIN ? "plain" : "vector";
        Warmup.end(large);
        while (Warmup.cold(Warmup.Family.GROUP_NORM) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        System.out.printf("asked: %s; others: %s; then asked: %s (%.0f ms to the first family, %.0f ms to the"
                + " second; failure %s)%n", asked ? "warm" : "cold", others ? "warm" : "cold",
                Warmup.warm(Warmup.Family.GROUP_NORM) ? "warm" : "cold", asking / 1e6,
                (System.nanoTime() - later) / 1e6, Warmup.failure);
        System.out.println("loops while cold: " + cold + "; once warm: " + warm + "; large while cold: " + largeLoops);
    }
}
