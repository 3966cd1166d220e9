package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Plain Java until the Vector API's loops are compiled. Until C2 has compiled a Vector API loop it
 * runs 10–100 times slower than the plain-Java loop of the same kernel (every vector an object),
 * and a short program (a unit test, a C program through the native ABI) never gets past that.
 * So a small call ({@link #SMALL_CALL} elements at most, which a program's own thread runs) takes
 * its plain-Java path while the loops are cold ({@link BulkMath#current()}, rows instead of
 * {@link DirectMath} loops; {@link #begin} and {@link #cold(long)}), and a daemon thread, started by
 * the first such call, runs each Vector API loop on data of its own until its rounds stop getting
 * faster; from then on every call takes the Vector API's loops. A larger call takes them at once:
 * its own loops run long enough for the JIT to compile them within the call (plain Java would
 * cost it 10–20 times the time until the warm-up ends). Both paths give the same bits (VectorFreeAgreementTest,
 * ColdWarmAgreementTest), so a result never depends on when it was computed. The loops that
 * still round in an order of their own on each path keep the Vector API from the first call:
 * GroupNorm backward's and PReLU backward's 16-bit direct loops (their fp32 chunk sums,
 * {@link DirectOperands#supportedWithOwnHalfSums}) and GroupNorm backward's 16-bit update.
 *
 * <p>{@code -Daclnn4j.warmup=false} takes the Vector API's loops from the first call (a program
 * that runs long enough not to care); {@code -Daclnn4j.warmup=cold} stays on plain Java (for tests
 * that compare both paths). Without the Vector API there is nothing to warm up.
 */
public final class Warmup {
    private static final String MODE = System.getProperty("aclnn4j.warmup", "true");
    private static final boolean VECTORS = vectorsWanted();
    private static volatile boolean warm = !VECTORS || MODE.equals("false");
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    /** What ended the warm-up early, if anything did (a bug: tests look at it). */
    static volatile Throwable failure;
    /**
     * Calls of at most this many elements take plain Java while the loops are cold. Above it, the
     * Vector API's loops win within the first hundred calls (fresh JVMs, Zen 3, one plain-Java
     * thread per call: PReLU backward at 2^18 elements, 1,000 calls 5.2 s on plain Java against 1.7
     * s on the vector loops; BCE with logits at 2^16, 3.3 against 2.6 s, but its first 100 calls 0.8
     * against 2.3 s; at 2^15 plain Java wins throughout: PReLU backward 1.0 against 1.3 s, GroupNorm
     * backward 0.8–1.0 against 1.6 s).
     */
    public static final long SMALL_CALL = 1 << 16;
    /** Set while this thread runs a small call planned cold. */
    private static final ThreadLocal<boolean[]> PLAIN = new ThreadLocal<>() {
        @Override
        protected boolean[] initialValue() {
            return new boolean[1];
        }
    };

    /**
     * A round's elements per loop: a quarter of a block. C2 compiles a loop once it has been called
     * some hundreds of times, whatever its length, so shorter calls get there in less time: the
     * warm-up ended 7.3–8.1 s after the first call with a block per loop, 3.9–4.0 s with a quarter
     * (Zen 3, the program idle after one BCE-with-logits call; an eighth, 3.4–3.7 s).
     */
    private static final int N = Blocks.SIZE / 4;
    /** Rounds at least, and rounds without a new fastest one that end the warm-up. */
    private static final int MIN_ROUNDS = 200;
    private static final int STABLE_ROUNDS = 50;

    private Warmup() {}

    /**
     * Whether the Vector API is there and not switched off ({@code -Daclnn4j.vector=false}), asked
     * without loading it (nor {@link BulkMath}: a call with no Vector API loops loads neither).
     */
    static boolean vectorsWanted() {
        return Boolean.parseBoolean(System.getProperty("aclnn4j.vector", "true"))
                && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /** Whether a call of {@code elements} is small and the loops are still cold. */
    private static boolean smallAndCold(long elements) {
        return !warm && elements <= SMALL_CALL;
    }

    /**
     * Whether a call of {@code elements} planned now should take its plain-Java path; asked by
     * kernels that have Vector API loops, the first such question starts the warm-up.
     */
    static boolean cold(long elements) {
        if (!smallAndCold(elements)) {
            return false;
        }
        start();
        return true;
    }

    /**
     * Whether the call this thread is running takes its plain-Java path; asked by the loops' callers
     * ({@link BulkMath#current()}), the first such question starts the warm-up.
     */
    static boolean cold() {
        if (warm || !PLAIN.get()[0]) {
            return false;
        }
        start();
        return true;
    }

    /**
     * Marks the start of phase 2 of a call of {@code elements} on this thread: plain Java if it is
     * small and the loops are cold. Returns what {@link #end} needs; a call that never asks for a
     * Vector API loop (NLLLoss) starts no warm-up. (A pair of calls rather than a wrapper taking the
     * call as a lambda, which would capture an object per call in phase 2, which allocates nothing.)
     */
    public static boolean begin(long elements) {
        if (!smallAndCold(elements)) {
            return false;
        }
        boolean[] plain = PLAIN.get();
        if (plain[0]) {
            return false;
        }
        plain[0] = true;
        return true;
    }

    /**
     * Whether this thread runs a call on its plain-Java path: such a call is not split across the
     * compute threads ({@link Parallel#forEach}). Its code is still interpreted or barely compiled
     * on every thread that runs it, and on two cores a helper takes the core the warm-up thread
     * needs: PReLU backward at 2^15 elements, first call 192 ms on one thread against 606–657 ms
     * on two, 1,000 calls 1.1 s against 3.4–4.5 s (fresh JVMs, Zen 3, {@code bench.ColdStart}).
     */
    static boolean plainCall() {
        return !warm && PLAIN.get()[0];
    }

    /** Ends what {@link #begin} started, given what it returned. */
    public static void end(boolean begun) {
        if (begun) {
            PLAIN.get()[0] = false;
        }
    }

    private static void start() {
        if (!STARTED.get() && !MODE.equals("cold") && STARTED.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("aclnn4j-warmup").start(Warmup::warmUp);
        }
    }

    private static void warmUp() {
        try (Arena arena = Arena.ofShared()) { // as device memory: a confined one would pollute the loops' profiles
            Loops loops = new Loops(arena);
            long fastest = Long.MAX_VALUE;
            for (int round = 0, sinceFastest = 0; round < MIN_ROUNDS || sinceFastest < STABLE_ROUNDS; round++) {
                long start = System.nanoTime();
                loops.round();
                long took = System.nanoTime() - start;
                if (took < fastest) {
                    fastest = took;
                    sinceFastest = 0;
                } else {
                    sinceFastest++;
                }
            }
        } catch (RuntimeException | LinkageError e) {
            failure = e; // calls then take the Vector API's loops, cold or not
        }
        warm = true;
    }

    /** Every Vector API loop the kernels call, on a block of data of its own. */
    private static final class Loops {
        private final BulkMath bulk = BulkMath.fastest();
        private final DirectMath direct = DirectMath.INSTANCE;
        private final float[] a = new float[N];
        private final float[] b = new float[N];
        private final float[] c = new float[N];
        private final float[] ones = new float[N];
        private final short[] halves = new short[N];
        private final double[] sums = new double[128];
        private final double[] channelsA = new double[64];
        private final double[] channelsB = new double[64];
        private final double[] channelsC = new double[64];
        private final double[] rowScales = new double[64];
        private final float[] rowFloats = new float[64];
        private final int[] lanes = new int[64];
        private final MemorySegment x;
        private final MemorySegment y;
        private final MemorySegment g;
        private final MemorySegment out;
        private final MemorySegment workspace;
        /** x, y and g as 16-bit values (BFLOAT16's bits; read as FLOAT16 too, finite either way). */
        private final MemorySegment hx;
        private final MemorySegment hy;
        private final MemorySegment hg;

        Loops(Arena arena) {
            java.util.SplittableRandom random = new java.util.SplittableRandom(42);
            for (int i = 0; i < N; i++) {
                ones[i] = 1f;
            }
            x = arena.allocate(4L * N, 64);
            y = arena.allocate(4L * N, 64);
            g = arena.allocate(4L * N, 64);
            out = arena.allocate(8L * N, 64);
            workspace = arena.allocate(16L * 64, 64);
            hx = arena.allocate(2L * N, 64);
            hy = arena.allocate(2L * N, 64);
            hg = arena.allocate(2L * N, 64);
            for (int i = 0; i < N; i++) {
                x.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) random.nextDouble(0.05, 0.95));
                y.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) random.nextDouble());
                g.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) random.nextDouble(-1, 1));
                hx.setAtIndex(ValueLayout.JAVA_SHORT, i, HalfFloats.toBf16(x.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
                hy.setAtIndex(ValueLayout.JAVA_SHORT, i, HalfFloats.toBf16(y.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
                hg.setAtIndex(ValueLayout.JAVA_SHORT, i, HalfFloats.toBf16(g.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
            }
        }

        private void fill() {
            MemorySegment.copy(x, ValueLayout.JAVA_FLOAT, 0, a, 0, N);
            MemorySegment.copy(y, ValueLayout.JAVA_FLOAT, 0, b, 0, N);
            MemorySegment.copy(g, ValueLayout.JAVA_FLOAT, 0, c, 0, N);
        }

        void round() {
            fill();
            bulk.floatToBf16(a, 0, halves, N);
            bulk.bf16ToFloat(halves, a, 0, N);
            bulk.bceWithLogits(a, b, ones, ones, N);
            fill();
            bulk.bceWithLogitsBackward(a, b, c, ones, ones, 1f, N);
            fill();
            bulk.binaryCrossEntropy(a, b, ones, N);
            fill();
            bulk.preluRow(a, c, 0, N, 0.25f);
            bulk.preluChannelRows(a, c, 0, N, ones, 64, channelsA);
            bulk.prelu(a, 0, N, 0.25f);
            bulk.preluWeighted(a, b, 0, N);
            fill();
            bulk.affine(a, b, 0, N, 0.5, 0.25, 0.125);
            bulk.groupNormUpdate(a, b, 0, N, 0.5f, 0.25f, 0.1f, 0.125f);
            bulk.sumAndDot(a, b, 0, N, sums);
            bulk.squaredDeviations(a, 0, N, 0.5);
            java.util.Arrays.fill(channelsA, 0);
            java.util.Arrays.fill(channelsB, 0);
            bulk.addChannelRows(a, b, N / 64, 64, channelsA, channelsB);
            bulk.addChannelSquaredDeviations(a, N / 64, 64, channelsC, channelsB);
            fill();
            bulk.affineChannelRows(a, N / 64, 64, channelsA, channelsB);
            bulk.affineChannelPairs(a, b, N / 64, 64, channelsA, channelsB, channelsC);
            bulk.sumAndDotRows(a, b, 64, N / 64, sums);
            java.util.Arrays.fill(rowScales, 0.5);
            bulk.affineRows(a, b, 64, N / 64, rowScales, 0.25, 0.125);
            java.util.Arrays.fill(rowFloats, 0.5f);
            bulk.groupNormUpdateRows(a, b, 64, N / 64, rowFloats, 0.25f, 0.1f, 0.125f);
            fill();
            bulk.storePanel(a, 0, 16, N / 16, out, 0, 64, lanes);
            bulk.loadPanel(out, 0, 64, a, 0, 16, N / 16, c, lanes);
            bulk.loadEveryOther(out, 0, a, 0, N);
            bulk.storeEveryOther(a, 0, N - 1, out, 0);
            bulk.storeBf16Panel(a, 0, 16, N / 16, out, 0, 32, lanes);
            bulk.loadBf16Panel(out, 0, 32, a, 0, 16, N / 16, c, lanes);
            bulk.transpose(b, 0, 16, N / 16, c, 0, lanes);
            if (direct != null) {
                directRound();
            }
        }

        private void directRound() {
            direct.bceBackward(DType.FLOAT, g, 0, x, 0, y, 0, g, 0, 1f, out, 0, N);
            direct.bceBackwardUniform(DType.FLOAT, 0.5f, x, 0, y, 0, 1f, 1f, out, 0, N);
            direct.bceWithLogits(DType.FLOAT, x, 0, y, 0, g, 0, g, 0, out, 0, N);
            direct.bceWithLogitsBackward(DType.FLOAT, x, 0, y, 0, g, 0, g, 0, g, 0, 1f, out, 0, N);
            direct.prelu(DType.FLOAT, x, 0, g, 0, 0.25f, out, 0, N);
            direct.preluForward(DType.FLOAT, x, 0, 0.25f, out, 0, N);
            direct.preluForwardWeighted(DType.FLOAT, x, 0, ones, 0, out, 0, N);
            direct.readAndSum(DType.FLOAT, x, 0, a, N);
            direct.affineStore(DType.FLOAT, a, 0, N, 0.5, 0.125, out, 0);
            direct.affine(DType.FLOAT, x, 0, g, 0, 0.5, 0.25, 0.125, out, 0, N);
            direct.groupSums(DType.FLOAT, x, 0, g, 0, 4, N / 4, N / 4, workspace, 0);
            java.util.Arrays.fill(channelsA, 0);
            java.util.Arrays.fill(channelsB, 0);
            direct.channelSums(DType.FLOAT, x, 0, N / 64, 64, channelsA);
            direct.channelSquaredDeviations(DType.FLOAT, x, 0, N / 64, 64, channelsC, channelsB);
            direct.channelSumsAndDots(DType.FLOAT, x, 0, g, 0, N / 64, 64, channelsA, channelsB);
            direct.channelAffine(DType.FLOAT, x, 0, N / 64, 64, channelsA, channelsB, out, 0);
            direct.channelAffinePairs(DType.FLOAT, x, 0, g, 0, N / 64, 64, channelsA, channelsB, channelsC, out, 0);
            for (DType half : new DType[] {DType.BF16, DType.FLOAT16}) {
                direct.bceBackwardUniform(half, 0.5f, hx, 0, hy, 0, 1f, 1f, out, 0, N);
                direct.bceWithLogitsUniform(half, hx, 0, hy, 0, 1f, 1f, out, 0, N);
                direct.prelu(half, hx, 0, hg, 0, 0.25f, out, 0, N);
                direct.preluForward(half, hx, 0, 0.25f, out, 0, N);
                direct.groupSums(half, hx, 0, hg, 0, 4, N / 4, N / 4, workspace, 0);
                direct.groupNormUpdate(half, hg, 0, hx, 0, 4, N / 4, N / 4, rowFloats, 0.25f, 0.1f, 0.125f, out, 0);
            }
        }
    }
}
