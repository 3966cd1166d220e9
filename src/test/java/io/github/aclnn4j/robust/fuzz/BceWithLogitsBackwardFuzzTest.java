package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * aclnnBinaryCrossEntropyWithLogitsBackward on fuzzed arguments: see {@link OperatorFuzzer}.
 * Replays the committed corpus (BceWithLogitsBackwardFuzzTestInputs/fuzz under the test resources) in a JVM of its
 * own; with -Daclnn4j.fuzz=true, as ./aclnn4j test runs it, Jazzer then fuzzes for 25 s
 * (./aclnn4j fuzz SECONDS: longer).
 */
class BceWithLogitsBackwardFuzzTest {
    @FuzzTest(maxDuration = "25s")
    void fuzz(FuzzedDataProvider data) {
        OperatorFuzzer.fuzz(FuzzedOperator.BCE_WITH_LOGITS_BACKWARD, data);
    }
}
