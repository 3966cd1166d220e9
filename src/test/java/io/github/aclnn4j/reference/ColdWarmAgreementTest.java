package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * A call gives the same bits whether it runs before the Vector API's loops are warm (plain Java,
 * {@code -Daclnn4j.warmup=cold}) or after ({@code -Daclnn4j.warmup=false}: the Vector API's loops
 * from the first call): every operator's seeded cases, every dtype, mixed layouts and dense ones,
 * small and large (whose plain Java is split across the compute threads), in two child JVMs that
 * both have the module. A program's numbers must not depend on how long it has been running.
 */
class ColdWarmAgreementTest {
    private static final int SEEDS = 30;
    private static final int LARGE_SEEDS = 6;
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> OPERATORS = OperatorCases.all();
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> LARGE = OperatorCases.large();

    @Test
    void sameBitsColdAndWarm() throws Exception {
        List<String> cold = cases("-Daclnn4j.warmup=cold");
        List<String> warm = cases("-Daclnn4j.warmup=false");
        assertEquals((OPERATORS.size() * SEEDS + LARGE.size() * LARGE_SEEDS) * 2, cold.size(), "cases run cold");
        assertEquals(cold.size(), warm.size(), "cases run warm");
        assertEquals(List.of(), OperatorCases.differing(cold, warm), "cases whose bits differ cold and warm");
    }

    private static List<String> cases(String mode) throws Exception {
        return ChildJvm.runWith(List.of(mode), ColdWarmAgreementTest.class).lines()
                .filter(l -> l.startsWith("case ")).toList();
    }

    /** The child's side: {@code case OPERATOR seed S dense D digest H} per case, on stdout. */
    public static void main(String[] args) {
        TestDevice.init();
        OperatorCases.lines(OPERATORS, SEEDS, 0xC0_0000L).forEach(System.out::println);
        OperatorCases.lines(LARGE, LARGE_SEEDS, 0xC8_0000L).forEach(System.out::println);
    }
}
