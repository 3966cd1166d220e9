package io.github.aclnn4j.kernel;

import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;

/** The class targets of the NLL operators, checked before a kernel writes anything. */
final class Targets {
    private Targets() {}

    /**
     * Fails with {@link Status#RUNTIME_ERROR}, naming {@code operator}, the row and the value, when
     * one of the {@code rows} targets lies outside [0, classes) and is not {@code ignoreIndex}.
     */
    static void check(StridedView target, long rows, long classes, long ignoreIndex, String operator) {
        long[] targets = Scratch.get().targets;
        for (long first = 0; first < rows; first += targets.length) {
            int n = (int) Math.min(targets.length, rows - first);
            target.gatherLongs(first, targets, n);
            for (int j = 0; j < n; j++) {
                long t = targets[j];
                if (t != ignoreIndex && (t < 0 || t >= classes)) {
                    throw new Failure(Status.RUNTIME_ERROR, operator + ": target[" + (first + j) + "] = " + t
                            + " is out of range [0, " + classes + ") and is not ignoreIndex (" + ignoreIndex + ")");
                }
            }
        }
    }
}
