package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The warm-up thread runs every Vector API loop it knows to the end, without failing. */
class WarmupTest {
    @Test
    void warmsUpWithoutFailing() throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (Warmup.cold() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(Warmup.cold(), "still cold after two minutes");
        assertNull(Warmup.failure, "what ended the warm-up");
    }
}
