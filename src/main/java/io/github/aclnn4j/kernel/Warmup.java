package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plain Java until the Vector API's loops are compiled. Until C2 has compiled a Vector API loop it
 * runs 10–100 times slower than the plain-Java loop of the same kernel (every vector an object),
 * and a short program (a unit test, a C program through the native ABI) never gets past that. So a
 * call takes its plain-Java path while its operator's loops are cold ({@link BulkMath#current()},
 * rows instead of {@link DirectMath} loops; {@link #begin} and {@link #cold(Family, DType)}), and
 * asks for them: a daemon thread runs the loops asked for, an operator's for one dtype at a time (a
 * {@linkplain Family unit}), on data of its own until its rounds stop getting faster, and from then
 * on those calls take the Vector API's loops. Only what calls need is warmed up (the strided views'
 * loops only once a call needs them): a program calling one operator in one dtype gets its loops
 * about two seconds after its first call (see {@link Family}) and keeps both cores afterwards.
 * Large calls too take plain Java while cold: a first call of 2^20 elements on the Vector API's
 * loops took 1.0–2.7 s, the first ten 2.8–5.1 s, against 0.35–0.5 and 0.43–0.71 s in plain Java
 * (fresh JVMs, Zen 3). Small calls run
 * on the calling thread alone ({@link #plainCall}); larger ones are split across the compute
 * threads, whose loops follow the call's ({@link #enterCall}). Both paths give the same bits
 * (VectorFreeAgreementTest, ColdWarmAgreementTest), so a result never depends on when it was
 * computed. GroupNorm backward's and PReLU backward's 16-bit direct loops, whose fp32 chunk sums
 * have an order of their own, are planned alike cold or warm
 * ({@link DirectOperands#supportedWithOwnHalfSums}) and run as plain Java that follows that order
 * while cold ({@link PlainHalfChunkLoops}): on the Vector API's loops, a first BFLOAT16 PReLU backward
 * call of 2^20 elements took 2.4 s, in plain Java 0.3 s.
 *
 * <p>{@code -Daclnn4j.warmup=false} takes the Vector API's loops from the first call (a program
 * that runs long enough not to care); {@code -Daclnn4j.warmup=cold} stays on plain Java (for tests
 * that compare both paths). Without the Vector API there is nothing to warm up.
 */
public final class Warmup {
    private static final String MODE = System.getProperty("aclnn4j.warmup", "true");
    private static final boolean VECTORS = vectorsWanted();
    /** The bits of every warm-up unit ({@link Family#bit}). */
    private static final int EVERY_UNIT = (Family.NONE.bit(null) << 1) - 1;
    /**
     * A bit per warm-up unit whose loops are warm: NONE's from the start, every bit when there is
     * nothing to warm up. Only the warm-up thread (one at a time) sets bits. Each question below is
     * one test of these bits, so code compiled while a unit was cold meets one branch that turns
     * when it warms (more, turning at different times, each deoptimized the code inlining them).
     */
    private static volatile int warmBits = !VECTORS || MODE.equals("false") ? EVERY_UNIT : Family.NONE.bit(null);
    /** A bit per unit a cold call has asked for, and the bits the warm-up has not taken up yet. */
    private static final AtomicInteger ASKED = new AtomicInteger();
    private static final AtomicInteger PENDING = new AtomicInteger();
    /** Whether the warm-up thread runs (it ends when no asked unit is left, and starts again when one is). */
    private static final AtomicBoolean RUNNING = new AtomicBoolean();
    /** What ended the warm-up early, if anything did (a bug: tests look at it). */
    static volatile Throwable failure;
    /**
     * A cold call of at most this many elements runs its plain Java on the calling thread alone
     * (see {@link #plainCall}); a larger one is split across the compute threads as usual.
     */
    public static final long SMALL_CALL = 1 << 16;
    /**
     * [0]: the unit bit of the call this thread runs while some loops are cold (a compute thread:
     * of the call it helps with), or 0; [1]: 1 while that call is of at most {@link #SMALL_CALL}
     * elements.
     */
    private static final ThreadLocal<int[]> CALL = new ThreadLocal<>() {
        @Override
        protected int[] initialValue() {
            return new int[2];
        }
    };

    /**
     * The Vector API loops of one operator, or {@link #LAYOUTS}, the panel, stepped and 16-bit
     * conversion loops of strided views (whatever the operator); {@link #NONE}: an operator without
     * Vector API loops (NLLLoss), always warm. An operator's loops are warmed up and switched on per
     * dtype, each unit with the rows' loops, which all dtypes share: a program calling in FLOAT
     * waits for FLOAT's direct loops, not for the 16-bit ones beside them (BCE with logits
     * 2048×2048, fresh JVMs: its calls took the Vector API's loops 1.8–2.3 s after the first one,
     * against 3.8–4.7 s when each family was warmed whole, with the layouts' loops).
     */
    public enum Family {
        BCE, BCE_BACKWARD, BCE_WITH_LOGITS, BCE_WITH_LOGITS_BACKWARD, PRELU, PRELU_BACKWARD, GROUP_NORM,
        GROUP_NORM_BACKWARD, LAYOUTS, NONE;

        /** The dtypes an operator's loops are warmed up apart for, in the order of their bits. */
        private static final DType[] DTYPES = {DType.FLOAT, DType.BF16, DType.FLOAT16};
        /** The first bit after the operators' units: LAYOUTS', then NONE's. */
        private static final int OWN_BITS = LAYOUTS.ordinal() * DTYPES.length;

        /**
         * The bit of this family's unit for {@code dtype}: one per operator and dtype (FLOAT for a
         * dtype without loops of its own), one for LAYOUTS and one for NONE, whatever the dtype.
         */
        int bit(DType dtype) {
            if (ordinal() >= LAYOUTS.ordinal()) {
                return 1 << (OWN_BITS + ordinal() - LAYOUTS.ordinal());
            }
            int d = dtype == DType.BF16 ? 1 : dtype == DType.FLOAT16 ? 2 : 0;
            return 1 << (ordinal() * DTYPES.length + d);
        }

        /** The bits of all this family's units. */
        private int bits() {
            int bits = 0;
            for (DType dtype : DTYPES) {
                bits |= bit(dtype);
            }
            return bits;
        }
    }

    /**
     * A round's elements per loop: a quarter of a block. C2 compiles a loop once it has been called
     * some hundreds of times, whatever its length, so shorter calls get there in less time: the
     * warm-up ended 7.3–8.1 s after the first call with a block per loop, 3.9–4.0 s with a quarter
     * (Zen 3, the program idle after one BCE-with-logits call; an eighth, 3.4–3.7 s).
     */
    private static final int N = Blocks.SIZE / 4;
    /**
     * How long the warm-up thread waits after the first call asked for it. A short program is over by
     * then and never pays for the warm-up, whose thread takes one of two cores and loads the Vector
     * API's classes beside the program's first calls: 1,000 calls at 2^12 elements in a fresh JVM
     * took 337–520 ms with the warm-up and 208–378 ms without (Zen 3); a long-running program gets
     * its loops that much later.
     */
    private static final long FIRST_DELAY_MS = 500;
    /** Whether the warm-up thread has run before (only its first run waits). */
    private static volatile boolean ranBefore;
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

    /** Whether there are Vector API loops to warm up (asked once, when this class loads). */
    static boolean vectors() {
        return VECTORS;
    }

    /** Whether {@code family}'s loops are compiled for every dtype. */
    static boolean warm(Family family) {
        return (family.bits() & ~warmBits) == 0;
    }

    /** Whether every unit's loops are compiled. */
    static boolean allWarm() {
        return warmBits == EVERY_UNIT;
    }

    /**
     * Whether a call of {@code family} in {@code dtype} planned now should take its plain-Java path
     * (its phase 2, {@link #begin}, asks the warm-up for those loops). Large calls too: the Vector
     * API's loops run interpreted or boxed until C2 has compiled them (see the class comment).
     */
    static boolean cold(Family family, DType dtype) {
        return (family.bit(dtype) & ~warmBits) != 0;
    }

    /**
     * 1 if the call this thread is running takes its plain-Java path (its unit is cold), else 0:
     * an index, not a branch, so that code compiled before a unit warms does not
     * meet a branch it has never taken when it does (every kernel that inlined such a branch was
     * deoptimized at once).
     */
    static int coldIndex() {
        return (-(CALL.get()[0] & ~warmBits)) >>> 31;
    }

    /**
     * As {@link #coldIndex()}, for the strided views' loops a call takes ({@link Family#LAYOUTS}).
     * The first call that needs them asks for them: a program whose calls are all dense never waits
     * for their warm-up (NLLLoss's strided calls keep plain Java's panels rather than start one).
     */
    static int coldLayoutsIndex() {
        int call = CALL.get()[0];
        int running = (call | -call) >> 31; // all bits while a call runs, else none
        int cold = (-(LAYOUTS & running & ~warmBits)) >>> 31;
        // asked first: false from the first ask on, so this branch does not turn when the loops warm
        if ((ASKED.get() & LAYOUTS) == 0 && cold != 0 && call != Family.NONE.bit(null)) {
            ask(LAYOUTS);
        }
        return cold;
    }

    private static final int LAYOUTS = Family.LAYOUTS.bit(null);

    /** [0]: the Vector API's loops once loaded ({@link #loaded}); [1]: plain Java. */
    private static final BulkMath[] BULK = {null, BulkMath.PLAIN};

    /** The loops for {@code coldIndex}: plain Java for 1, else the fastest (loading them the first time). */
    static BulkMath bulkMath(int coldIndex) {
        BulkMath bulk = BULK[coldIndex];
        return bulk != null ? bulk : BulkMath.fastest();
    }

    /** Takes note of the fastest loops, once loaded; returns them. */
    static BulkMath loaded(BulkMath fastest) {
        BULK[0] = fastest;
        return fastest;
    }

    /** Hands the units of {@code bits} not yet asked for to the warm-up, and starts its thread unless it runs. */
    private static void ask(int bits) {
        int fresh = bits & ~getAndOr(ASKED, bits);
        if (fresh != 0) {
            getAndOr(PENDING, fresh);
            start();
        }
    }

    /**
     * Ors {@code bits} into {@code target}, returning what it held before (a loop rather than
     * getAndUpdate's lambda, which a JVM spins a class for at the first small call).
     */
    private static int getAndOr(AtomicInteger target, int bits) {
        int before;
        do {
            before = target.get();
        } while (!target.compareAndSet(before, before | bits));
        return before;
    }

    /**
     * Marks the start of phase 2 of a call of {@code family} computing in {@code dtype} over
     * {@code elements} on this thread: each of its loops takes plain Java while that unit is cold. Returns what
     * {@link #end} needs; a call that never asks for a Vector API loop (NLLLoss) starts no warm-up.
     * (A pair of calls rather than a wrapper taking the call as a lambda, which would capture an
     * object per call in phase 2, which allocates nothing.)
     */
    public static boolean begin(Family family, DType dtype, long elements) {
        if (warmBits == EVERY_UNIT) {
            return false;
        }
        // Every call asks for its unit (LAYOUTS when a strided view first needs them, see
        // coldLayoutsIndex); NLLLoss (NONE) has no loops of its own.
        int bit = family.bit(dtype);
        int wanted = family == Family.NONE ? 0 : bit;
        if ((ASKED.get() & wanted) != wanted) {
            ask(wanted);
        }
        int[] call = CALL.get();
        if (call[0] != 0) {
            return false;
        }
        call[0] = bit;
        call[1] = elements <= SMALL_CALL ? 1 : 0;
        return true;
    }

    /**
     * Whether this thread runs a call of at most {@link #SMALL_CALL} elements on its plain-Java
     * path: such a call is not split across the compute threads ({@link Parallel#forEach}). Its
     * code is still interpreted or barely compiled on every thread that runs it, and on two cores a
     * helper takes the core the warm-up thread needs: PReLU backward at 2^15 elements, first call
     * 192 ms on one thread against 606–657 ms on two, 1,000 calls 1.1 s against 3.4–4.5 s (fresh
     * JVMs, Zen 3, {@code bench.ColdStart}).
     */
    static boolean plainCall() {
        int[] call = CALL.get();
        return (call[0] & ~warmBits) != 0 && call[1] != 0;
    }

    /** The unit bit of the call this thread runs, for the compute threads that help with it. */
    static int callBits() {
        return CALL.get()[0];
    }

    /**
     * Makes {@code bits} ({@link #callBits} of the call a compute thread helps with) this thread's
     * call, so that its loops take the path the call's take; returns what it was.
     */
    static int enterCall(int bits) {
        int[] call = CALL.get();
        int before = call[0];
        call[0] = bits;
        return before;
    }

    /** Ends what {@link #begin} started, given what it returned. */
    public static void end(boolean begun) {
        if (begun) {
            CALL.get()[0] = 0;
        }
    }

    private static void start() {
        if (!MODE.equals("cold") && !RUNNING.get() && RUNNING.compareAndSet(false, true)) {
            Thread thread = new Thread(new Runnable() { // a class, not a lambda to spin at the first call
                @Override
                public void run() {
                    warmUp();
                }
            }, "aclnn4j-warmup");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * The units calls have asked for, together, until their rounds stop getting faster; a unit
     * asked for meanwhile joins them and the count starts again (a program's first calls ask for
     * all its operators within a second). Then the thread ends. Units no call asks for stay cold:
     * warming them would only take a core from the program (on two cores, a program calling one
     * operator ran at half its rate until every operator's loops were warm).
     */
    private static void warmUp() {
        if (!ranBefore) {
            ranBefore = true;
            try {
                Thread.sleep(FIRST_DELAY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Arena arena = Arena.ofShared()) { // as device memory: a confined one would pollute the loops' profiles
            Loops loops = new Loops(arena);
            do {
                for (int batch; (batch = PENDING.getAndSet(0)) != 0; ) {
                    warmBits |= untilStable(loops, batch); // the only writer
                }
                RUNNING.set(false);
            } while (PENDING.get() != 0 && RUNNING.compareAndSet(false, true)); // asked for as this run ended
        } catch (RuntimeException | LinkageError e) {
            failure = e; // calls then take the Vector API's loops, cold or not
            warmBits = EVERY_UNIT;
            RUNNING.set(false);
        }
    }

    /**
     * Rounds of the loops of the units of {@code batch}, at least MIN_ROUNDS, until STABLE_ROUNDS
     * pass without a new fastest; units asked for meanwhile join, and the count starts again.
     * Returns the units warmed.
     */
    private static int untilStable(Loops loops, int batch) {
        long fastest = Long.MAX_VALUE;
        for (int rounds = 0, sinceFastest = 0; rounds < MIN_ROUNDS || sinceFastest < STABLE_ROUNDS; rounds++) {
            int joining = PENDING.getAndSet(0);
            if (joining != 0) {
                batch |= joining;
                fastest = Long.MAX_VALUE;
                rounds = 0;
                sinceFastest = 0;
            }
            long start = System.nanoTime();
            loops.round(batch);
            long took = System.nanoTime() - start;
            if (took < fastest) {
                fastest = took;
                sinceFastest = 0;
            } else {
                sinceFastest++;
            }
        }
        return batch;
    }

    /** Every Vector API loop the kernels call, by unit, on a block of data of its own. */
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
        private final MemorySegment x;
        private final MemorySegment y;
        private final MemorySegment g;
        private final MemorySegment out;
        private final MemorySegment workspace;
        /** γ and β per element, as the GroupNorm kernels' short rows read them. */
        private final MemorySegment gammas;
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
            gammas = arena.allocate(8L * N, 64).fill((byte) 0x3F); // 0x3F3F...: about 0.0005
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
            ArrayCopies.load(x, 0, a, 0, N);
            ArrayCopies.load(y, 0, b, 0, N);
            ArrayCopies.load(g, 0, c, 0, N);
        }

        /** The loops of the units of {@code bits}. */
        void round(int bits) {
            for (Family family : Family.values()) {
                for (DType dtype : Family.DTYPES) {
                    int bit = family.bit(dtype);
                    if ((bits & bit) != 0) {
                        round(family, dtype);
                        bits &= ~bit; // LAYOUTS' and NONE's bits stand for every dtype
                    }
                }
            }
        }

        /** The rows' loops of {@code family} and its direct loops for {@code dtype}. */
        private void round(Family family, DType dtype) {
            fill();
            switch (family) {
                case BCE -> bulk.binaryCrossEntropy(a, b, ones, N);
                case BCE_BACKWARD -> bceBackward(dtype);
                case BCE_WITH_LOGITS -> bceWithLogits(dtype);
                case BCE_WITH_LOGITS_BACKWARD -> bceWithLogitsBackward(dtype);
                case PRELU -> prelu(dtype);
                case PRELU_BACKWARD -> preluBackward(dtype);
                case GROUP_NORM -> groupNorm(dtype);
                case GROUP_NORM_BACKWARD -> groupNormBackward(dtype);
                case LAYOUTS -> layouts();
                case NONE -> { }
            }
        }

        private void layouts() {
            fill();
            bulk.floatToBf16(a, 0, halves, N);
            bulk.bf16ToFloat(halves, a, 0, N);
            bulk.storePanel(a, 0, 16, N / 16, out, 0, 64, c);
            bulk.loadPanel(out, 0, 64, a, 0, 16, N / 16, c);
            bulk.loadEveryOther(out, 0, a, 0, N);
            bulk.storeEveryOther(a, 0, N - 1, out, 0);
            bulk.storeBf16Panel(a, 0, 16, N / 16, out, 0, 32, c);
            bulk.loadBf16Panel(out, 0, 32, a, 0, 16, N / 16, c);
            bulk.storeHalfPanel(halves, 16, N / 16, out, 0, 32);
            bulk.transpose(b, 0, 16, N / 16, c, 0);
            bulk.transposeHalves(hx, 0, 2 * 64, N / 64, 64, out, 0, 2 * (N / 64));
        }

        private void bceBackward(DType dtype) {
            if (direct == null) {
                return;
            }
            if (dtype == DType.FLOAT) {
                direct.bceBackward(DType.FLOAT, g, 0, x, 0, y, 0, g, 0, 1f, out, 0, N);
                direct.bceBackwardUniform(DType.FLOAT, 0.5f, x, 0, y, 0, 1f, 1f, out, 0, N);
            } else {
                direct.bceBackwardUniform(dtype, 0.5f, hx, 0, hy, 0, 1f, 1f, out, 0, N);
                direct.bceBackwardDenseGrad(dtype, hx, 0, hx, 0, hy, 0, 1f, 1f, out, 0, N);
                direct.bceBackward(dtype, hx, 0, hx, 0, hy, 0, hy, 0, 1f, out, 0, N);
            }
        }

        private void bceWithLogits(DType dtype) {
            if (dtype == DType.BF16) { // its rows round BFLOAT16 results with these
                bulk.floatToBf16(a, 0, halves, N);
                bulk.bf16ToFloat(halves, a, 0, N);
            }
            bulk.bceWithLogits(a, b, ones, ones, N);
            if (direct == null) {
                return;
            }
            if (dtype == DType.FLOAT) {
                direct.bceWithLogits(DType.FLOAT, x, 0, y, 0, g, 0, g, 0, out, 0, N);
            } else {
                direct.bceWithLogitsUniform(dtype, hx, 0, hy, 0, 1f, 1f, out, 0, N);
                direct.bceWithLogits(dtype, hx, 0, hy, 0, g, 0, g, 0, out, 0, N);
            }
        }

        private void bceWithLogitsBackward(DType dtype) {
            bulk.bceWithLogitsBackward(a, b, c, ones, ones, 1f, N);
            if (direct != null && dtype == DType.FLOAT) {
                direct.bceWithLogitsBackward(DType.FLOAT, x, 0, y, 0, g, 0, g, 0, g, 0, 1f, out, 0, N);
            } else if (direct != null) {
                direct.bceWithLogitsBackwardUniform(dtype, hx, 0, hy, 0, 1f, 1f, 1f, 1f, out, 0, N);
                direct.bceWithLogitsBackwardDenseGrad(dtype, hx, 0, hy, 0, hx, 0, 1f, 1f, 1f, out, 0, N);
            }
        }

        private void prelu(DType dtype) {
            bulk.prelu(a, 0, N, 0.25f);
            bulk.preluWeighted(a, b, 0, N);
            if (direct == null) {
                return;
            }
            if (dtype == DType.FLOAT) {
                direct.preluForward(DType.FLOAT, x, 0, 0.25f, out, 0, N);
                direct.preluForwardWeighted(DType.FLOAT, x, 0, ones, 0, out, 0, N);
                direct.preluTransposed(DType.FLOAT, x, 0, 4 * 64, N / 64, 64, ones, 0, out, 0, 4 * (N / 64));
            } else {
                direct.preluForward(dtype, hx, 0, 0.25f, out, 0, N);
                if (dtype == DType.BF16) { // 31 channels: a group of 2F and the one-by-one edge on any width
                    direct.preluTransposed(DType.BF16, hx, 0, 2 * 31, 32, 31, ones, 0, out, 0, 2 * 32);
                }
            }
        }

        private void preluBackward(DType dtype) {
            bulk.preluRow(a, c, 0, N, 0.25f);
            bulk.preluChannelRows(a, c, 0, N, ones, 64, channelsA);
            if (direct == null) {
                return;
            }
            if (dtype == DType.FLOAT) {
                direct.prelu(DType.FLOAT, x, 0, g, 0, 0.25f, out, 0, N);
                direct.preluChannelRows(DType.FLOAT, x, 0, g, 0, N / 64, 64, ones, channelsA, a, 0);
            } else {
                if (dtype == DType.BF16) {
                    direct.preluChannelRows(DType.BF16, hx, 0, hg, 0, N / 64, 64, ones, channelsA, a, 0);
                    // 31 channels: a vector's worth and the one-by-one edge, on every vector width
                    direct.preluBackwardChannelsLast(hx, 0, hg, 0, DirectMath.STEP, 31, ones, out, 0,
                            2 * DirectMath.STEP, channelsA);
                }
                direct.prelu(dtype, hx, 0, hg, 0, 0.25f, out, 0, N);
            }
        }

        private void groupNorm(DType dtype) {
            bulk.scaleShift(a, 0, N, 0.5, 0.125);
            bulk.groupSum(a, 0, N);
            bulk.squaredDeviations(a, 0, N, 0.5);
            java.util.Arrays.fill(channelsA, 0);
            java.util.Arrays.fill(channelsB, 0);
            bulk.addChannelSums(a, N / 64, 64, channelsA);
            bulk.addChannelSquaredDeviations(a, N / 64, 64, channelsC, channelsB);
            fill();
            bulk.affineChannelRows(a, N / 64, 64, channelsA, channelsB);
            if (direct == null || dtype != DType.FLOAT) {
                return;
            }
            direct.readAndSum(DType.FLOAT, x, 0, a, N);
            direct.affineStore(DType.FLOAT, a, 0, N, 0.5, 0.125, out, 0);
            direct.affineStoreScaled(DType.FLOAT, a, 0, N / 2, gammas, 0, 4L * N, 0.5, 0.125, out, 0);
            java.util.Arrays.fill(channelsA, 0);
            java.util.Arrays.fill(channelsB, 0);
            direct.channelSums(DType.FLOAT, x, 0, N / 64, 64, channelsA);
            direct.channelSquaredDeviations(DType.FLOAT, x, 0, N / 64, 64, channelsC, channelsB);
            direct.channelAffine(DType.FLOAT, x, 0, N / 64, 64, channelsA, channelsB, out, 0);
        }

        private void groupNormBackward(DType dtype) {
            bulk.affine(a, b, 0, N, 0.5, 0.25, 0.125);
            bulk.groupNormUpdate(a, b, 0, N, 0.5f, 0.25f, 0.1f, 0.125f);
            bulk.sumAndDot(a, b, 0, N, sums);
            java.util.Arrays.fill(channelsA, 0);
            java.util.Arrays.fill(channelsB, 0);
            bulk.addChannelRows(a, b, N / 64, 64, channelsA, channelsB);
            fill();
            bulk.affineChannelPairs(a, b, N / 64, 64, channelsA, channelsB, channelsC);
            bulk.sumAndDotRows(a, b, 64, N / 64, sums);
            java.util.Arrays.fill(rowScales, 0.5);
            bulk.affineRows(a, b, 64, N / 64, rowScales, 0.25, 0.125);
            java.util.Arrays.fill(rowFloats, 0.5f);
            bulk.groupNormUpdateRows(a, b, 64, N / 64, rowFloats, 0.25f, 0.1f, 0.125f);
            if (direct == null) {
                return;
            }
            if (dtype == DType.FLOAT) {
                direct.affine(DType.FLOAT, x, 0, g, 0, 0.5, 0.25, 0.125, out, 0, N);
                direct.affineScaled(DType.FLOAT, x, 0, g, 0, gammas, 0, 0.5, 0.25, 0.125, out, 0, N);
                direct.groupSums(DType.FLOAT, x, 0, g, 0, 4, N / 4, N / 4, workspace, 0);
                java.util.Arrays.fill(channelsA, 0);
                java.util.Arrays.fill(channelsB, 0);
                direct.channelSumsAndDots(DType.FLOAT, x, 0, g, 0, N / 64, 64, channelsA, channelsB);
                direct.channelAffinePairs(DType.FLOAT, x, 0, g, 0, N / 64, 64, channelsA, channelsB, channelsC, out, 0);
                bulk.transposeFloats(x, 0, 4 * 64, N / 64, 64, out, 0, 4 * (N / 64)); // its stores into NCHW
            } else {
                direct.groupSums(dtype, hx, 0, hg, 0, 4, N / 4, N / 4, workspace, 0);
                direct.groupNormUpdate(dtype, hg, 0, hx, 0, 4, N / 4, N / 4, rowFloats, 0.25f, 0.1f, 0.125f, out, 0);
            }
        }
    }
}
