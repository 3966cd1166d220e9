package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * A call gives the same bits whether it runs before the Vector API's loops are warm (plain Java,
 * {@code -Daclnn4j.warmup=cold}) or after ({@code -Daclnn4j.warmup=false}: the Vector API's loops
 * from the first call): every operator's seeded cases, every dtype, mixed layouts and dense ones,
 * in two child JVMs that both have the module. A program's numbers must not depend on how long it
 * has been running.
 */
class ColdWarmAgreementTest {
    private static final int SEEDS = 30;
    private static final int MAX_NUMEL = 3 * 4096 + 100;
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> OPERATORS = new LinkedHashMap<>();

    static {
        OPERATORS.put("BinaryCrossEntropyBackward", (s, d) -> BinaryCrossEntropyBackwardCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("BinaryCrossEntropyWithLogits", (s, d) -> BinaryCrossEntropyWithLogitsCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("PreluBackward", (s, d) -> PreluBackwardCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("GroupNormBackward", (s, d) -> GroupNormBackwardCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("NllLossBackward", (s, d) -> NllLossBackwardCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("BinaryCrossEntropy", (s, d) -> BinaryCrossEntropyCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("Prelu", (s, d) -> PreluCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("GroupNorm", (s, d) -> GroupNormCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("NllLoss", (s, d) -> NllLossCase.run(s, MAX_NUMEL, d));
        OPERATORS.put("BinaryCrossEntropyWithLogitsBackward",
                (s, d) -> BinaryCrossEntropyWithLogitsBackwardCase.run(s, MAX_NUMEL, d));
    }

    @Test
    void sameBitsColdAndWarm() throws Exception {
        List<String> cold = cases("-Daclnn4j.warmup=cold");
        List<String> warm = cases("-Daclnn4j.warmup=false");
        assertEquals(OPERATORS.size() * SEEDS * 2, cold.size(), "cases run cold");
        assertEquals(cold.size(), warm.size(), "cases run warm");
        List<String> differing = new ArrayList<>();
        for (int i = 0; i < cold.size(); i++) {
            if (!cold.get(i).equals(warm.get(i))) {
                differing.add(cold.get(i).replaceAll(" digest .*", ""));
            }
        }
        assertEquals(List.of(), differing, "cases whose bits differ cold and warm");
    }

    private static List<String> cases(String mode) throws Exception {
        return ChildJvm.runWith(List.of(mode), ColdWarmAgreementTest.class).lines()
                .filter(l -> l.startsWith("case ")).toList();
    }

    /** The child's side: {@code case OPERATOR seed S dense D digest H} per case, on stdout. */
    public static void main(String[] args) {
        TestDevice.init();
        long first = 0xC0_0000L;
        for (Map.Entry<String, BiFunction<Long, Boolean, long[][]>> op : OPERATORS.entrySet()) {
            for (long seed = first; seed < first + SEEDS; seed++) {
                for (boolean dense : new boolean[] {false, true}) {
                    long[][] bits = op.getValue().apply(seed, dense);
                    System.out.println("case " + op.getKey() + " seed " + seed + " dense " + dense + " digest "
                            + Arrays.deepHashCode(bits) + "/" + Arrays.stream(bits).mapToInt(b -> b.length).sum());
                }
            }
            first += 0x1000L;
        }
    }
}
