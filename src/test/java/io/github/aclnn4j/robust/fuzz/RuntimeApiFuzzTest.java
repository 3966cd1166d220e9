package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * The runtime's stream-ordered copies and fills, events, tensor lists and half conversions, on
 * fuzzed sequences: see {@link RuntimeApiFuzzer}. Replays the committed corpus
 * (RuntimeApiFuzzTestInputs/fuzz under the test resources) in a JVM of its own; with
 * -Daclnn4j.fuzz=true, as ./aclnn4j test runs it, Jazzer then fuzzes for 25 s.
 */
class RuntimeApiFuzzTest {
    @FuzzTest(maxDuration = "25s")
    void fuzz(FuzzedDataProvider data) {
        RuntimeApiFuzzer.fuzz(data);
    }
}
