package io.github.aclnn4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Events on the runtime's streams, with tasks that block on latches so that every ordering is
 * forced rather than timed: a stream waiting for another stream's record runs nothing after the
 * wait until that record ran, the host is not blocked by the wait, and records carry their times.
 */
class EventTest {
    private static final String F = "test";

    @Test
    void aStreamWaitsForAnotherStreamsRecordAndTheHostDoesNot() throws InterruptedException {
        Stream a = new Stream(0, false);
        Stream b = new Stream(0, false);
        Event event = new Event();
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger order = new AtomicInteger();
        int[] seen = new int[2];
        a.submit(ws -> {
            await(release);
            seen[0] = order.incrementAndGet();
        }, MemorySegment.NULL, false);
        event.recordOn(F, a);
        assertFalse(event.isComplete(F), "recorded behind blocked work");
        event.awaitOn(F, b); // returns at once: the host does not wait
        b.submit(ws -> seen[1] = order.incrementAndGet(), MemorySegment.NULL, true);
        Thread.sleep(50);
        assertEquals(0, seen[1], "stream b ran past its wait before stream a reached the record");
        release.countDown();
        assertNull(b.synchronize());
        assertEquals(1, seen[0]);
        assertEquals(2, seen[1], "b's work ran after a's");
        assertTrue(event.isComplete(F));
        assertNull(a.synchronize());
    }

    @Test
    void aWaitIsForTheRecordOfItsTimeAndANeverRecordedEventIsComplete() throws InterruptedException {
        Stream a = new Stream(0, false);
        Stream b = new Stream(0, false);
        Event event = new Event();
        assertTrue(event.isComplete(F), "never recorded");
        event.awaitOn(F, b);
        assertNull(b.synchronize(), "a wait for an event never recorded waits for nothing");
        event.recordOn(F, a); // completes at once on an idle stream
        CountDownLatch release = new CountDownLatch(1);
        event.awaitOn(F, b); // for the record made so far, complete
        a.submit(ws -> await(release), MemorySegment.NULL, false);
        event.recordOn(F, a); // a later record: the wait above does not wait for it
        assertTrue(b.synchronize() == null && !event.isComplete(F));
        release.countDown();
        assertNull(a.synchronize());
        assertTrue(event.isComplete(F));
    }

    @Test
    void recordsCarryTheirTimes() throws InterruptedException {
        Stream s = new Stream(0, false);
        Event start = new Event();
        Event end = new Event();
        assertThrows(Failure.class, () -> start.completedNanos(F, "start"), "never recorded");
        start.recordOn(F, s);
        s.submit(ws -> sleep(30), MemorySegment.NULL, false);
        end.recordOn(F, s);
        assertNull(s.synchronize());
        long elapsed = end.completedNanos(F, "end") - start.completedNanos(F, "start");
        assertTrue(elapsed >= TimeUnit.MILLISECONDS.toNanos(30), "elapsed " + elapsed + " ns");
        end.destroy(F);
        assertThrows(Failure.class, () -> end.completedNanos(F, "end"), "destroyed");
        assertThrows(Failure.class, () -> end.destroy(F), "destroyed twice");
    }

    /** A record refused by a destroyed stream leaves nothing that a wait would hang on. */
    @Test
    void aRefusedRecordLeavesTheEventComplete() {
        Stream s = new Stream(0, false);
        assertNull(s.destroy());
        Event event = new Event();
        assertThrows(Failure.class, () -> event.recordOn(F, s));
        assertTrue(event.isComplete(F));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
