package io.github.aclnn4j.bench;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Every workload of the table in one JVM, in turn, for as many passes as asked: what a long-lived
 * program sees, where the table gives each row a fresh JVM. Per workload, after half its time as
 * warm-up: mean ms per call and bytes allocated per call on all threads. A call that allocates
 * megabytes runs boxed vectors: a loop the JIT compiled badly, or not at all yet.
 *
 * <p>{@code ./aclnn4j bench longrun [PASSES] [MS per workload]}
 */
public final class LongRun {
    private LongRun() {}

    public static void main(String[] args) throws Exception {
        int passes = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        long ms = args.length > 1 ? Long.parseLong(args[1]) : 1500;
        Workload.initRuntime();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        System.out.println("| pass | operator | dtype | ms per call | bytes per call |");
        System.out.println("|---:|---|---|---:|---:|");
        for (int pass = 1; pass <= passes; pass++) {
            for (Workload.Kind kind : Workload.Kind.values()) {
                if (kind == Workload.Kind.BCE_BACKWARD_2X2) {
                    continue;
                }
                for (int dtype : Workload.DTYPES) {
                    try (Workload w = Workload.create(kind, dtype)) {
                        long start = System.nanoTime();
                        while (System.nanoTime() - start < ms * 500_000L) {
                            w.run();
                        }
                        long bytes = threads.getTotalThreadAllocatedBytes();
                        long measured = System.nanoTime();
                        int calls = 0;
                        while (calls == 0 || System.nanoTime() - start < ms * 1_000_000L) {
                            w.run();
                            calls++;
                        }
                        System.out.printf(Locale.ROOT, "| %d | %s | %s | %.2f | %d |%n", pass, kind.title,
                                Workload.dtypeName(dtype), (System.nanoTime() - measured) / 1e6 / calls,
                                (threads.getTotalThreadAllocatedBytes() - bytes) / calls);
                    }
                }
            }
        }
    }
}
