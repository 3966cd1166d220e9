package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * GroupNorm forward: for each sample n and group g, over its {@code D·HxW} elements (D = C/group
 * channels), {@code mean} and the biased variance {@code Σ(x − mean)²/M} in double (two passes, so
 * nothing cancels), {@code rstd = 1/√(var + eps)} with eps as the float32 CANN passes to its kernel,
 * then {@code out = fma(x, rstd·γ[c], β[c] − mean·rstd·γ[c])} per channel in double, rounded to
 * float. Both sums add in {@link SumOrder#GROUP_LANES}. mean and rstd
 * are stored in self's dtype; out uses them unrounded. One task per (n, g), so the bits never
 * depend on the thread count; a group of up to {@link #CACHED_GROUP} elements is read once and its
 * passes run over the copy, a larger one is read in blocks once per pass. Dense FLOAT self and out
 * take {@link DirectMath} loops, short rows' store a group at a time ({@link #PATTERN_ROW}).
 */
public final class GroupNormKernel implements Parallel.Tasks, Kernel {
    private final StridedView self;
    private final StridedView gamma;
    private final StridedView beta;
    private final long channels;
    private final long hxw;
    private final long group;
    private final double eps;
    private final StridedView out;
    private final StridedView mean;
    private final StridedView rstd;
    /** Dense FLOAT self and out: the read fused with the sum, the update with the write ({@link DirectMath}). */
    private final boolean direct;
    /**
     * Whether the update runs a group at a time from per-element copies of γ and β in the
     * workspace ({@link #writeRepeated}): direct, with γ or β, rows of at most
     * {@link #PATTERN_ROW} elements. Only with a workspace in native memory, which the direct loops
     * read (one over a Java array takes the rows' way).
     */
    private final boolean patterns;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param self read row-major as {@code [N, C, HxW]}
     * @param gamma null for ones
     * @param beta null for zeros
     * @param mean and {@code rstd}: row-major {@code [N, group]}
     */
    public GroupNormKernel(StridedView self, StridedView gamma, StridedView beta, long channels, long hxw, long group,
            double eps, StridedView out, StridedView mean, StridedView rstd) {
        this.self = self;
        this.gamma = gamma;
        this.beta = beta;
        this.channels = channels;
        this.hxw = hxw;
        this.group = group;
        this.eps = (float) eps;
        this.out = out;
        this.mean = mean;
        this.rstd = rstd;
        direct = DirectOperands.supported(Warmup.Family.GROUP_NORM, DType.FLOAT)
                && DirectOperands.dense(self, DType.FLOAT)
                && DirectOperands.dense(out, DType.FLOAT);
        patterns = direct && (gamma != null || beta != null) && hxw <= PATTERN_ROW
                && channels / group * hxw <= CACHED_GROUP;
    }

    /**
     * Rows of at most this many elements take their update a group at a time, γ and β from
     * per-element copies: per row, the loop's entry and scalar tail cost as much as its 49
     * elements at 7×7 (see GroupNormBackwardKernel#PATTERN_ROW).
     */
    static final long PATTERN_ROW = 64;

    /** This plan's workspace bytes: γ and β per element of a sample when the update reads them so. */
    public long workspaceBytes() {
        return patterns ? 2 * channels * hxw * Double.BYTES : 0;
    }

    /** Runs the whole call: a task per sample and group on the library's threads. */
    @Override
    public void run(MemorySegment workspace) {
        if (usesPatterns(workspace)) {
            writeRepeated(workspace, 0, gamma, 1, channels, hxw);
            writeRepeated(workspace, Double.BYTES * channels * hxw, beta, 0, channels, hxw);
        }
        long n = self.numel() / (channels * hxw);
        Parallel.forEach(n * group, channels / group * hxw, this, workspace);
    }

    @Override
    public void task(long task, MemorySegment workspace) {
        long perGroup = channels / group;
        long first = task * perGroup * hxw; // flat index of (n, g·D, 0)
        long count = perGroup * hxw;
        Scratch s = Scratch.get();
        if (count <= CACHED_GROUP) {
            s.ensureGroupRows((int) count);
            float[] x = s.groupA;
            double total;
            if (direct) {
                total = DirectOperands.math().readAndSum(DType.FLOAT, self.segment(), self.denseOffset(first), x,
                        (int) count);
            } else {
                self.gather(first, x, (int) count);
                total = BulkMath.current().groupSum(x, 0, (int) count);
            }
            double m = total / count;
            double r = rstd(BulkMath.current().squaredDeviations(x, 0, (int) count, m), count);
            store(task, m, r);
            if (usesPatterns(workspace)) {
                long gammaAt = Double.BYTES * (task % group) * count;
                DirectOperands.math().affineStoreScaled(DType.FLOAT, x, 0, (int) count, workspace, gammaAt,
                        gammaAt + Double.BYTES * channels * hxw, r, m, out.segment(), out.denseOffset(first));
                return;
            }
            double[] kb = groupCoefficients(task, m, r, (int) perGroup);
            if (direct && gamma == null && beta == null) { // every row's k and bias alike: one loop
                DirectOperands.math().affineStore(DType.FLOAT, x, 0, (int) count, kb[0], kb[1], out.segment(),
                        out.denseOffset(first));
                return;
            }
            if (direct) {
                for (int row = 0; row < perGroup; row++) {
                    DirectOperands.math().affineStore(DType.FLOAT, x, row * (int) hxw, (int) hxw, kb[2 * row],
                            kb[2 * row + 1], out.segment(), out.denseOffset(first + row * hxw));
                }
                return;
            }
            for (int row = 0; row < perGroup; row++) {
                BulkMath.current().scaleShift(x, row * (int) hxw, (row + 1) * (int) hxw, kb[2 * row],
                        kb[2 * row + 1]);
            }
            out.scatter(first, x, (int) count);
            return;
        }
        float[] x = s.a;
        double total = 0;
        for (long at = 0; at < count; at += x.length) {
            int len = (int) Math.min(x.length, count - at);
            self.gather(first + at, x, len);
            total += BulkMath.current().groupSum(x, 0, len);
        }
        double m = total / count;
        double squares = 0;
        for (long at = 0; at < count; at += x.length) {
            int len = (int) Math.min(x.length, count - at);
            self.gather(first + at, x, len);
            squares += BulkMath.current().squaredDeviations(x, 0, len, m);
        }
        double r = rstd(squares, count);
        store(task, m, r);
        double[] kb = groupCoefficients(task, m, r, (int) perGroup);
        for (int c = 0; c < perGroup; c++) {
            long rowStart = first + c * hxw;
            for (long at = 0; at < hxw; at += x.length) {
                int len = (int) Math.min(x.length, hxw - at);
                self.gather(rowStart + at, x, len);
                BulkMath.current().scaleShift(x, 0, len, kb[2 * c], kb[2 * c + 1]);
                out.scatter(rowStart + at, x, len);
            }
        }
    }

    /**
     * Groups of up to this many elements are read once: their second pass and update run on the
     * copy in cache.
     */
    private static final long CACHED_GROUP = 1 << 16;

    /**
     * Whether this call's update reads γ and β per element: planned so, and a workspace the direct
     * loops can read. The copies are written and read under this one test.
     */
    private boolean usesPatterns(MemorySegment workspace) {
        return patterns && workspace.isNative();
    }

    /**
     * A channel's value repeated {@code hxw} times for every channel, as doubles from byte {@code at}
     * of {@code workspace}: {@code values[c]}, or {@code absent} without values. The per-element
     * copies of γ and β that both GroupNorm kernels' short rows read.
     */
    static void writeRepeated(MemorySegment workspace, long at, StridedView values, double absent, long channels,
            long hxw) {
        for (long ch = 0; ch < channels; ch++) {
            double value = values == null ? absent : values.get(ch);
            for (long p = 0; p < hxw; p++, at += Double.BYTES) {
                workspace.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, value);
            }
        }
    }

    private double rstd(double squares, long count) {
        return 1 / Math.sqrt(squares / count + eps);
    }

    private void store(long task, double m, double r) {
        mean.set(task, (float) m);
        rstd.set(task, (float) r);
    }

    /**
     * {@code [k, bias]} of each of the group's {@code rows} channels, pairs one after the other
     * (per-thread scratch): {@code k = rstd·γ}, {@code bias = β − mean·k}, for
     * {@code out = x·k + bias}. γ and β are read once per group, where reading them per channel cost
     * a 7×7 map as much as its update.
     */
    private double[] groupCoefficients(long task, double m, double r, int rows) {
        Scratch s = Scratch.get();
        float[] values = s.weights(rows);
        long firstChannel = (task % group) * rows;
        double[] kb = s.rowScales(2 * rows);
        if (gamma != null) {
            gamma.gather(firstChannel, values, rows);
        }
        for (int row = 0; row < rows; row++) {
            kb[2 * row] = r * (gamma == null ? 1 : values[row]);
        }
        if (beta != null) {
            beta.gather(firstChannel, values, rows);
        }
        for (int row = 0; row < rows; row++) {
            kb[2 * row + 1] = (beta == null ? 0 : values[row]) - m * kb[2 * row];
        }
        return kb;
    }

    /** An empty self: mean 0 and rstd NaN over every (n, g), as CANN fills them. */
    public static void fillEmpty(StridedView mean, StridedView rstd) {
        mean.fill(0, mean.numel(), 0f);
        rstd.fill(0, rstd.numel(), Float.NaN);
    }
}
