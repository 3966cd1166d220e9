package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * aclnnGroupNorm on fuzzed arguments: see {@link OperatorFuzzer}.
 * Replays the committed corpus (GroupNormFuzzTestInputs/fuzz under the test resources) in a JVM of its
 * own; with -Daclnn4j.fuzz=true, as ./aclnn4j test runs it, Jazzer then fuzzes for 25 s
 * (./aclnn4j fuzz SECONDS: longer).
 */
class GroupNormFuzzTest {
    @FuzzTest(maxDuration = "25s")
    void fuzz(FuzzedDataProvider data) {
        OperatorFuzzer.fuzz(FuzzedOperator.GROUP_NORM, data);
    }
}
