package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The same case gives the same bits with and without the Vector API: every operator's seeded
 * cases (mixed layouts and dtypes, and dense ones, which take the direct loops) run here and in a
 * JVM without {@code jdk.incubator.vector}, where every kernel takes its plain-Java path. Each case
 * also checks its outputs against the float64 reference there, so the plain-Java path is tested as
 * a whole. A program's numbers must not depend on whether the module was added (or on a JVM that
 * lacks it), and a call may take either path.
 */
class VectorFreeAgreementTest {
    private static final int SEEDS = 30;

    /**
     * The operators whose plain-Java path is the Vector API's computation: element by element, and
     * GroupNorm's, BCE's and BCE with logits' sums in {@code SumOrder}'s order; and PReLU backward's
     * FLOAT dense cases (below). GroupNorm backward's and PReLU backward's 16-bit direct loops still
     * add their sums in fp32 chunks of their own, so their reductions mostly round to the same bits,
     * not always.
     */
    private static final Map<String, BiFunction<Long, Boolean, long[][]>> OPERATORS = OperatorCases.named(
            "BinaryCrossEntropyBackward", "NllLossBackward", "Prelu", "BinaryCrossEntropyWithLogitsBackward", "NllLoss",
            "GroupNorm", "BinaryCrossEntropy", "BinaryCrossEntropyWithLogits");

    @Test
    void sameBitsWithoutTheVectorApi() throws Exception {
        List<String> here = digests();
        List<String> without = ChildJvm.runWithout("--add-modules", VectorFreeAgreementTest.class).lines()
                .filter(l -> l.startsWith("case ")).toList();
        assertEquals(here.size(), without.size(), "cases run without the Vector API");
        assertEquals(List.of(), OperatorCases.differing(here, without), "cases whose bits differ without the Vector API");
    }

    /** One line per case: {@code case OPERATOR seed S dense D digest H}. */
    private static List<String> digests() {
        TestDevice.init();
        List<String> lines = new ArrayList<>();
        // PReLU backward's FLOAT rows add as the direct loops do; its 16-bit direct loops do not yet
        for (long seed = 0xF8_0000L, cases = 0; cases < SEEDS; seed++) {
            if (StoredType.FLOATS[new SplittableRandom(seed).nextInt(StoredType.FLOATS.length)] != StoredType.FLOAT) {
                continue; // CaseRandom's first draw: a dense case's one dtype
            }
            lines.add(OperatorCases.line("PreluBackward FLOAT", seed, true,
                    PreluBackwardCase.run(seed, OperatorCases.MAX_NUMEL, true)));
            cases++;
        }
        for (Map.Entry<String, BiFunction<Long, Boolean, long[][]>> op : OPERATORS.entrySet()) {
            long first = 0xF0_0000L + 0x1000L * lines.size();
            for (long seed = first; seed < first + SEEDS; seed++) {
                for (boolean dense : new boolean[] {false, true}) {
                    lines.add(OperatorCases.line(op.getKey(), seed, dense, op.getValue().apply(seed, dense)));
                }
            }
        }
        return lines;
    }

    /** The child's side: the same cases, their digests on stdout. */
    public static void main(String[] args) {
        digests().forEach(System.out::println);
    }
}
