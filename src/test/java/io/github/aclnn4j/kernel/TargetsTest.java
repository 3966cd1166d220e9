package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Targets#checkAll} over a batch large enough to be checked on several threads: the
 * failure names the first bad target whichever thread met a bad one first, as the serial check
 * did, and a batch of good and ignored targets passes.
 */
class TargetsTest {
    private static final int DEFAULT_THREADS = Parallel.threads();
    private static final long ROWS = 100_000;
    private static final long CLASSES = 10;
    private static final long IGNORE = -100;

    @AfterEach
    void restoreThreads() {
        Parallel.setThreads(DEFAULT_THREADS);
    }

    private static StridedView targets(Arena arena, long... bad) {
        MemorySegment m = arena.allocate(ValueLayout.JAVA_LONG, ROWS);
        for (long i = 0; i < ROWS; i++) {
            m.setAtIndex(ValueLayout.JAVA_LONG, i, i % 7 == 0 ? IGNORE : i % CLASSES);
        }
        for (int k = 0; k < bad.length; k += 2) {
            m.setAtIndex(ValueLayout.JAVA_LONG, bad[k], bad[k + 1]);
        }
        return new StridedView(m, 0, DType.INT64, new long[] {ROWS}, new long[] {1});
    }

    @Test
    void theFirstBadTargetIsNamedWhicheverThreadFindsOne() {
        Parallel.setThreads(2);
        try (Arena arena = Arena.ofShared()) {
            // the later one opens the second thread's share (tasks 12 to 24 of 4096 rows): it is met first
            StridedView target = targets(arena, 37_768, CLASSES, 12 * 4_096 + 1, -1);
            Targets check = new Targets(target, ROWS, CLASSES, IGNORE, "aclnnNLLLoss");
            for (int round = 0; round < 50; round++) {
                Failure f = assertThrows(Failure.class, check::checkAll);
                assertEquals(Status.RUNTIME_ERROR, f.status());
                assertEquals("aclnnNLLLoss: target[37768] = 10 is out of range [0, 10) and is not ignoreIndex (-100)",
                        f.getMessage(), "round " + round);
            }
        }
    }

    @Test
    void goodAndIgnoredTargetsPass() {
        Parallel.setThreads(2);
        try (Arena arena = Arena.ofShared()) {
            Targets check = new Targets(targets(arena), ROWS, CLASSES, IGNORE, "aclnnNLLLoss");
            assertDoesNotThrow(check::checkAll);
            StridedView last = targets(arena, ROWS - 1, CLASSES + 5);
            Failure f = assertThrows(Failure.class, new Targets(last, ROWS, CLASSES, IGNORE, "aclnnNLLLossBackward")::checkAll);
            assertEquals("aclnnNLLLossBackward: target[99999] = 15 is out of range [0, 10) and is not ignoreIndex (-100)",
                    f.getMessage());
        }
    }

    /**
     * Every target at the edges of its range, with ignoreIndex inside, below and above the classes
     * and at the extremes of long: rejected exactly when the plain rule says so (the check's
     * branch-free first pass over a block must not miss or invent one).
     */
    @Test
    void edgeTargetsFollowThePlainRule() {
        long[] values = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -101, -100, -2, -1, 0, 1, 2, 9, 10, 11, 1L << 40,
            Long.MAX_VALUE - 1, Long.MAX_VALUE};
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(ValueLayout.JAVA_LONG, 1);
            StridedView one = new StridedView(m, 0, DType.INT64, new long[] {1}, new long[] {1});
            for (long classes : new long[] {0, 1, 10, Long.MAX_VALUE}) {
                for (long ignore : new long[] {-100, 0, 5, 10, Long.MIN_VALUE, Long.MAX_VALUE}) {
                    Targets check = new Targets(one, 1, classes, ignore, "aclnnNLLLoss");
                    for (long t : values) {
                        m.setAtIndex(ValueLayout.JAVA_LONG, 0, t);
                        boolean bad = t != ignore && (t < 0 || t >= classes);
                        String what = "target " + t + ", classes " + classes + ", ignoreIndex " + ignore;
                        if (bad) {
                            assertThrows(Failure.class, check::checkAll, what);
                        } else {
                            assertDoesNotThrow(check::checkAll, what);
                        }
                    }
                }
            }
        }
    }
}
