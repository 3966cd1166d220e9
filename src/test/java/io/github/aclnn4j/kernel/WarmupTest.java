package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The warm-up thread runs every Vector API loop it knows to the end, without failing. */
class WarmupTest {
    @Test
    void warmsUpWithoutFailing() throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        // as a small call plans: the first question starts the warm-up, the answer turns once it is done
        while (Warmup.cold(1) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(Warmup.cold(1), "still cold after two minutes");
        assertNull(Warmup.failure, "what ended the warm-up");
    }
}
