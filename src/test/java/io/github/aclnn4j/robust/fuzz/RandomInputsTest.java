package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fuzz targets on seeded random choices, in every test run: deterministic where fuzzing is
 * not, and never short of data (a fuzzer's first inputs are a few bytes, which leave most choices
 * at their defaults), so that every mutation and phase-2 path runs. {@code
 * -Daclnn4j.fuzz.randomInputs} sets the count per target.
 */
class RandomInputsTest {
    private static final int INPUTS = Integer.getInteger("aclnn4j.fuzz.randomInputs", 400);

    @ParameterizedTest
    @EnumSource(FuzzedOperator.class)
    void operator(FuzzedOperator op) {
        forEachInput(0xF0 + op.ordinal(), data -> OperatorFuzzer.fuzz(op, data));
    }

    @Test
    void tensorApi() {
        forEachInput(0xFF, TensorApiFuzzer::fuzz);
    }

    private static void forEachInput(long seed, Consumer<FuzzedDataProvider> target) {
        for (int i = 0; i < INPUTS; i++) {
            try {
                target.accept(random(seed * 1_000_003 + i));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("random input " + i + " of seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * A FuzzedDataProvider whose every choice is uniform over its range, from a seeded generator.
     * Only the draws the fuzzers make are implemented (the pickValue defaults call consumeInt).
     */
    private static FuzzedDataProvider random(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        InvocationHandler draws = (proxy, method, args) -> {
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            return switch (method.getName() + "/" + method.getParameterCount()) {
                case "consumeInt/2" -> (int) r.nextLong((int) args[0], (int) args[1] + 1L);
                case "consumeLong/0" -> r.nextLong();
                case "consumeBoolean/0" -> r.nextBoolean();
                case "consumeBooleans/1" -> {
                    boolean[] b = new boolean[r.nextInt((int) args[0] + 1)];
                    for (int i = 0; i < b.length; i++) {
                        b[i] = r.nextBoolean();
                    }
                    yield b;
                }
                default -> throw new UnsupportedOperationException("RandomInputsTest does not draw " + method);
            };
        };
        return (FuzzedDataProvider) Proxy.newProxyInstance(FuzzedDataProvider.class.getClassLoader(),
                new Class<?>[] {FuzzedDataProvider.class}, draws);
    }
}
