package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * GroupNormBackward over data read as {@code [N, C, HxW]} with statistics {@code [N, group]}, one
 * task per (n, group): it sums {@code dy} and {@code dy·x} per row (n, c) in double into the
 * workspace, derives the group's coefficients and writes {@code dx = rstd·γ·dy + b·x + c0} while the
 * group's rows are still in cache, then leaves each row's gradGamma term in the workspace. gradBeta
 * and gradGamma then add the row sums and terms over n. Every sum has a fixed order, so the result
 * does not depend on the thread count. Dense operands of one dtype (16-bit ones with rows of at
 * least {@link #MIN_DIRECT_ROW} elements) go through {@link DirectMath} loops instead of the cached
 * group: the sums row by row (16-bit ones in fp32 within chunks, by {@link HalfChunkMath}), FLOAT's
 * update of short rows a group at a time ({@link #PATTERN_ROW}).
 */
public final class GroupNormBackwardKernel implements Parallel.Tasks, Kernel {
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final StridedView dy;
    private final StridedView x;
    private final StridedView mean;
    private final StridedView rstd;
    private final StridedView gamma;
    private final long n;
    private final long c;
    private final long hxw;
    private final long group;
    private final StridedView gradInput;
    private final StridedView gradGamma;
    private final StridedView gradBeta;
    /** Whether the operands suit the {@link DirectMath} loops. */
    private final boolean direct;
    /**
     * Whether gradInput's update runs a group at a time from a per-element copy of γ in the
     * workspace ({@link GroupNormKernel#writeRepeated}): dense FLOAT operands with γ and rows of at
     * most {@link #PATTERN_ROW} elements. Only with a workspace in native memory, which the direct loops
     * read (one over a Java array takes the rows' way).
     */
    private final boolean gammaPattern;

    /**
     * The kernel of one plan, made by phase 1.
     *
     * @param gamma null for all ones
     * @param gradInput, gradGamma, gradBeta null when not requested
     */
    public GroupNormBackwardKernel(StridedView dy, StridedView x, StridedView mean, StridedView rstd,
            StridedView gamma, long n, long c, long hxw, long group, StridedView gradInput, StridedView gradGamma,
            StridedView gradBeta) {
        this.dy = dy;
        this.x = x;
        this.mean = mean;
        this.rstd = rstd;
        this.gamma = gamma;
        this.n = n;
        this.c = c;
        this.hxw = hxw;
        this.group = group;
        this.gradInput = gradInput;
        this.gradGamma = gradGamma;
        this.gradBeta = gradBeta;
        DType dt = dy.dtype();
        direct = DirectOperands.supportedWithOwnHalfSums(Warmup.Family.GROUP_NORM_BACKWARD, dt)
                && DirectOperands.dense(dy, dt) && DirectOperands.dense(x, dt)
                && (gradInput == null || DirectOperands.dense(gradInput, dt));
        gammaPattern = direct && dt == DType.FLOAT && gamma != null && gradInput != null && hxw <= PATTERN_ROW;
    }

    /** Workspace bytes: Σdy and Σdy·x per (n, c). */
    public static long workspaceBytes(long n, long c) {
        return 2 * n * c * Double.BYTES;
    }

    /** This plan's workspace bytes: {@link #workspaceBytes(long, long)}, and γ per element of a sample when used. */
    public long workspaceBytes() {
        return workspaceBytes(n, c) + (gammaPattern ? c * hxw * Double.BYTES : 0);
    }

    /**
     * Rows of at most this many elements take their update a group at a time, their γ from a
     * per-element copy: per row, the update's loop costs as much again as its 49 elements at 7×7
     * (64×512×7×7, bench ab: 2.36 → 1.87 ms; at 14×14 the copy's reads cost what the loop saves).
     */
    static final long PATTERN_ROW = 64;

    /** Runs the whole call: the (n, group) tasks on the library's threads, then gradBeta and gradGamma. */
    @Override
    public void run(MemorySegment workspace) {
        if (usesGammaPattern(workspace)) {
            GroupNormKernel.writeRepeated(workspace, workspaceBytes(n, c), gamma, 1, c, hxw);
        }
        Parallel.forEach(n * group, c / group * hxw, this, workspace);
        reduceOverSamples(workspace, n, c, gradGamma, gradBeta);
    }

    /**
     * Whether this call's update reads γ per element, after the row sums in the workspace: planned
     * so, and a workspace the direct loops can read. The copy is written and read under this one test.
     */
    private boolean usesGammaPattern(MemorySegment workspace) {
        return gammaPattern && workspace.isNative();
    }

    /**
     * gradBeta and gradGamma (either may be null) from the workspace's per-(n, c) {@code Σdy} and
     * gradGamma terms, added over n in order. Sample by sample over all channels: the workspace is
     * read once in order, and each channel's chain of additions overlaps the others' (a channel at
     * a time waited on each addition and read the workspace a cache line per term).
     */
    static void reduceOverSamples(MemorySegment workspace, long n, long c, StridedView gradGamma,
            StridedView gradBeta) {
        if (gradGamma == null && gradBeta == null) {
            return;
        }
        Scratch s = Scratch.get();
        double[] pairs = s.workspaceDoubles(workspace, 0, Math.toIntExact(2 * n * c));
        int channels = (int) c;
        double[][] totals = s.channelDoubles(channels);
        double[] beta = totals[0];
        double[] gam = totals[1];
        Arrays.fill(beta, 0, channels, 0.0);
        Arrays.fill(gam, 0, channels, 0.0);
        for (int i = 0; i < n; i++) {
            int sample = 2 * i * channels;
            for (int ch = 0; ch < channels; ch++) {
                beta[ch] += pairs[sample + 2 * ch];
                gam[ch] += pairs[sample + 2 * ch + 1];
            }
        }
        for (int ch = 0; ch < channels; ch++) {
            if (gradBeta != null) {
                gradBeta.set(ch, (float) beta[ch]);
            }
            if (gradGamma != null) {
                gradGamma.set(ch, (float) gam[ch]);
            }
        }
    }

    /** One (n, group): its rows' sums into the workspace, then its gradInput. */
    @Override
    public void task(long task, MemorySegment workspace) {
        long d = c / group;
        long i = task / group;
        long g = task % group;
        long firstRow = i * c + g * d;
        float[] gammas = null; // the group's gamma values, or null for all ones
        if (gamma != null) {
            gammas = Scratch.get().weights((int) d);
            gamma.gather(g * d, gammas, (int) d);
        }
        if (direct && (hxw >= MIN_DIRECT_ROW || dy.dtype() == DType.FLOAT)) {
            long patternAt = usesGammaPattern(workspace) ? workspaceBytes(n, c) + Double.BYTES * g * d * hxw : -1;
            directGroup(dy, x, mean, rstd, gammas, c, hxw, d, i, g, task, gradInput, workspace, patternAt);
        } else if (d * hxw <= CACHED_GROUP) {
            cachedGroup(dy, x, mean, rstd, gammas, c, hxw, d, i, g, task, gradInput, workspace);
        } else {
            for (long row = firstRow; row < firstRow + d; row++) {
                rowSums(dy, x, row, hxw, 0, workspace);
            }
            if (gradInput != null) {
                double[] coef = coefficients(mean, rstd, gammas, c, hxw, d, i, g, task, workspace);
                float mu = mean.get(task);
                for (int r = 0; r < d; r++) {
                    double coefDy = coef[0] * (gammas == null ? 1 : gammas[r]);
                    rowGradInput(dy, x, gradInput, firstRow + r, hxw, 0, coefDy, coef[1], coef[2], mu, coef[3]);
                }
            }
        }
        gammaTerms(mean.get(task), rstd.get(task), firstRow, d, workspace);
    }

    /**
     * Replaces each row's {@code Σdy·x} in the workspace, once the group is done with it, by its
     * gradGamma term {@code (Σdy·x − mean·Σdy)·rstd}: the final reduction over n then only adds.
     */
    static void gammaTerms(double mu, double rs, long firstRow, long d, MemorySegment workspace) {
        Scratch s = Scratch.get();
        double[] pairs = s.workspaceDoubles(workspace, 2 * firstRow, 2 * (int) d);
        for (int r = 0; r < d; r++) {
            pairs[2 * r + 1] = (pairs[2 * r + 1] - mu * pairs[2 * r]) * rs;
        }
        s.storeWorkspaceDoubles(workspace, 2 * firstRow, 2 * (int) d);
    }

    /**
     * Shorter 16-bit rows (7×7, 14×14 maps) take the cached group even when dense: their direct
     * loops would leave a remainder of every row to a gather of its own. FLOAT's loops finish each
     * row themselves, so dense FLOAT rows of any length go direct.
     */
    private static final long MIN_DIRECT_ROW = 512;

    /** Groups of up to this many elements are gathered once and kept for the gradInput pass. */
    private static final long CACHED_GROUP = 1 << 16;

    /**
     * One (n, group) whose dy and x fit a per-thread buffer: read once, its rows summed and updated
     * in place by one bulk call each, written.
     */
    private static void cachedGroup(StridedView dy, StridedView x, StridedView mean, StridedView rstd,
            float[] gammas, long c, long hxw, long d, long i, long g, long task, StridedView gradInput,
            MemorySegment workspace) {
        int len = (int) (d * hxw);
        int rows = (int) d;
        int row = (int) hxw;
        long firstRow = i * c + g * d;
        Scratch s = Scratch.get();
        s.ensureGroupRows(len);
        float[] a = s.groupA;
        float[] b = s.groupB;
        dy.gather(firstRow * hxw, a, len);
        x.gather(firstRow * hxw, b, len);
        double[] sums = s.sums(2 * rows);
        BulkMath.current().sumAndDotRows(a, b, rows, row, sums);
        s.storeSums(sums, workspace, 16 * firstRow, 2 * rows);
        if (gradInput == null) {
            return;
        }
        double[] coef = coefficients(mean, rstd, gammas, c, hxw, d, i, g, task, workspace);
        float mu = mean.get(task);
        if (gradInput.dtype() != DType.FLOAT) {
            float[] cdy = s.rowScalesFloat(rows);
            for (int r = 0; r < rows; r++) {
                cdy[r] = (float) (coef[0] * (gammas == null ? 1 : gammas[r]));
            }
            BulkMath.current().groupNormUpdateRows(a, b, rows, row, cdy, (float) coef[1], mu, (float) coef[3]);
        } else {
            double[] cdy = s.rowScales(rows);
            for (int r = 0; r < rows; r++) {
                cdy[r] = coef[0] * (gammas == null ? 1 : gammas[r]);
            }
            BulkMath.current().affineRows(a, b, rows, row, cdy, coef[1], coef[2]);
        }
        gradInput.scatter(firstRow * hxw, a, len);
    }

    /**
     * The (n, group) coefficients from its rows' sums in the workspace: {@code [rstd, b, c0, k]}
     * with {@code dx = rstd·γ·dy + b·x + c0 = rstd·γ·dy + b·(x − mean) + k}. The array is
     * per-thread scratch.
     */
    static double[] coefficients(StridedView mean, StridedView rstd, float[] gammas, long c, long hxw,
            long d, long i, long g, long task, MemorySegment workspace) {
        double mu = mean.get(task);
        double rs = rstd.get(task);
        double s1 = 0;
        double s2 = 0;
        long firstRow = i * c + g * d;
        double[] pairs = Scratch.get().workspaceDoubles(workspace, 2 * firstRow, 2 * (int) d);
        for (int r = 0; r < d; r++) {
            double gm = gammas == null ? 1 : gammas[r];
            s1 += gm * pairs[2 * r];
            s2 += gm * pairs[2 * r + 1];
        }
        double m = (double) d * hxw;
        double coefX = (s1 * mu - s2) * rs * rs * rs / m;
        double[] coef = Scratch.get().sums(4);
        coef[0] = rs;
        coef[1] = coefX;
        coef[2] = -coefX * mu - s1 * rs / m;
        coef[3] = -s1 * rs / m;
        return coef;
    }

    /** Rows per {@link DirectMath#groupNormUpdate} call, which takes one coefficient per row. */
    static final int UPDATE_ROWS = 1024;

    /**
     * One (n, group) of dense operands: the {@link DirectMath} loops take whole steps of all its
     * rows in one call each (sums, then the update, which reads the group again from cache), rows
     * the last elements of each row. FLOAT's update takes the whole group in one loop where every
     * row has the same coefficients (no γ) or γ's per-element copy is at byte {@code patternAt} of
     * the workspace, else a row at a time.
     */
    private static void directGroup(StridedView dy, StridedView x, StridedView mean, StridedView rstd,
            float[] gammas, long c, long hxw, long d, long i, long g, long task, StridedView gradInput,
            MemorySegment workspace, long patternAt) {
        DType dt = dy.dtype();
        HalfChunkMath sums = DirectOperands.halfChunkMath(dt); // 16-bit: plain Java while cold
        long firstRow = i * c + g * d;
        long first = firstRow * hxw;
        long part = dt == DType.FLOAT ? hxw : hxw - hxw % DirectMath.STEP; // FLOAT's loops take whole rows
        sums.groupSums(dt, dy.segment(), dy.denseOffset(first), x.segment(), x.denseOffset(first), d, hxw, part,
                workspace, 16 * firstRow);
        if (part < hxw) {
            for (long row = firstRow; row < firstRow + d; row++) {
                rowSums(dy, x, row, hxw, part, workspace);
            }
        }
        if (gradInput == null) {
            return;
        }
        double[] coef = coefficients(mean, rstd, gammas, c, hxw, d, i, g, task, workspace);
        double rs = coef[0];
        double coefX = coef[1];
        double bias = coef[2];
        double k = coef[3];
        float mu = mean.get(task);
        if (dt == DType.FLOAT && (gammas == null || patternAt >= 0)) {
            DirectMath math = DirectOperands.math();
            for (long done = 0; done < d * hxw; done += Blocks.SIZE) { // an int count per call
                long start = first + done;
                int len = (int) Math.min(Blocks.SIZE, d * hxw - done);
                if (gammas == null) {
                    math.affine(dt, dy.segment(), dy.denseOffset(start), x.segment(), x.denseOffset(start), rs, coefX,
                            bias, gradInput.segment(), gradInput.denseOffset(start), len);
                } else {
                    math.affineScaled(dt, dy.segment(), dy.denseOffset(start), x.segment(), x.denseOffset(start),
                            workspace, patternAt + Double.BYTES * done, rs, coefX, bias, gradInput.segment(),
                            gradInput.denseOffset(start), len);
                }
            }
        } else if (dt == DType.FLOAT) {
            DirectMath math = DirectOperands.math();
            for (long r = 0; r < d; r++) {
                double coefDy = rs * (gammas == null ? 1 : gammas[(int) r]);
                for (long done = 0; done < part; done += Blocks.SIZE) { // an int count per call
                    long start = (firstRow + r) * hxw + done;
                    math.affine(dt, dy.segment(), dy.denseOffset(start), x.segment(), x.denseOffset(start), coefDy,
                            coefX, bias, gradInput.segment(), gradInput.denseOffset(start),
                            (int) Math.min(Blocks.SIZE, part - done));
                }
            }
        } else {
            float[] cdy = Scratch.get().rowCoefficients;
            for (long r0 = 0; r0 < d; r0 += UPDATE_ROWS) {
                int rows = (int) Math.min(UPDATE_ROWS, d - r0);
                for (int r = 0; r < rows; r++) {
                    cdy[r] = (float) (rs * (gammas == null ? 1 : gammas[(int) r0 + r]));
                }
                long start = (firstRow + r0) * hxw;
                sums.groupNormUpdate(dt, dy.segment(), dy.denseOffset(start), x.segment(), x.denseOffset(start), rows,
                        hxw, part, cdy, (float) coefX, mu, (float) k, gradInput.segment(),
                        gradInput.denseOffset(start));
            }
        }
        if (part < hxw) {
            for (long r = 0; r < d; r++) {
                double coefDy = rs * (gammas == null ? 1 : gammas[(int) r]);
                rowGradInput(dy, x, gradInput, firstRow + r, hxw, part, coefDy, coefX, bias, mu, k);
            }
        }
    }

    /**
     * Σdy and Σdy·x over elements {@code [from, hxw)} of row {@code row}, through rows: stored in
     * the workspace when {@code from} is 0, else added to what the direct loops left there.
     */
    private static void rowSums(StridedView dy, StridedView x, long row, long hxw, long from,
            MemorySegment workspace) {
        Scratch s = Scratch.get();
        double[] sums = s.sums(2);
        double sdy = from == 0 ? 0 : workspace.getAtIndex(F64, 2 * row);
        double sdyx = from == 0 ? 0 : workspace.getAtIndex(F64, 2 * row + 1);
        for (long done = from; done < hxw; done += Blocks.SIZE) {
            int len = (int) Math.min(Blocks.SIZE, hxw - done);
            long start = row * hxw + done;
            dy.gather(start, s.a, len);
            x.gather(start, s.b, len);
            BulkMath.current().sumAndDot(s.a, s.b, 0, len, sums);
            sdy += sums[0];
            sdyx += sums[1];
        }
        workspace.setAtIndex(F64, 2 * row, sdy);
        workspace.setAtIndex(F64, 2 * row + 1, sdyx);
    }

    /**
     * gradInput over elements {@code [from, hxw)} of row {@code row}, through rows:
     * {@code coefDy·dy + coefX·x + bias} in double for a FLOAT output; for a 16-bit one, whose
     * rounding is 2^16 times coarser, the fp32 {@code fma(coefX, x − mean, fma(coefDy, dy, k))},
     * which subtracts the mean before scaling so that the large terms do not cancel.
     */
    private static void rowGradInput(StridedView dy, StridedView x, StridedView gradInput, long row, long hxw,
            long from, double coefDy, double coefX, double bias, float mean, double k) {
        Scratch s = Scratch.get();
        boolean half = gradInput.dtype() != DType.FLOAT;
        for (long done = from; done < hxw; done += Blocks.SIZE) {
            int len = (int) Math.min(Blocks.SIZE, hxw - done);
            long start = row * hxw + done;
            dy.gather(start, s.a, len);
            x.gather(start, s.b, len);
            if (half) {
                BulkMath.current().groupNormUpdate(s.a, s.b, 0, len, (float) coefDy, (float) coefX, mean, (float) k);
            } else {
                BulkMath.current().affine(s.a, s.b, 0, len, coefDy, coefX, bias);
            }
            gradInput.scatter(start, s.a, len);
        }
    }
}
