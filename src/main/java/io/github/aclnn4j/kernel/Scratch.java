package io.github.aclnn4j.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Per-thread block buffers, so that running a kernel allocates nothing: four float rows of one
 * block each, a row for fills, an index for walking strided views and off-heap runs for the
 * direct loops.
 */
final class Scratch {
    private static final ThreadLocal<Scratch> LOCAL = new ThreadLocal<>() { // a class, not a lambda to spin
        @Override
        protected Scratch initialValue() {
            return new Scratch();
        }
    };

    final float[] a = new float[Blocks.SIZE];
    final float[] b = new float[Blocks.SIZE];
    final float[] c = new float[Blocks.SIZE];
    final float[] d = new float[Blocks.SIZE];
    final float[] e = new float[Blocks.SIZE];
    /** All ones, never written: stands for an absent weight. */
    final float[] ones = new float[Blocks.SIZE];
    /** Only for {@link StridedView#fill}, which kernels call while holding the other rows. */
    final float[] fillRow = new float[Blocks.SIZE];
    /** Elements per run of the FLOAT16 direct loops, which widen their operands into floats first. */
    static final int STAGE = 2048;
    /** The FLOAT16 direct loops' runs of widened operands (see {@link VectorLanes}). */
    final float[] stageA = new float[STAGE];
    final float[] stageB = new float[STAGE];
    final float[] stageC = new float[STAGE];
    /** A run's softplus values, looked up for the 16-bit BCE-with-logits loops. */
    final float[] softplus = new float[STAGE];
    /** A run's table indices, for the gathered softplus of the 16-bit BCE-with-logits loops. */
    final int[] indices = new int[STAGE];
    /** For {@link StridedView}'s 16-bit runs, which pass through it on their way to floats. */
    final short[] halfRow = new short[Blocks.SIZE];
    /** {@link #halfRow} as a segment, made with it (see {@link #segmentOf}). */
    final MemorySegment halfRowSegment = MemorySegment.ofArray(halfRow);
    final long[] index = new long[16];
    /**
     * A block of an NLL operator's targets ({@link StridedView#gatherLongs} fills it), and where their
     * rows' values go.
     */
    final long[] targets = new long[Blocks.SIZE];
    final long[] positions = new long[Blocks.SIZE];
    /** Most rows of a panel {@link StridedView} transposes at a time. */
    static final int COLUMN = 256;
    /**
     * A panel's memory columns end to end, on their way into or out of rows
     * ({@link BulkMath#loadPanel}, {@link BulkMath#storePanel}, {@link BulkMath#transpose}); never
     * the rows themselves.
     */
    final float[] panel = new float[Blocks.SIZE];
    /** {@code exp(−|x|)} of one pass of the BCE-with-logits loss loops. */
    final float[] exps = new float[VectorBulkMath.EXP_RUN];
    /** The lanes of a double vector, for summing them in order. */
    final double[] lanes = new double[64];
    /** The lanes of a second double vector. */
    final double[] dotLanes = new double[64];
    /** Two float vectors' lanes: fp32 chunk sums on their way into double lanes. */
    final float[] chunkLanes = new float[128];
    /** Padded tails of up to four operands, one vector long (at most 16 lanes today; room for more). */
    final float[][] tails = new float[5][64];

    /** The row a repeating operand repeats, on its way into {@link #repeated} ({@code DirectOperands}). */
    final float[] period = new float[Blocks.SIZE];
    /** Off-heap runs of one block for the direct loops: a uniform or repeating operand's values, per slot. */
    final MemorySegment[] repeated = new MemorySegment[4];
    /** Floats of {@link #outputRun}. */
    static final int OUTPUT_RUN = 1 << 14;
    /**
     * Off-heap floats a direct loop writes an output to that is not dense, scattered from there
     * ({@code DirectOperands#scatterRun}): a block of BCE backward, or 64 KB of channels-last
     * GroupNorm backward's rows, so that the transposed store into NCHW writes runs of 64 positions
     * per channel (runs of 16: 3.03 ms, 64: 2.78, 256: 3.21, `bench ab` 16×256×32×32).
     */
    final MemorySegment outputRun;
    /** An off-heap block of FLOAT 1.0, never written: an absent weight for the direct loops. */
    final MemorySegment ones32;
    /** An off-heap block that BCE with logits' loops, which always store, write to for a reduction. */
    final MemorySegment sink;
    /** {@code exp(−|x|)} of one pass of the direct FLOAT BCE-with-logits loops, aligned to a cache line. */
    final MemorySegment expRun;

    /** GroupNorm's per-row coefficients for one direct update call. */
    final float[] rowCoefficients = new float[GroupNormBackwardKernel.UPDATE_ROWS];

    private double[] sums = new double[0];
    /** {@link #sums} as a segment, made with the array, as {@link #workspaceDoublesSegment} is. */
    private MemorySegment sumsSegment = MemorySegment.ofArray(sums);
    private float[] weights = new float[0];
    private double[] rowScales = new double[0];
    private float[] rowScalesFloat = new float[0];
    /** A GroupNorm group's dy and x; see {@link #ensureGroupRows}. */
    float[] groupA = new float[0];
    float[] groupB = new float[0];

    private Scratch() {
        java.util.Arrays.fill(ones, 1f);
        Arena arena = Arena.ofAuto(); // freed with this thread's Scratch
        for (int i = 0; i < repeated.length; i++) {
            repeated[i] = arena.allocate((long) Blocks.SIZE * Float.BYTES, 64);
        }
        outputRun = arena.allocate((long) OUTPUT_RUN * Float.BYTES, 64);
        ones32 = arena.allocate((long) Blocks.SIZE * Float.BYTES, 64);
        sink = arena.allocate((long) Blocks.SIZE * Float.BYTES, 64);
        expRun = arena.allocate((long) VectorBulkMath.EXP_RUN * Float.BYTES, 64);
        // copied rather than set one by one: 4096 interpreted sets cost a fresh JVM about 4 ms
        ArrayCopies.store(ones, 0, ones32, 0, Blocks.SIZE);
    }

    /** An array of at least {@code n} floats for an operator's weights, reused across calls. */
    float[] weights(int n) {
        if (weights.length < n) {
            weights = new float[Math.max(n, 2 * weights.length)];
        }
        return weights;
    }

    /** A zeroed array of at least {@code n} doubles, reused across calls. */
    double[] sums(int n) {
        if (sums.length < n) {
            sums = new double[Math.max(n, 2 * sums.length)];
            sumsSegment = MemorySegment.ofArray(sums);
        }
        java.util.Arrays.fill(sums, 0, n, 0.0);
        return sums;
    }

    /**
     * The first {@code n} of {@code values}, the array {@link #sums} last returned, into
     * {@code workspace} from byte {@code offset}.
     */
    void storeSums(double[] values, MemorySegment workspace, long offset, int n) {
        if (values != sums) {
            throw new IllegalArgumentException("not the array sums() last returned");
        }
        MemorySegment.copy(sumsSegment, 0, workspace, offset, 8L * n);
    }

    /** An array of at least {@code n} doubles for per-row factors (GroupNorm's dy coefficients), reused across calls. */
    double[] rowScales(int n) {
        if (rowScales.length < n) {
            rowScales = new double[Math.max(n, 2 * rowScales.length)];
        }
        return rowScales;
    }

    /** As {@link #rowScales}, in float, for the 16-bit types' fp32 update. */
    float[] rowScalesFloat(int n) {
        if (rowScalesFloat.length < n) {
            rowScalesFloat = new float[Math.max(n, 2 * rowScalesFloat.length)];
        }
        return rowScalesFloat;
    }

    private float[] channelLanes = new float[0];
    private double[] channelDoubleLanes = new double[0];
    private float[] channelPairs = new float[0];

    /**
     * At least {@code n} floats for the fp32 lanes of a channels-last 16-bit sum, a lane's row of
     * channels after another (see {@code PreluBackwardVectorLoops.channelsLastBf16}); contents left
     * to the caller.
     */
    float[] channelLanes(int n) {
        if (channelLanes.length < n) {
            channelLanes = new float[n];
        }
        return channelLanes;
    }

    /** At least {@code n} doubles for the double lanes those fp32 lanes are added into; contents left to the caller. */
    double[] channelDoubleLanes(int n) {
        if (channelDoubleLanes.length < n) {
            channelDoubleLanes = new double[n];
        }
        return channelDoubleLanes;
    }

    /**
     * At least {@code n} floats for a tile of rows of channels before its transposing store, each
     * holding two 16-bit values; contents left to the caller.
     */
    float[] channelPairs(int n) {
        if (channelPairs.length < n) {
            channelPairs = new float[n];
        }
        return channelPairs;
    }

    /** Per-channel doubles of a channels-last GroupNorm sample; see {@link #channelDoubles}. */
    private double[][] channelDoubles = new double[3][0];

    /**
     * Three arrays of at least {@code n} doubles each (per-channel sums and coefficients), reused
     * across calls; their contents are left to the caller.
     */
    double[][] channelDoubles(int n) {
        if (channelDoubles[0].length < n) {
            for (int i = 0; i < channelDoubles.length; i++) {
                channelDoubles[i] = new double[n];
            }
        }
        return channelDoubles;
    }

    /** A kernel's workspace values on their way into loops; see {@link #workspaceDoubles}. */
    private double[] workspaceDoubles = new double[64];
    /**
     * {@link #workspaceDoubles} as a segment, made with the array: copying through a heap segment
     * made per call (ArrayCopies) allocated one, 72 bytes, every PReLU backward call whose
     * compilation did not scalar-replace it (PhaseTwoAllocationTest, now and then on a loaded
     * machine; again, 144 bytes a call, for the task sums of PReLU backward over staged copies,
     * until they too went through {@link #storeSums}).
     */
    private MemorySegment workspaceDoublesSegment = MemorySegment.ofArray(workspaceDoubles);

    /**
     * {@code n} doubles of {@code workspace} from double index {@code from}, bulk-copied into a
     * reused array: loops over a workspace segment got profiled loop predicates that failed at
     * every change of call shape, recompiling again and again (JitStabilityTest's phase check).
     */
    double[] workspaceDoubles(MemorySegment workspace, long from, int n) {
        if (workspaceDoubles.length < n) {
            workspaceDoubles = new double[Math.max(n, 2 * workspaceDoubles.length)];
            workspaceDoublesSegment = MemorySegment.ofArray(workspaceDoubles);
        }
        MemorySegment.copy(workspace, 8 * from, workspaceDoublesSegment, 0, 8L * n);
        return workspaceDoubles;
    }

    /** The first {@code n} of {@link #workspaceDoubles} back into {@code workspace} from double index {@code from}. */
    void storeWorkspaceDoubles(MemorySegment workspace, long from, int n) {
        MemorySegment.copy(workspaceDoublesSegment, 0, workspace, 8 * from, 8L * n);
    }

    /** Grows {@link #groupA} and {@link #groupB} to at least {@code n} elements. */
    void ensureGroupRows(int n) {
        if (groupA.length < n) {
            groupA = new float[n];
            groupB = new float[n];
        }
    }

    /** The float arrays {@link #segmentOf} last gave segments for, and those segments. */
    private final float[][] segmentArrays = new float[SEGMENTS][];
    private final MemorySegment[] arraySegments = new MemorySegment[SEGMENTS];
    private int nextSegment;
    /** Arrays {@link #segmentOf} keeps a segment for: the rows' operands and output of one call. */
    private static final int SEGMENTS = 6;

    /**
     * A heap segment over {@code array}, kept for the next copies of the same array. Copying through
     * a segment made per copy ({@link ArrayCopies}) allocates unless C2 inlines the whole copy and
     * scalar-replaces the segment, which depends on the order things get compiled in:
     * PhaseTwoAllocationTest's 2×2 BCE backward allocated 216 bytes a call in one full run of five
     * (and always with {@code -XX:-DoEscapeAnalysis}), the gathers and the scatter of the rows. The
     * rows copy the same few scratch arrays call after call, so a handful of entries find them.
     */
    MemorySegment segmentOf(float[] array) {
        for (int i = 0; i < SEGMENTS; i++) {
            if (segmentArrays[i] == array) {
                return arraySegments[i];
            }
        }
        int slot = nextSegment;
        nextSegment = slot + 1 == SEGMENTS ? 0 : slot + 1;
        segmentArrays[slot] = array;
        arraySegments[slot] = MemorySegment.ofArray(array);
        return arraySegments[slot];
    }

    static Scratch get() {
        return LOCAL.get();
    }
}
