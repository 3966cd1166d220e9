package io.github.aclnn4j.bench;

import io.github.aclnn4j.acl.AclDataType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/** JMH: the per-call overhead, a 2×2 BCE backward (phase 1 + phase 2 + synchronize). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
        "--enable-native-access=ALL-UNNAMED"})
public class SmallCallBenchmark {
    private Workload workload;

    @Setup(Level.Trial)
    public void setUp() {
        Workload.initRuntime();
        workload = Workload.create(Workload.Kind.BCE_BACKWARD_2X2, AclDataType.ACL_FLOAT);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        workload.close();
    }

    @Benchmark
    public void bceBackward2x2() {
        workload.run();
    }
}
