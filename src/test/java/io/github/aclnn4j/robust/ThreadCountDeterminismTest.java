package io.github.aclnn4j.robust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.kernel.Parallel;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC §4: every operator, dtype, layout and reduction gives bitwise identical results with 1, 2
 * and 8 compute threads and from run to run, on calls large enough (200 000 elements, past
 * {@link Parallel#MIN_PARALLEL_ELEMENTS}) that the kernels split their work and their sums; that
 * they did split it is checked by counting the runs of tasks the compute workers took.
 */
class ThreadCountDeterminismTest {
    private static final int ELEMENTS = 200_000;
    private static final int[] THREAD_COUNTS = {1, 2, 8, 8, 1, 2};
    /**
     * Launches at one thread count before a call that never split its work fails the test. With 8
     * threads on two cores, beside the warm-up thread and the JIT's, a FLOAT call of 200,000
     * elements on the Vector API's loops can end before any worker is scheduled: 20 launches in a
     * row did once in the whole suite (BCE with logits, once its FLOAT loops warmed within the
     * first seconds); a launch costs a fraction of a millisecond.
     */
    private static final int MAX_LAUNCHES = 200;

    static Stream<Arguments> cases() {
        return Workload.everyCase().stream().map(c -> Arguments.of(c.op(), c.dtype(), c.layout(), c.seed()));
    }

    @ParameterizedTest(name = "{0} dtype {1} {2} seed {3}")
    @MethodSource("cases")
    void sameBitsForAnyThreadCount(Workload.Op op, int dtype, Workload.Layout layout, long seed) {
        int defaultThreads = Parallel.threads();
        // NLLLoss reads one value of each row of 13, and 16-bit transposed inputs go through the
        // workspace in three short parallel passes: at 200,000 elements such a call is over before a
        // parked worker wakes (every launch, in a JVM that has not compiled the test's own code yet)
        int elements = op == Workload.Op.NLL_LOSS || layout == Workload.Layout.TRANSPOSED_INPUTS ? 13 * ELEMENTS
                : ELEMENTS;
        try (Workload w = new Workload(op, dtype, elements, seed, layout)) {
            byte[][] first = null;
            int firstThreads = 0;
            for (int threads : THREAD_COUNTS) {
                Parallel.setThreads(threads);
                // With more than one thread the call must split its work: a worker has to take part
                // in at least one launch (it may miss a few, waking while the caller finishes alone).
                int launches = 0;
                long workerRuns;
                do {
                    long before = Parallel.workerRuns();
                    byte[][] now = launch(w);
                    workerRuns = Parallel.workerRuns() - before;
                    launches++;
                    if (first == null) {
                        first = now;
                        firstThreads = threads;
                    } else {
                        for (int k = 0; k < now.length; k++) {
                            assertArrayEquals(first[k], now[k], w + ": output " + k + " with " + threads
                                    + " threads differs from the run with " + firstThreads);
                        }
                    }
                } while (threads > 1 && workerRuns == 0 && launches < MAX_LAUNCHES);
                if (threads > 1) {
                    assertTrue(workerRuns > 0, w + " with " + threads + " threads: no compute worker took part in "
                            + launches + " launches; the kernels did not split their work");
                }
            }
        } finally {
            Parallel.setThreads(defaultThreads);
        }
    }

    private static byte[][] launch(Workload w) {
        w.resetOutputs();
        assertEquals(0, w.launch(null), () -> w + ": " + Acl.getRecentErrMsg());
        assertEquals(0, AclRt.synchronizeStream(null), () -> w + ": " + Acl.getRecentErrMsg());
        w.retire();
        return w.writtenOutputs();
    }
}
