package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * BCE backward's and PReLU backward's direct loops write an output that is not dense through
 * scratch, scattered a block at a time ({@code DirectOperands#output}): dense FLOAT inputs into
 * outputs of random strided layouts, against the float64 reference, in a child JVM whose Vector
 * API loops run from the first call (the seeded cases rarely pair dense inputs with a strided out).
 * GroupNorm backward's channels-last FLOAT samples into an NCHW gradInput likewise, large enough
 * for several staged stretches of positions per sample.
 */
class DirectOutputLayoutTest {
    private static final int SEEDS = 12;
    private static final int GROUP_NORM_SEEDS = 4;

    @Test
    void aStridedOutGetsTheReferenceValues() throws Exception {
        List<String> done = ChildJvm.runWith(List.of("-Daclnn4j.warmup=false"), DirectOutputLayoutTest.class)
                .lines().filter(l -> l.startsWith("case ")).toList();
        assertEquals(2 * SEEDS + GROUP_NORM_SEEDS, done.size(), "cases checked: " + done);
    }

    /** The child's side: a line per case that matched the reference. */
    public static void main(String[] args) {
        TestDevice.init();
        for (long seed = 0; seed < SEEDS; seed++) {
            System.out.println("case " + seed + " out " + BinaryCrossEntropyBackwardCase.runIntoStridedOut(0xD0_0000L + seed));
            System.out.println("case " + seed + " gradInput "
                    + PreluBackwardCase.runIntoStridedGradInput(0xD1_0000L + seed));
        }
        for (long seed = 0; seed < GROUP_NORM_SEEDS; seed++) {
            GroupNormBackwardCase.runChannelsLastFloatIntoNchw(0xD2_0000L + seed);
            System.out.println("case " + seed + " GroupNorm backward channels-last into NCHW");
        }
    }
}
