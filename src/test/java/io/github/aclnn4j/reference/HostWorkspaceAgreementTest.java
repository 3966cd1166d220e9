package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * A workspace in host memory over a Java array, as a layer-1 program may pass it, gives the same
 * bits as one in device memory: every operator's seeded cases, dense and mixed layouts, and the
 * cases with transposed and channels-last layouts of their own (16-bit and FLOAT), with the
 * Vector API's loops from the first call (the direct loops read their operands from native memory
 * only, and must not take a workspace that is not). A child JVM runs each case both ways.
 */
class HostWorkspaceAgreementTest {
    private static final int SEEDS = 20;
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> OPERATORS = new LinkedHashMap<>();

    static {
        OPERATORS.putAll(OperatorCases.all());
        OPERATORS.putAll(OperatorCases.layouts()); // the staged copies and the transposing stores use the workspace
    }

    @Test
    void hostWorkspacesGiveTheSameBits() throws Exception {
        List<String> lines = ChildJvm.runWith(List.of("-Daclnn4j.warmup=false"), HostWorkspaceAgreementTest.class)
                .lines().filter(l -> l.startsWith("case ")).toList();
        int cases = OPERATORS.size() * SEEDS * 2;
        assertEquals(2 * cases, lines.size(), "cases run");
        assertEquals(List.of(), OperatorCases.differing(lines.subList(0, cases), lines.subList(cases, 2 * cases)),
                "cases whose bits differ with a host workspace");
    }

    /** The child's side: every case with a device workspace, then every case again with a host one. */
    public static void main(String[] args) {
        TestDevice.init();
        for (boolean host : new boolean[] {false, true}) {
            Launch.hostWorkspaces = host;
            OperatorCases.lines(OPERATORS, SEEDS, 0x40_5700L).forEach(System.out::println);
        }
    }
}
