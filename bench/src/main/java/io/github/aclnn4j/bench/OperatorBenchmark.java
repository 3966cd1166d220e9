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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/** JMH: every workload of issue 3, phase 1 + phase 2 + synchronize per operation. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
// Steady state: the Vector API's loops from the first call. With the library's warm-up, large cold
// calls run plain Java until it switches them, 5-7 s in: during the measurement iterations.
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
        "--enable-native-access=ALL-UNNAMED", "-Daclnn4j.warmup=false"})
public class OperatorBenchmark {
    @Param({"BCE_BACKWARD_MEAN", "BCE_LOGITS_NONE", "BCE_LOGITS_MEAN", "PRELU_BACKWARD", "GROUP_NORM_BACKWARD",
        "NLL_BACKWARD_MEAN"})
    public Workload.Kind kind;

    @Param({"FLOAT", "BFLOAT16", "FLOAT16"})
    public String dtype;

    private Workload workload;

    @Setup(Level.Trial)
    public void setUp() {
        Workload.initRuntime();
        workload = Workload.create(kind, switch (dtype) {
            case "FLOAT" -> AclDataType.ACL_FLOAT;
            case "BFLOAT16" -> AclDataType.ACL_BF16;
            default -> AclDataType.ACL_FLOAT16;
        });
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        workload.close();
    }

    @Benchmark
    public void run() {
        workload.run();
    }
}
