package io.github.aclnn4j.bench;

import io.github.aclnn4j.acl.AclrtStream;

/**
 * One operator's cold start, as a short program meets it: in a fresh JVM, from {@code main} on,
 * the runtime set up, the tensors of one {@code bench/usage.txt} line made, then the call made
 * again and again; prints the milliseconds since {@code main} began after 1, 10, 100 and 1000
 * calls (each call: phase 1, phase 2, synchronize), as {@code ms1 ms10 ms100 ms1000}.
 * {@code ./aclnn4j bench cold} starts one JVM per operator and PyTorch ({@code bench/torch_cold.py})
 * beside it.
 */
public final class ColdStart {
    private ColdStart() {}

    public static void main(String[] args) {
        long start = System.nanoTime();
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ColdStart 'LINE OF bench/usage.txt'");
        }
        AclrtStream stream = UsageCall.startRuntime();
        StringBuilder times = new StringBuilder();
        try (UsageCall call = new UsageCall(0, args[0]).make()) {
            for (int calls = 1; calls <= 1000; calls++) {
                call.run(stream);
                if (calls == 1 || calls == 10 || calls == 100 || calls == 1000) {
                    times.append(String.format(java.util.Locale.ROOT, "%.3f ", (System.nanoTime() - start) / 1e6));
                }
            }
        }
        System.out.println(times.toString().strip());
    }
}
