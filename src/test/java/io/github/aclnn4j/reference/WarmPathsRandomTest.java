package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.util.List;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * The seeded random cases that lead to the kernels' direct loops and the strided views' Vector API
 * loops, in a child JVM whose loops run from the first call ({@code -Daclnn4j.warmup=false}),
 * against the float64 reference. In the suite's own JVM the same cases take the plain-Java paths
 * until the warm-up has compiled those loops, so which paths they cover there depends on when they
 * run (a misplaced stretch in GroupNorm backward's staged channels-last store survived every seeded
 * case there). Here every case takes the path a warm program's call takes.
 */
class WarmPathsRandomTest {
    /** Cases per kind: a slice of each random suite, enough to meet every dtype and layout. */
    private static final int SEEDS = 40;
    private static final String DONE = "done ";
    /** DenseRandomTest's largest case: several blocks, so whole steps, a block's last rows and splits occur. */
    private static final int DENSE = 3 * 4096 + 100;

    @Test
    void warmPathsMatchTheReference() throws Exception {
        List<String> done = ChildJvm.runWith(List.of("-Daclnn4j.warmup=false"), WarmPathsRandomTest.class)
                .lines().filter(l -> l.startsWith(DONE)).toList();
        assertEquals(KINDS.size(), done.size(), "kinds of cases checked: " + done);
    }

    private record Kind(String name, long firstSeed, LongConsumer run) {}

    /**
     * DenseRandomTest's cases and the first of each random suite's, from the same seeds, for the
     * operators with Vector API loops (NLLLoss has none).
     */
    private static final List<Kind> KINDS = List.of(
            new Kind("BCE backward dense", 0xE1_0000L, s -> BinaryCrossEntropyBackwardCase.run(s, DENSE, true)),
            new Kind("PReLU backward dense", 0xE2_0000L, s -> PreluBackwardCase.run(s, DENSE, true)),
            new Kind("BCE with logits dense", 0xE3_0000L,
                    s -> BinaryCrossEntropyWithLogitsCase.run(s, DENSE, true)),
            new Kind("GroupNorm backward dense", 0xE4_0000L, s -> GroupNormBackwardCase.run(s, DENSE, true)),
            new Kind("PReLU dense", 0xE6_0000L, s -> PreluCase.run(s, DENSE, true)),
            new Kind("BCE dense", 0xE7_0000L, s -> BinaryCrossEntropyCase.run(s, DENSE, true)),
            new Kind("BCE with logits backward dense", 0xE8_0000L,
                    s -> BinaryCrossEntropyWithLogitsBackwardCase.run(s, DENSE, true)),
            new Kind("GroupNorm dense", 0xEA_0000L, s -> GroupNormCase.run(s, DENSE, true)),
            new Kind("BCE backward", 0x1000_0000L, s -> BinaryCrossEntropyBackwardCase.run(s, RandomCases.MAX_NUMEL)),
            new Kind("PReLU backward", 0x2000_0000L, s -> PreluBackwardCase.run(s, RandomCases.MAX_NUMEL)),
            new Kind("BCE with logits", 0x3000_0000L,
                    s -> BinaryCrossEntropyWithLogitsCase.run(s, RandomCases.MAX_NUMEL)),
            new Kind("GroupNorm backward", 0x4000_0000L, s -> GroupNormBackwardCase.run(s, RandomCases.MAX_NUMEL)),
            new Kind("PReLU", 0x6000_0000L, s -> PreluCase.run(s, RandomCases.MAX_NUMEL)),
            new Kind("GroupNorm", 0xA000_0000L, s -> GroupNormCase.run(s, RandomCases.MAX_NUMEL)),
            new Kind("BCE backward 16-bit layouts", 0x1100_0000L, BinaryCrossEntropyBackwardCase::runHalfLayouts),
            new Kind("BCE with logits 16-bit layouts", 0x3100_0000L, BinaryCrossEntropyWithLogitsCase::runHalfLayouts),
            new Kind("BCE with logits backward 16-bit layouts", 0x8100_0000L,
                    BinaryCrossEntropyWithLogitsBackwardCase::runHalfLayouts),
            new Kind("BCE backward FLOAT layouts", 0x1200_0000L, BinaryCrossEntropyBackwardCase::runFloatLayouts),
            new Kind("BCE 16-bit layouts", 0x7100_0000L, BinaryCrossEntropyCase::runHalfLayouts),
            new Kind("BCE FLOAT layouts", 0x7200_0000L, BinaryCrossEntropyCase::runFloatLayouts),
            new Kind("BCE with logits FLOAT layouts", 0x3200_0000L, BinaryCrossEntropyWithLogitsCase::runFloatLayouts),
            new Kind("BCE with logits backward FLOAT layouts", 0x8200_0000L,
                    BinaryCrossEntropyWithLogitsBackwardCase::runFloatLayouts),
            new Kind("PReLU backward 16-bit layouts", 0x2100_0000L, PreluBackwardCase::runHalfLayouts),
            new Kind("PReLU backward channels-last FLOAT", 0x2200_0000L, PreluBackwardCase::runChannelsLastFloat),
            new Kind("PReLU backward channels-last BFLOAT16", 0x2300_0000L, PreluBackwardCase::runChannelsLastBf16),
            new Kind("PReLU channels-last 16-bit", 0x6100_0000L, PreluCase::runChannelsLastHalf),
            new Kind("PReLU channels-last FLOAT", 0x6200_0000L, PreluCase::runChannelsLastFloat),
            new Kind("GroupNorm backward channels-last", 0x4100_0000L,
                    s -> GroupNormBackwardCase.runChannelsLast(s, s % 2 == 0)),
            // SpecialValuesRandomTest's dense cases and BCE with logits' layouts, whose infinities and
            // NaNs reach the direct loops here only
            special("BCE backward", 0x5E_0100L, s -> BinaryCrossEntropyBackwardCase.run(s, DENSE, true)),
            special("PReLU backward", 0x5E_0200L, s -> PreluBackwardCase.run(s, DENSE, true)),
            special("BCE with logits", 0x5E_0300L, s -> BinaryCrossEntropyWithLogitsCase.run(s, DENSE, true)),
            special("GroupNorm backward", 0x5E_0400L, s -> GroupNormBackwardCase.run(s, DENSE, true)),
            special("PReLU", 0x5E_0600L, s -> PreluCase.run(s, DENSE, true)),
            special("BCE", 0x5E_0700L, s -> BinaryCrossEntropyCase.run(s, DENSE, true)),
            special("BCE with logits backward", 0x5E_0800L,
                    s -> BinaryCrossEntropyWithLogitsBackwardCase.run(s, DENSE, true)),
            special("GroupNorm", 0x5E_0A00L, s -> GroupNormCase.run(s, DENSE, true)),
            special("BCE with logits 16-bit layouts", 0x5E_1500L, BinaryCrossEntropyWithLogitsCase::runHalfLayouts),
            special("BCE with logits FLOAT layouts", 0x5E_1600L, BinaryCrossEntropyWithLogitsCase::runFloatLayouts));

    /** A kind whose seeds put special values among the inputs ({@link CaseContext#withSpecials}). */
    private static Kind special(String name, long firstSeed, LongConsumer run) {
        return new Kind(name + ", special values", firstSeed, s -> run.accept(CaseContext.withSpecials(s)));
    }

    /** The child's side: every kind's cases, a line per kind once all of them matched the reference. */
    public static void main(String[] args) {
        TestDevice.init();
        for (Kind kind : KINDS) {
            for (long seed = kind.firstSeed(); seed < kind.firstSeed() + SEEDS; seed++) {
                kind.run().accept(seed);
            }
            System.out.println(DONE + kind.name());
        }
    }
}
