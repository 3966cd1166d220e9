package io.github.aclnn4j.bench;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Two builds of aclnn4j in one JVM, each in a class loader of its own, running one workload in
 * alternating 250 ms slices: on a shared, noisy machine this resolves differences of 10% that
 * separate runs cannot, since both builds see the same moments of the machine. Prints the median
 * and the 10th and 90th percentiles of the calls after the first quarter of slices (warm-up).
 *
 * <p>The build set up first runs faster on some lines: with one jar in both places, 10-12% on the
 * 16-bit transposing lines (BFLOAT16 BCE with logits transposed, channels-last PReLU), 1% on dense
 * FLOAT BCE backward (Emerald Rapids, 2026-11-28). {@code ./aclnn4j bench ab} therefore runs a
 * second JVM with the builds set up the other way round ({@code -Daclnn4j.ab.newFirst=true}) and
 * prints both: read a difference only where the two orders agree.
 *
 * <p>Only for builds that use the same vector shapes: the JDK's Vector API classes are shared
 * between the loaders, and two shapes of one element type pollute each other's JIT profiles (one
 * such pair ran 4x slower here than either alone). Compare in fresh JVMs otherwise.
 *
 * <p>{@code ./aclnn4j bench ab OLD.jar NEW.jar KIND DTYPE [SLICES]}, with KIND a
 * {@link Workload.Kind} name and DTYPE FLOAT, BFLOAT16 or FLOAT16; or
 * {@code ./aclnn4j bench ab OLD.jar NEW.jar "LINE" [SLICES]}, with LINE a call in the syntax of
 * {@code bench/usage.txt} (e.g. {@code "op=prelu dtype=FLOAT shape=16,64,64,64 weight=channels"}).
 */
public final class InProcessAb {
    private static final long SLICE_NANOS = 250_000_000L;

    private InProcessAb() {}

    public static void main(String[] args) throws Exception {
        boolean usageLine = args.length >= 3 && args[2].contains("=");
        if (args.length < (usageLine ? 3 : 4)) {
            System.err.println("usage: InProcessAb OLD.jar NEW.jar KIND DTYPE [SLICES] | OLD.jar NEW.jar LINE [SLICES]");
            System.exit(2);
        }
        int slicesAt = usageLine ? 3 : 4;
        int slices = args.length > slicesAt ? Integer.parseInt(args[slicesAt]) : 40;
        String title = usageLine ? args[2] : args[2] + " " + args[3];
        URL bench = InProcessAb.class.getProtectionDomain().getCodeSource().getLocation();
        boolean newFirst = Boolean.getBoolean("aclnn4j.ab.newFirst");
        String[] names = newFirst ? new String[] {"new (set up first)", "old (second)"}
                : new String[] {"old (set up first)", "new (second)"};
        String[] jars = newFirst ? new String[] {args[1], args[0]} : new String[] {args[0], args[1]};
        Object[] workloads = new Object[2];
        Method[] runs = new Method[2];
        for (int v = 0; v < 2; v++) {
            // The build's jar first: its aclnn4j classes win over the copies shaded into the bench jar.
            ClassLoader loader = new URLClassLoader(new URL[] {Path.of(jars[v]).toUri().toURL(), bench},
                    ClassLoader.getPlatformClassLoader());
            Class<?> workload = loader.loadClass(Workload.class.getName());
            Class<?> kind = loader.loadClass(Workload.Kind.class.getName());
            workload.getMethod("initRuntime").invoke(null);
            if (usageLine) {
                Class<?> call = loader.loadClass(UsageCall.class.getName());
                Method standalone = call.getMethod("standalone", String.class);
                standalone.setAccessible(true); // a package-private class, in another loader's package
                workloads[v] = standalone.invoke(null, args[2]);
                runs[v] = Runnable.class.getMethod("run");
                continue;
            }
            int dtype = (int) workload.getMethod("dtypeCode", String.class).invoke(null, args[3]);
            Object k = kind.getMethod("valueOf", String.class).invoke(null, args[2]);
            workloads[v] = workload.getMethod("create", kind, int.class).invoke(null, k, dtype);
            runs[v] = workload.getMethod("run");
        }
        List<List<Long>> nanos = List.of(new ArrayList<>(), new ArrayList<>());
        for (int s = 0; s < slices; s++) {
            for (int v = 0; v < 2; v++) {
                long end = System.nanoTime() + SLICE_NANOS;
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    runs[v].invoke(workloads[v]);
                    if (s >= slices / 4) {
                        nanos.get(v).add(System.nanoTime() - start);
                    }
                }
            }
        }
        for (int v = 0; v < 2; v++) {
            List<Long> t = nanos.get(v);
            Collections.sort(t);
            System.out.printf(Locale.ROOT, "%s %s: median %.3f ms, p10 %.3f, p90 %.3f (%d calls)%n", names[v],
                    title, t.get(t.size() / 2) / 1e6, t.get(t.size() / 10) / 1e6,
                    t.get(t.size() * 9 / 10) / 1e6, t.size());
        }
    }
}
