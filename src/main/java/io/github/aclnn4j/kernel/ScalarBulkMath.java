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

    @Override
    public double bceWithLogits(float[] x, float[] y, float[] w, float[] pw, int n, boolean store) {
        return bceWithLogits(x, y, w, pw, 0, n, store);
    }

    /** The loss of elements [from, to), as {@link #bceWithLogits(float[], float[], float[], float[], int, boolean)}. */
    static double bceWithLogits(float[] x, float[] y, float[] w, float[] pw, int from, int to, boolean store) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            float xi = x[i];
            float yi = y[i];
            float logSigmoid = Math.min(xi, 0f) - (float) Math.log1p(Math.exp(-Math.abs(xi)));
            float p = pw == null ? 1f : pw[i];
            float loss = (1f - yi) * xi - (1f + (p - 1f) * yi) * logSigmoid;
            if (w != null) {
                loss *= w[i];
            }
            if (store) {
                x[i] = loss;
            }
            sum += loss;
        }
        return sum;
    }

    @Override
    public void sumAndDot(float[] a, float[] b, int n, double[] out) {
        double s = 0;
        double d = 0;
        for (int i = 0; i < n; i++) {
            s += a[i];
            d += (double) a[i] * b[i];
        }
        out[0] = s;
        out[1] = d;
    }
}
