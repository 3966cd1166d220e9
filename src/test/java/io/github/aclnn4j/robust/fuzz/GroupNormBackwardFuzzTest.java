package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * aclnnGroupNormBackward on fuzzed arguments: see {@link OperatorFuzzer}.
 * Every test run replays the committed corpus (GroupNormBackwardFuzzTestInputs/fuzz under the test
 * resources); with JAZZER_FUZZ=1 Jazzer fuzzes it (./aclnn4j test, ./aclnn4j fuzz).
 */
class GroupNormBackwardFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void fuzz(FuzzedDataProvider data) {
        OperatorFuzzer.fuzz(FuzzedOperator.GROUP_NORM_BACKWARD, data);
    }
}
