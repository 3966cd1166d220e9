package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * NLLLossBackward: zeros everywhere except {@code out[i, t_i] = w[t_i]·(−g)} for each row whose
 * target is not ignoreIndex (g divided by totalWeight first for mean). Targets are validated before
 * anything is written, so a bad target leaves the output as it was.
 */
public final class NllLossBackwardKernel implements Parallel.Tasks, Kernel {
    /** Bytes zeroed per task at most: large, since a contiguous zero fill is a memset. */
    private static final long FILL_BYTES = 1 << 18;
    /**
     * Bytes zeroed per task at least, where smaller bands would give every thread two: an output of
     * 256 KB (4096×16) was one band on one thread, 19 µs a call against 13–14 in four.
     */
    private static final long MIN_FILL_BYTES = 1 << 14;

    private final StridedView grad;
    private final StridedView target;
    private final StridedView weight;
    private final StridedView totalWeight;
    private final long rows;
    private final long classes;
    private final int reduction;
    private final long ignoreIndex;
    private final boolean perRowGrad;
    private final StridedView out;
    private final Targets targetCheck;
    /**
     * Weight and out are FLOAT runs, written by {@link #storeFloatRows} in one pass rather than
     * through the gather, multiply and scatter arrays (bench ab, 65536×256: 1.78 against 2.31 ms).
     */
    private final boolean floatRuns;
    /**
     * The same for BFLOAT16 or FLOAT16 weight and out: {@link #storeHalfRows}
     * (bench ab, 65536×64 BFLOAT16 mean, both orders: 0.375/0.366 → 0.351/0.360 ms).
     */
    private final boolean halfRuns;
    /** Each task zeroes a band of rows and writes their one value while the band is in cache. */
    private final long rowsPerTask;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param rows N (1 for 1-D self)
     * @param classes C
     * @param perRowGrad gradOutput has one value per row (reduction none with 2-D self)
     */
    public NllLossBackwardKernel(StridedView grad, StridedView target, StridedView weight, StridedView totalWeight,
            long rows, long classes, int reduction, long ignoreIndex, boolean perRowGrad, StridedView out) {
        this.grad = grad;
        this.target = target;
        this.weight = weight;
        this.totalWeight = totalWeight;
        this.rows = rows;
        this.classes = classes;
        this.reduction = reduction;
        this.ignoreIndex = ignoreIndex;
        this.perRowGrad = perRowGrad;
        this.out = out;
        this.targetCheck = new Targets(target, rows, classes, ignoreIndex, "aclnnNLLLossBackward");
        floatRuns = out.dtype() == DType.FLOAT && out.runStride() >= 0 && weight.dtype() == DType.FLOAT
                && weight.runStride() >= 0;
        halfRuns = (out.dtype() == DType.BF16 || out.dtype() == DType.FLOAT16) && out.runStride() >= 0
                && weight.dtype() == out.dtype() && weight.runStride() >= 0;
        long bytes = rows * classes * out.dtype().byteSize;
        long band = Math.clamp(bytes / (2L * Parallel.threads()), MIN_FILL_BYTES, FILL_BYTES);
        rowsPerTask = Math.max(1, band / out.dtype().byteSize / Math.max(classes, 1));
    }

    /** Runs the whole call: checks every target, then writes the bands on the library's threads. */
    @Override
    public void run(MemorySegment workspace) {
        targetCheck.checkAll();
        Parallel.forEach((rows + rowsPerTask - 1) / rowsPerTask, rowsPerTask * classes, this, workspace);
    }

    /**
     * One band of rows: zeroed, then its rows' values scattered a block at a time (targets read in
     * bulk, weights gathered at them, one strided store per row that is not ignored).
     */
    @Override
    public void task(long task, MemorySegment workspace) {
        Scratch scratch = Scratch.get();
        long[] positions = scratch.positions;
        float[] grads = scratch.a;
        float[] values = scratch.b;
        float shared = perRowGrad ? 0f : grad.get(0);
        float scale = reduction == 1 ? shared / totalWeight.get(0) : shared;
        long bandStart = task * rowsPerTask;
        long bandEnd = Math.min(rows, bandStart + rowsPerTask);
        out.fill(bandStart * classes, (bandEnd - bandStart) * classes, 0f);
        for (long first = bandStart; first < bandEnd; first += Blocks.SIZE) {
            int n = (int) Math.min(Blocks.SIZE, bandEnd - first);
            long[] targets = target.gatherLongs(first, n);
            if (perRowGrad) {
                grad.gather(first, grads, n);
            }
            if (floatRuns) {
                storeFloatRows(first, n, targets, grads, scale);
                continue;
            }
            if (halfRuns) {
                storeHalfRows(first, n, targets, grads, scale, out.dtype() == DType.BF16);
                continue;
            }
            int kept = 0;
            for (int j = 0; j < n; j++) {
                long t = targets[j];
                if (t != ignoreIndex) {
                    targets[kept] = t;
                    grads[kept] = perRowGrad ? grads[j] : scale;
                    positions[kept] = (first + j) * classes + t;
                    kept++;
                }
            }
            weight.gatherAt(targets, values, kept);
            for (int k = 0; k < kept; k++) {
                values[k] *= -grads[k];
            }
            out.scatterAt(positions, values, kept);
        }
    }

    /** Rows {@code [first, first + n)} for FLOAT runs: each value read and stored where it lies. */
    private void storeFloatRows(long first, int n, long[] targets, float[] grads, float scale) {
        MemorySegment w = weight.segment();
        long wAt = weight.denseOffset(0);
        long wStride = weight.runStride();
        MemorySegment o = out.segment();
        long oAt = out.denseOffset(0);
        long oStride = out.runStride();
        for (int j = 0; j < n; j++) {
            long t = targets[j];
            if (t != ignoreIndex) {
                float g = perRowGrad ? grads[j] : scale;
                float value = w.get(ValueLayout.JAVA_FLOAT_UNALIGNED, wAt + t * wStride) * -g;
                o.set(ValueLayout.JAVA_FLOAT_UNALIGNED, oAt + ((first + j) * classes + t) * oStride, value);
            }
        }
    }

    /**
     * {@link #storeFloatRows} for 16-bit weight and out ({@code bf16}: BFLOAT16, else FLOAT16): the
     * weight widened, the product rounded to nearest even, as the gathered rows and their scatter
     * compute it. {@code bf16} is the same for every row, so C2 compiles one loop per dtype.
     */
    private void storeHalfRows(long first, int n, long[] targets, float[] grads, float scale, boolean bf16) {
        MemorySegment w = weight.segment();
        long wAt = weight.denseOffset(0);
        long wStride = weight.runStride();
        MemorySegment o = out.segment();
        long oAt = out.denseOffset(0);
        long oStride = out.runStride();
        for (int j = 0; j < n; j++) {
            long t = targets[j];
            if (t != ignoreIndex) {
                float g = perRowGrad ? grads[j] : scale;
                short wt = w.get(ValueLayout.JAVA_SHORT_UNALIGNED, wAt + t * wStride);
                float value = (bf16 ? HalfFloats.fromBf16(wt) : HalfFloats.fromHalf(wt)) * -g;
                o.set(ValueLayout.JAVA_SHORT_UNALIGNED, oAt + ((first + j) * classes + t) * oStride,
                        bf16 ? HalfFloats.toBf16(value) : HalfFloats.toHalf(value));
            }
        }
    }
}
