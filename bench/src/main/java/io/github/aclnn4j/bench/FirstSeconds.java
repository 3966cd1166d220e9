package io.github.aclnn4j.bench;

import io.github.aclnn4j.acl.AclrtStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * A long-running program's first seconds: in a fresh JVM, one {@code bench/usage.txt} line called
 * over and over, each call timed (phase 1, phase 2, synchronize). Prints the first call, the first
 * ten, when the calls reached their steady speed (the first of five calls in a row within 3× of
 * the median of the last twenty: the library's switch from plain Java to the Vector API's loops,
 * once its warm-up has compiled them), the total and that median, in ms; with {@code --each}, every
 * call's time too. {@code ./aclnn4j bench first LINE [CALLS] [--each]}.
 */
public final class FirstSeconds {
    private FirstSeconds() {}

    public static void main(String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: FirstSeconds 'LINE OF bench/usage.txt' [CALLS] [--each]");
        }
        int calls = args.length > 1 && !args[1].equals("--each") ? Integer.parseInt(args[1]) : 300;
        boolean each = Arrays.asList(args).contains("--each");
        if (calls < 25) {
            throw new IllegalArgumentException("at least 25 calls: the steady speed is the last twenty's");
        }
        AclrtStream stream = UsageCall.startRuntime();
        double[] ms = new double[calls];
        try (UsageCall call = new UsageCall(0, args[0]).make()) {
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                call.run(stream);
                ms[i] = (System.nanoTime() - start) / 1e6;
            }
        }
        double[] last = Arrays.copyOfRange(ms, calls - 20, calls);
        Arrays.sort(last);
        double steady = (last[9] + last[10]) / 2;
        int switched = -1;
        double before = 0;
        for (int i = 0; i + 5 <= calls && switched < 0; i++) {
            boolean fast = true;
            for (int k = i; k < i + 5; k++) {
                fast &= ms[k] < 3 * steady;
            }
            if (fast) {
                switched = i;
            } else {
                before += ms[i];
            }
        }
        double total = Arrays.stream(ms).sum();
        double firstTen = Arrays.stream(ms, 0, 10).sum();
        System.out.printf(Locale.ROOT, "first %.1f, first ten %.1f, steady from call %d at %.0f ms, %d calls %.0f ms,"
                + " steady %.3f ms a call%n", ms[0], firstTen, switched + 1, before, calls, total, steady);
        if (each) {
            StringBuilder all = new StringBuilder();
            for (double t : ms) {
                all.append(String.format(Locale.ROOT, "%.2f ", t));
            }
            System.out.println(all.toString().strip());
        }
    }
}
