package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.HalfFloats;

/** {@link BulkMath} in plain Java: the fallback when the Vector API is absent. */
final class ScalarBulkMath implements BulkMath {
    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void bf16ToFloat(short[] src, float[] dst, int dstAt, int n) {
        for (int i = 0; i < n; i++) {
            dst[dstAt + i] = HalfFloats.fromBf16(src[i]);
        }
    }

    @Override
    public void floatToBf16(float[] src, int srcAt, short[] dst, int n) {
        for (int i = 0; i < n; i++) {
            dst[i] = HalfFloats.toBf16(src[srcAt + i]);
        }
    }

    /** Each the Vector API loops' fp32 loss ({@link Fp32Math}), added in {@link SumOrder#chunkedSum}'s order. */
    @Override
    public double bceWithLogits(float[] x, float[] y, float[] w, float[] pw, int n) {
        for (int i = 0; i < n; i++) {
            x[i] = Fp32Math.bceWithLogitsLoss(x[i], Fp32Math.expNegAbs(x[i]), y[i], w[i], pw[i]);
        }
        return SumOrder.chunkedSum(x, n);
    }

    @Override
    public void bceWithLogitsBackward(float[] x, float[] y, float[] g, float[] w, float[] pw, float scale, int n) {
        for (int i = 0; i < n; i++) {
            x[i] = Fp32Math.bceWithLogitsGradient(x[i], y[i], g[i], w[i], pw[i], scale);
        }
    }

    /** Each the Vector API loops' fp32 loss ({@link Fp32Math}), added in {@link SumOrder#chunkedSum}'s order. */
    @Override
    public double binaryCrossEntropy(float[] x, float[] y, float[] w, int n) {
        for (int i = 0; i < n; i++) {
            x[i] = Fp32Math.bceLoss(x[i], y[i], w[i]);
        }
        return SumOrder.chunkedSum(x, n);
    }

    /** Σ min(x, 0)·g in {@link SumOrder}'s lanes, as the Vector API loop adds it. */
    @Override
    public double preluRow(float[] x, float[] g, int from, int to, float w) {
        double[] lanes = SumOrder.zeroed(Scratch.get().lanes);
        int bound = SumOrder.laneBound(from, to);
        for (int i = from; i < bound; i++) {
            float xi = x[i];
            float gi = g[i];
            boolean up = xi > 0; // its term 0·0, whatever g holds (0·inf would be NaN)
            lanes[(i - from) % SumOrder.LANES] = Math.fma(up ? 0f : xi, up ? 0.0 : gi,
                    lanes[(i - from) % SumOrder.LANES]);
            x[i] = xi > 0 ? gi : w * gi;
        }
        double sum = SumOrder.sumLanes(lanes);
        for (int i = bound; i < to; i++) {
            float xi = x[i];
            float gi = g[i];
            sum += xi > 0 ? 0.0 : (double) xi * gi;
            x[i] = xi > 0 ? gi : w * gi;
        }
        return sum;
    }

    @Override
    public void preluChannelRows(float[] x, float[] g, int from, int to, float[] w, int channels, double[] acc) {
        for (int row = from; row < to; row += channels) {
            for (int c = 0; c < channels; c++) {
                float xi = x[row + c];
                float gi = g[row + c];
                acc[c] += xi > 0 ? 0.0 : (double) xi * gi;
                x[row + c] = xi > 0 ? gi : w[c] * gi;
            }
        }
    }

    @Override
    public void prelu(float[] x, int from, int to, float w) {
        for (int i = from; i < to; i++) {
            float xi = x[i];
            x[i] = xi > 0 ? xi : w * xi;
        }
    }

    @Override
    public void preluWeighted(float[] x, float[] w, int from, int to) {
        for (int i = from; i < to; i++) {
            float xi = x[i];
            x[i] = xi > 0 ? xi : w[i] * xi;
        }
    }

    @Override
    public void affine(float[] a, float[] b, int from, int to, double ca, double cb, double bias) {
        for (int i = from; i < to; i++) {
            a[i] = (float) (ca * a[i] + cb * b[i] + bias);
        }
    }

    @Override
    public void sumAndDot(float[] a, float[] b, int from, int to, double[] out) {
        sumAndDotRow(a, b, from, to, out, 0);
    }

    @Override
    public void addChannelSums(float[] a, int rows, int channels, double[] sum) {
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            for (int c = 0; c < channels; c++) {
                sum[c] += a[at + c];
            }
        }
    }

    @Override
    public void addChannelRows(float[] a, float[] b, int rows, int channels, double[] sum, double[] dot) {
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            for (int c = 0; c < channels; c++) {
                sum[c] += a[at + c];
                dot[c] = Math.fma(a[at + c], (double) b[at + c], dot[c]);
            }
        }
    }

    @Override
    public void addChannelSquaredDeviations(float[] a, int rows, int channels, double[] shift, double[] acc) {
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            for (int c = 0; c < channels; c++) {
                double d = a[at + c] - shift[c];
                acc[c] = Math.fma(d, d, acc[c]);
            }
        }
    }

    @Override
    public void affineChannelRows(float[] a, int rows, int channels, double[] k, double[] bias) {
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            for (int c = 0; c < channels; c++) {
                a[at + c] = (float) Math.fma(k[c], a[at + c], bias[c]);
            }
        }
    }

    @Override
    public void affineChannelPairs(float[] a, float[] b, int rows, int channels, double[] ca, double[] cb,
            double[] bias) {
        for (int r = 0, at = 0; r < rows; r++, at += channels) {
            for (int c = 0; c < channels; c++) {
                a[at + c] = (float) (ca[c] * a[at + c] + cb[c] * b[at + c] + bias[c]);
            }
        }
    }

    /** In {@link SumOrder#GROUP_LANES}, as the Vector API loop adds it. */
    @Override
    public double squaredDeviations(float[] a, int from, int to, double shift) {
        double[] lanes = SumOrder.zeroedGroupLanes(Scratch.get().lanes);
        int bound = SumOrder.laneBound(from, to);
        for (int i = from; i < bound; i++) {
            double d = a[i] - shift;
            lanes[(i - from) % SumOrder.GROUP_LANES] = Math.fma(d, d, lanes[(i - from) % SumOrder.GROUP_LANES]);
        }
        double s = SumOrder.foldGroupLanes(lanes);
        for (int i = bound; i < to; i++) {
            double d = a[i] - shift;
            s += d * d;
        }
        return s;
    }

    /** In {@link SumOrder#GROUP_LANES}, as the Vector API loop adds it. */
    @Override
    public double groupSum(float[] a, int from, int to) {
        double[] lanes = SumOrder.zeroedGroupLanes(Scratch.get().lanes);
        int bound = SumOrder.laneBound(from, to);
        for (int i = from; i < bound; i++) {
            lanes[(i - from) % SumOrder.GROUP_LANES] += a[i];
        }
        double s = SumOrder.foldGroupLanes(lanes);
        for (int i = bound; i < to; i++) {
            s += a[i];
        }
        return s;
    }

    @Override
    public void scaleShift(float[] a, int from, int to, double k, double bias) {
        for (int i = from; i < to; i++) {
            a[i] = (float) Math.fma(a[i], k, bias);
        }
    }

    @Override
    public void groupNormUpdate(float[] dy, float[] x, int from, int to, float cdy, float cx, float mean, float k) {
        for (int i = from; i < to; i++) {
            dy[i] = Math.fma(cx, x[i] - mean, Math.fma(cdy, dy[i], k));
        }
    }

    @Override
    public void sumAndDotRows(float[] a, float[] b, int rows, int length, double[] out) {
        for (int r = 0; r < rows; r++) {
            sumAndDotRow(a, b, r * length, (r + 1) * length, out, 2 * r);
        }
    }

    /** {@link #sumAndDot} into {@code out[at]} and {@code out[at + 1]}, in {@link SumOrder}'s lanes. */
    private static void sumAndDotRow(float[] a, float[] b, int from, int to, double[] out, int at) {
        Scratch scratch = Scratch.get();
        double[] sums = SumOrder.zeroed(scratch.lanes);
        double[] dots = SumOrder.zeroed(scratch.dotLanes);
        int bound = SumOrder.laneBound(from, to);
        for (int i = from; i < bound; i++) {
            int lane = (i - from) % SumOrder.LANES;
            sums[lane] += a[i];
            dots[lane] = Math.fma(a[i], (double) b[i], dots[lane]);
        }
        double s = SumOrder.sumLanes(sums);
        double d = SumOrder.sumLanes(dots);
        for (int i = bound; i < to; i++) {
            s += a[i];
            d += (double) a[i] * b[i];
        }
        out[at] = s;
        out[at + 1] = d;
    }
}
