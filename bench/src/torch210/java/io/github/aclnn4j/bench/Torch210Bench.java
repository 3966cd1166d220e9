package io.github.aclnn4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.bytedeco.javacpp.BoolPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.pytorch.Dispatcher;
import org.bytedeco.pytorch.IValue;
import org.bytedeco.pytorch.IValueVector;
import org.bytedeco.pytorch.OperatorHandle;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;
import org.bytedeco.pytorch.global.torch.ScalarType;

/**
 * Current PyTorch (2.10, JavaCPP presets) on the workloads of {@link Workload}: the same aten calls,
 * sizes and value ranges as {@code bench/torch_bench.py} (the PyTorch 1.13 peer), and its output format:
 * {@code # torch VERSION threads N}, then {@code KIND DTYPE MEDIAN_MS} or {@code KIND DTYPE n/a REASON}.
 * Arguments: {@code [threads] [repeats]}, or {@code --probe} to load libtorch, check it and exit.
 *
 * <p>Meant to run in a child JVM ({@link BenchTable} starts it): loading libtorch can crash the process
 * (see {@link #loadLibtorch()}), and a crash must not take the table with it. Exit status 3 means
 * the wrong libtorch was loaded.
 */
public final class Torch210Bench {
    private static final String EXPECTED_VERSION = "2.10.";
    private static final long N = 1L << 24;
    private static final String[] KINDS = {"BCE_BACKWARD_MEAN", "BCE_LOGITS_NONE", "BCE_LOGITS_MEAN",
        "PRELU_BACKWARD", "GROUP_NORM_BACKWARD", "NLL_BACKWARD_MEAN", "BCE_BACKWARD_2X2"};
    private static final String[] DTYPE_NAMES = {"FLOAT", "BFLOAT16", "FLOAT16"};
    private static final ScalarType[] DTYPES = {ScalarType.Float, ScalarType.BFloat16, ScalarType.Half};

    /** Native objects of the current workload, freed when it is done (64 MB tensors must not wait for GC). */
    private final List<Pointer> owned = new ArrayList<>();

    private Torch210Bench() {}

    public static void main(String[] args) throws IOException {
        boolean probe = args.length > 0 && args[0].equals("--probe");
        int threads = !probe && args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int repeats = !probe && args.length > 1 ? Integer.parseInt(args[1]) : 15;
        String libtorch = loadLibtorch();
        torch.set_num_threads(threads);
        String version = version();
        System.out.printf("# torch %s threads %d%n", version, torch.get_num_threads());
        System.out.printf("# libtorch %s%n", libtorch);
        System.out.flush();
        if (!version.startsWith(EXPECTED_VERSION)) {
            System.err.println("expected libtorch " + EXPECTED_VERSION + "x, loaded " + version);
            System.exit(3);
        }
        if (probe) {
            return;
        }
        torch.manual_seed(0);
        new Torch210Bench().run(repeats);
    }

    /**
     * Loads JavaCPP's libtorch and returns the path of the libtorch_cpu it mapped. JavaCPP unpacks each
     * library just before loading it, so in the JVM that unpacks first, libtorch.so is loaded while its
     * libtorch_cpu.so is not unpacked yet: the dynamic linker then takes a system libtorch_cpu.so
     * (Debian's 1.13) instead and the process dies with SIGSEGV once both are mapped. Unpacking the
     * whole directory first avoids that. A mix-up that survives loading is caught by the check of
     * /proc/self/maps; one that crashes is left to the caller's retry.
     */
    private static String loadLibtorch() throws IOException {
        Loader.cacheResources("/org/bytedeco/pytorch/" + Loader.getPlatform() + "/");
        String jni = Loader.load(torch.class);
        Path dir = Path.of(jni).getParent();
        TreeSet<String> mapped = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int slash = line.indexOf('/');
            if (slash >= 0 && line.matches(".*/lib(torch|torch_cpu|c10)\\.so[.0-9]*$")) {
                mapped.add(line.substring(slash));
            }
        }
        List<String> foreign = mapped.stream().filter(p -> !Path.of(p).getParent().equals(dir)).toList();
        if (!foreign.isEmpty()) {
            System.err.println("another libtorch is mapped beside " + dir + ": " + foreign);
            System.exit(3);
        }
        return mapped.stream().filter(p -> p.endsWith("libtorch_cpu.so")).findFirst().orElse(jni);
    }

    /** The version the loaded library reports about itself (its build settings), not the jar's name. */
    private static String version() {
        String config = torch.show_config().getString();
        int at = config.indexOf("TORCH_VERSION=");
        if (at < 0) {
            return "unknown";
        }
        int end = config.indexOf(',', at);
        return config.substring(at + "TORCH_VERSION=".length(), end < 0 ? config.length() : end).strip();
    }

    private void run(int repeats) {
        for (String kind : KINDS) {
            for (int d = 0; d < DTYPES.length; d++) {
                if (kind.equals("BCE_BACKWARD_2X2") && d != 0) {
                    continue;
                }
                try {
                    Runnable op = workload(kind, DTYPES[d]);
                    double ms = medianMs(op, kind.equals("BCE_BACKWARD_2X2") ? 20000 : repeats);
                    System.out.printf(Locale.ROOT, "%s %s %.6f%n", kind, DTYPE_NAMES[d], ms);
                } catch (RuntimeException e) { // e.g. no kernel for a dtype on CPU
                    String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                    String reason = first.substring(0, Math.min(80, first.length())).replace(' ', '_');
                    System.out.printf("%s %s n/a %s%n", kind, DTYPE_NAMES[d], reason);
                } finally {
                    owned.forEach(Pointer::close);
                    owned.clear();
                }
                System.out.flush();
            }
        }
    }

    private <P extends Pointer> P own(P p) {
        owned.add(p);
        return p;
    }

    /** torch.rand(shape) * (hi - lo) + lo in float32, then cast, as torch_bench.py's uniform(). */
    private Tensor uniform(long[] shape, double lo, double hi, ScalarType dtype) {
        Tensor t = own(torch.rand(shape));
        t.mul_(own(new Scalar(hi - lo))).add_(own(new Scalar(lo)));
        return dtype == ScalarType.Float ? t : own(t.to(dtype));
    }

    private Tensor full(long[] shape, double value, ScalarType dtype) {
        return own(own(torch.full(shape, own(new Scalar(value)))).to(dtype));
    }

    /** The timed call; each closes its result at once, as Python frees it when the call returns. */
    private Runnable workload(String kind, ScalarType dtype) {
        TensorOptional none = own(new TensorOptional());
        switch (kind) {
            case "BCE_BACKWARD_MEAN", "BCE_BACKWARD_2X2" -> {
                boolean small = kind.equals("BCE_BACKWARD_2X2");
                long[] shape = small ? new long[] {2, 2} : new long[] {N};
                Tensor grad = full(new long[0], 0.5, dtype);
                Tensor x = uniform(shape, 0.01, 0.99, dtype);
                Tensor y = uniform(shape, 0, 1, dtype);
                long reduction = small ? 0 : 1;
                return () -> torch.binary_cross_entropy_backward(grad, x, y, none, reduction).close();
            }
            case "BCE_LOGITS_NONE", "BCE_LOGITS_MEAN" -> {
                Tensor x = uniform(new long[] {N}, -8, 8, dtype);
                Tensor y = uniform(new long[] {N}, 0, 1, dtype);
                long reduction = kind.equals("BCE_LOGITS_NONE") ? 0 : 1;
                return () -> torch.binary_cross_entropy_with_logits(x, y, none, none, reduction).close();
            }
            case "PRELU_BACKWARD" -> {
                long[] shape = {64, 256, 32, 32};
                Tensor grad = uniform(shape, -1, 1, dtype);
                Tensor x = uniform(shape, -1, 1, dtype);
                Tensor w = own(uniform(new long[] {256}, 0, 0.5, dtype).reshape(1, -1, 1, 1));
                // at::_prelu_kernel_backward has no binding in the presets; the dispatcher reaches the same kernel.
                OperatorHandle op = own(Dispatcher.singleton().findSchemaOrThrow("aten::_prelu_kernel_backward", ""));
                IValue[] in = {own(new IValue(grad)), own(new IValue(x)), own(new IValue(w))};
                return () -> {
                    try (IValueVector stack = new IValueVector(in)) {
                        op.callBoxed(stack); // leaves (grad_input, grad_weight) on the stack, freed with it
                    }
                };
            }
            case "GROUP_NORM_BACKWARD" -> {
                long[] shape = {32, 256, 32, 32};
                Tensor dy = uniform(shape, -1, 1, dtype);
                Tensor x = uniform(shape, -2, 2, dtype);
                Tensor mean = uniform(new long[] {32, 32}, -0.1, 0.1, dtype);
                Tensor rstd = uniform(new long[] {32, 32}, 0.5, 1.5, dtype);
                TensorOptional gamma = own(new TensorOptional(uniform(new long[] {256}, 0.5, 1.5, dtype)));
                BoolPointer mask = own(new BoolPointer(3));
                for (int i = 0; i < 3; i++) {
                    mask.put(i, true);
                }
                return () -> torch.native_group_norm_backward(dy, x, mean, rstd, gamma, 32, 256, 1024, 32, mask)
                        .close();
            }
            case "NLL_BACKWARD_MEAN" -> {
                long rows = 65536;
                long classes = 256;
                Tensor grad = full(new long[0], 1, dtype);
                Tensor x = uniform(new long[] {rows, classes}, -1, 0, dtype);
                Tensor target = own(own(torch.randint(0, classes, new long[] {rows})).to(ScalarType.Long));
                TensorOptional weight = own(new TensorOptional(full(new long[] {classes}, 1, dtype)));
                Tensor total = full(new long[0], rows, dtype);
                return () -> torch.nll_loss_backward(grad, x, target, weight, 1, -100, total).close();
            }
            default -> throw new IllegalArgumentException(kind);
        }
    }

    /** The median of {@code repeats} calls, after at least 2 s (and 3 calls) of warm-up. */
    private static double medianMs(Runnable op, int repeats) {
        long warmUntil = System.nanoTime() + 2_000_000_000L;
        for (int i = 0; i < 3 || System.nanoTime() < warmUntil; i++) {
            op.run();
        }
        long[] t = new long[repeats];
        for (int i = 0; i < repeats; i++) {
            long start = System.nanoTime();
            op.run();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[repeats / 2] / 1e6;
    }
}
