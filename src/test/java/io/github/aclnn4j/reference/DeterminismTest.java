package io.github.aclnn4j.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.kernel.Parallel;
import io.github.aclnn4j.testing.TestDevice;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same case gives bitwise identical outputs run after run and whatever the number of compute
 * threads (SPEC §4), for small cases and for large ones, whose reductions are split across threads.
 * Thread counts are set through the kernel's pool, which layer 1 has no call for; the runs its
 * workers take show that every operator's large cases did split their work.
 */
class DeterminismTest {
    private static final int LARGE_NUMEL = 300_000;
    private static final int SEEDS_PER_OPERATOR = 12;
    /** Runs the compute workers took in each operator's runs on 3 and 8 threads. */
    private static final Map<String, Long> WORKER_RUNS = new ConcurrentHashMap<>();

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> cases = Stream.builder();
        addCases(cases, "BinaryCrossEntropyBackward", 0xD1_0000L, BinaryCrossEntropyBackwardCase::run);
        addCases(cases, "PreluBackward", 0xD2_0000L, PreluBackwardCase::run);
        addCases(cases, "BinaryCrossEntropyWithLogits", 0xD3_0000L, BinaryCrossEntropyWithLogitsCase::run);
        addCases(cases, "GroupNormBackward", 0xD4_0000L, GroupNormBackwardCase::run);
        addCases(cases, "NllLossBackward", 0xD5_0000L, NllLossBackwardCase::run);
        // Dense cases take the direct loops, whose sums group lanes their own way.
        addCases(cases, "BinaryCrossEntropyBackward dense", 0xD6_0000L,
                (s, n) -> BinaryCrossEntropyBackwardCase.run(s, n, true));
        addCases(cases, "PreluBackward dense", 0xD7_0000L, (s, n) -> PreluBackwardCase.run(s, n, true));
        addCases(cases, "BinaryCrossEntropyWithLogits dense", 0xD8_0000L,
                (s, n) -> BinaryCrossEntropyWithLogitsCase.run(s, n, true));
        addCases(cases, "GroupNormBackward dense", 0xD9_0000L, (s, n) -> GroupNormBackwardCase.run(s, n, true));
        return cases.build();
    }

    /** A third of the cases small, the rest large. */
    private static void addCases(Stream.Builder<Arguments> cases, String operator, long firstSeed,
            BiFunction<Long, Integer, long[][]> run) {
        for (long seed = firstSeed; seed < firstSeed + SEEDS_PER_OPERATOR; seed++) {
            int maxNumel = seed % 3 == 0 ? RandomCases.MAX_NUMEL : LARGE_NUMEL;
            cases.add(Arguments.of(operator, seed, maxNumel, run));
        }
    }

    @AfterAll
    static void everyOperatorSplitItsWork() {
        for (String operator : WORKER_RUNS.keySet()) {
            assertTrue(WORKER_RUNS.get(operator) > 0, operator + ": no compute worker took part in any run on 3 or "
                    + "8 threads; the kernels did not split their work");
        }
    }

    @ParameterizedTest(name = "{0} seed {1} max numel {2}")
    @MethodSource("cases")
    void sameBitsEveryRunAndThreadCount(String operator, long seed, int maxNumel,
            BiFunction<Long, Integer, long[][]> run) {
        long[][] first = run.apply(seed, maxNumel);
        assertArrayEquals(first, run.apply(seed, maxNumel), operator + " seed " + seed + ": a second run differs");
        int defaultThreads = Parallel.threads();
        try {
            for (int threads : new int[] {1, 3, 8}) {
                Parallel.setThreads(threads);
                long workerRuns = Parallel.workerRuns();
                assertArrayEquals(first, run.apply(seed, maxNumel), operator + " seed " + seed + ": a run on "
                        + threads + " threads differs from the first run (on " + defaultThreads + ")");
                if (threads > 1) {
                    WORKER_RUNS.merge(operator, Parallel.workerRuns() - workerRuns, Long::sum);
                }
            }
        } finally {
            Parallel.setThreads(defaultThreads);
        }
    }
}
