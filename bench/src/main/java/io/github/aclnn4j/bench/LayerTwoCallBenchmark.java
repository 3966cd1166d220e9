package io.github.aclnn4j.bench;

import io.github.aclnn4j.nn.Device;
import io.github.aclnn4j.nn.Functional;
import io.github.aclnn4j.nn.Reduction;
import io.github.aclnn4j.nn.Tensor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: a layer-2 training step's loss and gradient as a Java program writes it, BCE with logits
 * (mean) and its backward, both outputs closed and the loss read every call: what each call's
 * output allocation and free cost (docs/performance.md, "Layer 2's per-call cost").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
        "--enable-native-access=ALL-UNNAMED"})
public class LayerTwoCallBenchmark {
    @Param({"4", "65536"})
    public int elements;

    private Device device;
    private Tensor self;
    private Tensor target;
    private Tensor one;

    @Setup(Level.Trial)
    public void setUp() {
        float[] x = new float[elements];
        float[] t = new float[elements];
        for (int i = 0; i < elements; i++) {
            x[i] = (i % 7) * 0.3f - 1;
            t[i] = i % 2;
        }
        device = Device.open();
        self = device.tensor(x, elements);
        target = device.tensor(t, elements);
        one = device.tensor(new float[] {1f});
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        device.close();
    }

    @Benchmark
    public float lossAndGradient() {
        try (Tensor loss = Functional.binaryCrossEntropyWithLogits(self, target, null, null, Reduction.MEAN);
                Tensor grad = Functional.binaryCrossEntropyWithLogitsBackward(one, self, target, null, null,
                        Reduction.MEAN)) {
            return loss.item();
        }
    }
}
