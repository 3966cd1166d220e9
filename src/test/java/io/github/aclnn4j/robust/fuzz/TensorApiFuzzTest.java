package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * aclCreateTensor, its getters, and the array and scalar makers, on fuzzed arguments: see
 * {@link TensorApiFuzzer}.
 * Every test run replays the committed corpus (TensorApiFuzzTestInputs/fuzz under the test
 * resources); with JAZZER_FUZZ=1 Jazzer fuzzes it (./aclnn4j test, ./aclnn4j fuzz).
 */
class TensorApiFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void fuzz(FuzzedDataProvider data) {
        TensorApiFuzzer.fuzz(data);
    }
}
