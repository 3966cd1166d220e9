package io.github.aclnn4j.kernel;

import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;
import java.lang.foreign.MemorySegment;

/**
 * The class targets of an NLL operator's call, checked before its kernel writes anything: on the
 * library's threads, a band of rows per task, as a serial pass over a large batch's targets cost
 * as much as a thread's share of the loss itself (NLLLoss 65536×64, int64 targets).
 */
final class Targets implements Parallel.Tasks {
    /**
     * Targets a task checks: 32 KB of int64 ones. Bands of 16384 left a 16384-row call's check to
     * one thread (NLLLoss backward 16384×16, {@code bench ab}: 0.049 → 0.044 ms in bands of 4096).
     */
    private static final long ROWS = 1 << 12;
    /**
     * What a target weighs in {@link Parallel}'s measure of work, in elements: its bytes, which is
     * what checking it costs, so that {@link Parallel#MIN_PARALLEL_ELEMENTS} splits 8192 targets.
     */
    private static final long WEIGHT = Long.BYTES;

    private final StridedView target;
    private final long rows;
    private final long classes;
    private final long ignoreIndex;
    private final String operator;

    /** The check of {@code rows} targets in [0, classes) or {@code ignoreIndex}, failing in {@code operator}'s name. */
    Targets(StridedView target, long rows, long classes, long ignoreIndex, String operator) {
        this.target = target;
        this.rows = rows;
        this.classes = classes;
        this.ignoreIndex = ignoreIndex;
        this.operator = operator;
    }

    /**
     * Fails with {@link Status#RUNTIME_ERROR}, naming the operator, the row and the value of the
     * first target that lies outside [0, classes) and is not ignoreIndex. Which one is first does
     * not depend on the threads: once any task has found one, the rows are checked again in order.
     */
    void checkAll() {
        try {
            Parallel.forEach((rows + ROWS - 1) / ROWS, WEIGHT * ROWS, this, MemorySegment.NULL);
        } catch (Failure found) {
            check(0, rows);
        }
    }

    @Override
    public void task(long task, MemorySegment unused) {
        check(task * ROWS, Math.min(rows, (task + 1) * ROWS));
    }

    /** Rows {@code [from, to)}, in order. */
    private void check(long from, long to) {
        for (long first = from; first < to; first += Blocks.SIZE) {
            int n = (int) Math.min(Blocks.SIZE, to - first);
            long[] targets = target.gatherLongs(first, n);
            if (!anyBad(targets, n)) {
                continue;
            }
            for (int j = 0; j < n; j++) {
                long t = targets[j];
                if (t != ignoreIndex && (t < 0 || t >= classes)) {
                    throw new Failure(Status.RUNTIME_ERROR, operator + ": target[" + (first + j) + "] = " + t
                            + " is out of range [0, " + classes + ") and is not ignoreIndex (" + ignoreIndex + ")");
                }
            }
        }
    }

    /**
     * Whether any of {@code targets[0, n)} is out of range and not ignoreIndex, without a branch per
     * target, so that C2 vectorizes it: the sign bit of {@code t | (classes − 1 − t)} is set where t
     * lies outside [0, classes), that of {@code d | −d} where {@code d = t ^ ignoreIndex} is not 0.
     * A block is searched target by target only when it holds one (NLLLoss 65536×64, {@code bench
     * ab} both orders: 0.189/0.183 → 0.175/0.173 ms).
     */
    private boolean anyBad(long[] targets, int n) {
        long last = classes - 1;
        long bad = 0;
        for (int j = 0; j < n; j++) {
            long t = targets[j];
            long d = t ^ ignoreIndex;
            bad |= (t | (last - t)) & (d | -d);
        }
        return bad < 0;
    }
}
