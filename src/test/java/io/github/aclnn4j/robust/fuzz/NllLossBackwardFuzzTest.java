package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * aclnnNLLLossBackward on fuzzed arguments: see {@link OperatorFuzzer}.
 * Every test run replays the committed corpus (NllLossBackwardFuzzTestInputs/fuzz under the test
 * resources); with JAZZER_FUZZ=1 Jazzer fuzzes it (./aclnn4j test, ./aclnn4j fuzz).
 */
class NllLossBackwardFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void fuzz(FuzzedDataProvider data) {
        OperatorFuzzer.fuzz(FuzzedOperator.NLL_LOSS_BACKWARD, data);
    }
}
