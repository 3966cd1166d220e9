package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cold calls run plain Java without initializing the Vector API's loops, whose classes take a
 * fresh JVM about 110 ms: PReLU backward and GroupNorm backward, every dtype (the 16-bit ones take
 * loops of their own while cold), dense so that warm they would take the direct loops. A child JVM
 * at {@code -Daclnn4j.warmup=cold} logs the classes it loads.
 */
class ColdCallsLoadNoVectorLoopsTest {
    private static final int SEEDS = 40;

    @Test
    void coldCallsLeaveTheVectorLoopsUnloaded() throws Exception {
        String out = ChildJvm.runWith(List.of("-Daclnn4j.warmup=cold", "-Xlog:class+load=info"),
                ColdCallsLoadNoVectorLoopsTest.class);
        assertEquals(2 * SEEDS, out.lines().filter(l -> l.startsWith("case ")).count(), "cases run");
        assertTrue(out.contains("io.github.aclnn4j.kernel.PlainHalfChunkLoops"), "the 16-bit plain loops ran");
        List<String> vectorClasses = out.lines()
                .filter(l -> l.contains("io.github.aclnn4j.kernel.Vector") || l.contains("jdk.incubator.vector.FloatVector"))
                .toList();
        assertEquals(List.of(), vectorClasses, "Vector API classes a cold call loaded");
    }

    /** The child's side: dense cases of both operators, every dtype among them. */
    public static void main(String[] args) {
        TestDevice.init();
        for (long seed = 0xC01D_0000L; seed < 0xC01D_0000L + SEEDS; seed++) {
            System.out.println(OperatorCases.line("PreluBackward", seed, true, PreluBackwardCase.run(seed, OperatorCases.MAX_NUMEL, true)));
            System.out.println(OperatorCases.line("GroupNormBackward", seed, true,
                    GroupNormBackwardCase.run(seed, OperatorCases.MAX_NUMEL, true)));
        }
    }
}
