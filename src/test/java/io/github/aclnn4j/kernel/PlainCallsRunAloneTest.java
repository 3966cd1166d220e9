package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.testing.ChildJvm;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A small call on its plain-Java path (while the Vector API's loops are cold) runs on its own
 * thread only, however much work it has: its code is still interpreted on every thread that runs
 * it, and a helper would take the core the warm-up needs. The same work outside such a call is
 * split, and so is a large call's, whose helpers take plain Java as the call does. In a child JVM
 * kept cold ({@code -Daclnn4j.warmup=cold}), since the test JVM warms up.
 */
class PlainCallsRunAloneTest {
    @Test
    void aPlainCallIsNotSplitAndOtherWorkIs() throws Exception {
        String output = ChildJvm.runWith(List.of("-Daclnn4j.warmup=cold", "-Daclnn4j.threads=2"),
                PlainCallsRunAloneTest.class);
        assertEquals(true, output.contains("plain call: 0 runs by workers; other work: split"), output);
        assertEquals(true, output.contains("large plain call: split, every task on plain Java"), output);
    }

    /** Probe: the worker runs taken by a plain call and by the same work outside one. */
    public static void main(String[] args) {
        long tasks = 64;
        long perTask = Warmup.SMALL_CALL / tasks;
        Parallel.Tasks spin = (i, ws) -> {
            long until = System.nanoTime() + 200_000; // long enough for a helper to join if it may
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        };
        boolean begun = Warmup.begin(Warmup.Family.PRELU_BACKWARD, DType.FLOAT, Warmup.SMALL_CALL);
        long before = Parallel.workerRuns();
        try {
            Parallel.forEach(tasks, perTask, spin, MemorySegment.NULL);
        } finally {
            Warmup.end(begun);
        }
        long plain = Parallel.workerRuns() - before;
        before = Parallel.workerRuns();
        Parallel.forEach(tasks, perTask, spin, MemorySegment.NULL);
        long other = Parallel.workerRuns() - before;
        System.out.println("plain call: " + plain + " runs by workers; other work: " + (other > 0 ? "split" : "not split")
                + " (begun " + begun + ")");

        AtomicInteger vectorTasks = new AtomicInteger();
        Parallel.Tasks spinAndLook = (i, ws) -> {
            if (BulkMath.current() != BulkMath.PLAIN) {
                vectorTasks.incrementAndGet();
            }
            spin.task(i, ws);
        };
        boolean large = Warmup.begin(Warmup.Family.PRELU_BACKWARD, DType.FLOAT, Warmup.SMALL_CALL + 1);
        before = Parallel.workerRuns();
        try {
            Parallel.forEach(tasks, perTask * 2, spinAndLook, MemorySegment.NULL);
        } finally {
            Warmup.end(large);
        }
        long largeRuns = Parallel.workerRuns() - before;
        System.out.println("large plain call: " + (largeRuns > 0 ? "split" : "not split") + ", "
                + (vectorTasks.get() == 0 ? "every task on plain Java" : vectorTasks.get() + " tasks on the Vector API"));
    }
}
