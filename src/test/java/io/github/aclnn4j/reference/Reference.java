package io.github.aclnn4j.reference;

/**
 * The five operators in float64, straight from SPEC §5: loops over multi-indices, no cleverness.
 * Inputs are the values the tensors hold (already rounded to their dtypes), in row-major order.
 *
 * <p>Next to each value the reference returns an error bound for an implementation that computes
 * in fp32: a count of roundings times the unit roundoff times the magnitude of the terms (the
 * same expression with every term taken by absolute value). A kernel may order its fp32
 * operations freely within that bound; an indexing or formula mistake is far outside it.
 */
public final class Reference {
    private Reference() {}

    /** The fp32 unit roundoff. */
    static final double F32 = 0x1p-24;

    /** Allowed fp32 roundings for the few operations of one element. */
    private static final double ELEMENTWISE_ROUNDINGS = 16;

    /** Allowed fp32 roundings for a sum of {@code terms} terms (pairwise or blocked), plus a few for each term. */
    static double sumRoundings(long terms) {
        return 2 * (64 - Long.numberOfLeadingZeros(terms + 1)) + 32;
    }

    /** A row-major array of the given shape. */
    public record Arr(long[] shape, double[] data) {
        /** The element numpy broadcasting puts at {@code index} of {@code to}. */
        double at(long[] to, long[] index) {
            return data[Shapes.broadcastPosition(shape, to, index)];
        }
    }

    /** Values and, for each, the absolute error an fp32 computation may make before its final rounding. */
    public record Expected(double[] value, double[] bound) {
        static Expected ofSize(int n) {
            return new Expected(new double[n], new double[n]);
        }
    }

    public static final int NONE = 0;
    public static final int MEAN = 1;
    public static final int SUM = 2;

    /** §5.1: out = g·(x − y) / max((1 − x)·x, 1e-12)·w, and ·1/numel for mean. */
    public static Expected binaryCrossEntropyBackward(Arr grad, Arr self, Arr target, Arr weight, int reduction) {
        long[] shape = self.shape();
        int n = self.data().length;
        Expected out = Expected.ofSize(n);
        long[] index = new long[shape.length];
        for (int i = 0; i < n; i++) {
            double x = self.data()[i];
            double y = target.at(shape, index);
            double g = grad.at(shape, index);
            double w = weight == null ? 1 : weight.at(shape, index);
            double denominator = Math.max((1 - x) * x, 1e-12);
            double scale = reduction == MEAN ? 1.0 / n : 1;
            double v = g * (x - y) / denominator * w * scale;
            out.value()[i] = v;
            // g·(x − y) may fall below fp32's normal range, where its rounding is absolute (half of
            // 2^-149), and the division then magnifies it (a subnormal gradOutput)
            out.bound()[i] = ELEMENTWISE_ROUNDINGS * F32 * Math.abs(v) + 0x1p-149 * Math.abs(w * scale) / denominator;
            Shapes.increment(index, shape);
        }
        return out;
    }

    /** §5.2: gradInput and gradWeight (numel(weight) channels; channel = view dimension 1 when numel(weight) ≠ 1). */
    public static Expected[] preluBackward(Arr grad, Arr self, double[] weight) {
        long[] shape = self.shape();
        int n = self.data().length;
        Expected gradInput = Expected.ofSize(n);
        Expected gradWeight = Expected.ofSize(weight.length);
        double[] magnitude = new double[weight.length];
        long[] termsPerChannel = new long[weight.length];
        long[] index = new long[shape.length];
        for (int i = 0; i < n; i++) {
            int c = weight.length == 1 ? 0 : (int) index[1];
            double x = self.data()[i];
            double g = grad.at(shape, index);
            double gi = x > 0 ? g : weight[c] * g;
            gradInput.value()[i] = gi;
            gradInput.bound()[i] = ELEMENTWISE_ROUNDINGS * F32 * Math.abs(gi);
            gradWeight.value()[c] += x > 0 ? 0 : x * g; // 0 for a positive x whatever g holds (SPEC §5.2)
            magnitude[c] += x > 0 ? 0 : Math.abs(x * g);
            termsPerChannel[c]++;
            Shapes.increment(index, shape);
        }
        for (int c = 0; c < weight.length; c++) {
            gradWeight.bound()[c] = sumRoundings(termsPerChannel[c]) * F32 * magnitude[c];
        }
        return new Expected[] {gradInput, gradWeight};
    }

    /**
     * §5.3: loss = ((1 − y)·x − (1 + (pw − 1)·y)·logσ(x))·w with logσ(x) = min(x, 0) − log1p(exp(−|x|)),
     * weight and posWeight first cast to {@code computeType}; mean/sum give one element (NaN/0 when empty).
     */
    public static Expected binaryCrossEntropyWithLogits(Arr self, Arr target, Arr weight, Arr posWeight,
            int reduction, StoredType computeType) {
        long[] shape = self.shape();
        int n = self.data().length;
        Expected loss = Expected.ofSize(n);
        double[] magnitude = new double[n];
        long[] index = new long[shape.length];
        for (int i = 0; i < n; i++) {
            double x = self.data()[i];
            double y = target.data()[i];
            double w = weight == null ? 1 : computeType.round(weight.at(shape, index));
            double pw = posWeight == null ? 1 : computeType.round(posWeight.at(shape, index));
            double softplusTail = Math.log1p(Math.exp(-Math.abs(x)));
            double logSigmoid = Math.min(x, 0) - softplusTail;
            double coefficient = 1 + (pw - 1) * y;
            loss.value()[i] = ((1 - y) * x - coefficient * logSigmoid) * w;
            magnitude[i] = (Math.abs(1 - y) * Math.abs(x)
                    + (1 + Math.abs(pw - 1) * Math.abs(y)) * (Math.abs(Math.min(x, 0)) + softplusTail)) * Math.abs(w);
            loss.bound()[i] = ELEMENTWISE_ROUNDINGS * F32 * magnitude[i];
            Shapes.increment(index, shape);
        }
        if (reduction == NONE) {
            return loss;
        }
        double sum = 0;
        double sumMagnitude = 0;
        for (int i = 0; i < n; i++) {
            sum += loss.value()[i];
            sumMagnitude += magnitude[i];
        }
        double bound = sumRoundings(n) * F32 * sumMagnitude;
        if (reduction == MEAN) {
            return new Expected(new double[] {n == 0 ? Double.NaN : sum / n}, new double[] {n == 0 ? 0 : bound / n});
        }
        return new Expected(new double[] {sum}, new double[] {bound});
    }

    /**
     * aclnnNLLLoss: out and totalWeight. l_n = −w[t_n]·x[n, t_n] (0 and no weight when t_n is
     * ignoreIndex); none gives each l_n, sum Σ l_n, mean Σ l_n / Σ w (NaN when every target is
     * ignored); totalWeight Σ w for mean and sum.
     */
    public static Expected[] nllLoss(double[] self, long[] target, double[] weight, int reduction, long ignoreIndex,
            int rows, int classes) {
        Expected each = Expected.ofSize(rows);
        double loss = 0;
        double magnitude = 0;
        double total = 0;
        double totalMagnitude = 0;
        for (int n = 0; n < rows; n++) {
            if (target[n] == ignoreIndex) {
                continue;
            }
            double w = weight[(int) target[n]];
            double l = -w * self[n * classes + (int) target[n]];
            each.value()[n] = l;
            each.bound()[n] = ELEMENTWISE_ROUNDINGS * F32 * Math.abs(l);
            loss += l;
            magnitude += Math.abs(l);
            total += w;
            totalMagnitude += Math.abs(w);
        }
        Expected totalWeight = new Expected(new double[] {total},
                new double[] {sumRoundings(rows) * F32 * totalMagnitude});
        if (reduction == NONE) {
            return new Expected[] {each, null};
        }
        double bound = sumRoundings(rows) * F32 * magnitude;
        return reduction == SUM
                ? new Expected[] {new Expected(new double[] {loss}, new double[] {bound}), totalWeight}
                : new Expected[] {new Expected(new double[] {loss / total}, new double[] {Math.abs(bound / total)
                        + Math.abs(loss / total) * sumRoundings(rows) * F32 * totalMagnitude / Math.abs(total)}),
                    totalWeight};
    }

    /**
     * aclnnBinaryCrossEntropyWithLogitsBackward: ((pw·y + 1 − y)·σ(x) − pw·y)·g·w, divided by numel
     * for mean; every operand broadcast to self's shape, weights 1 where absent.
     */
    public static Expected binaryCrossEntropyWithLogitsBackward(Arr grad, Arr self, Arr target, Arr weight,
            Arr posWeight, int reduction) {
        long[] shape = self.shape();
        int n = self.data().length;
        double scale = reduction == MEAN ? 1.0 / n : 1;
        Expected out = Expected.ofSize(n);
        long[] index = new long[shape.length];
        for (int i = 0; i < n; i++) {
            double x = self.data()[i];
            double y = target.data()[i];
            double g = grad.at(shape, index);
            double w = weight == null ? 1 : weight.at(shape, index);
            double pw = posWeight == null ? 1 : posWeight.at(shape, index);
            double sigmoid = 1 / (1 + Math.exp(-x));
            double pt = pw * y;
            double coefficient = pt + 1 - y;
            out.value()[i] = (coefficient * sigmoid - pt) * g * w * scale;
            double magnitude = (Math.abs(coefficient * sigmoid) + Math.abs(pt) + Math.abs(1 - y)) * Math.abs(g * w)
                    * scale;
            out.bound()[i] = ELEMENTWISE_ROUNDINGS * F32 * magnitude;
            Shapes.increment(index, shape);
        }
        return out;
    }

    /**
     * aclnnBinaryCrossEntropy: loss = −w·(y·max(log x, −100) + (1 − y)·max(log1p(−x), −100)), weight
     * broadcast to self; mean and sum give one element (NaN and 0 when self is empty).
     */
    public static Expected binaryCrossEntropy(Arr self, Arr target, Arr weight, int reduction) {
        long[] shape = self.shape();
        int n = self.data().length;
        Expected loss = Expected.ofSize(n);
        double[] magnitude = new double[n];
        long[] index = new long[shape.length];
        for (int i = 0; i < n; i++) {
            double x = self.data()[i];
            double y = target.data()[i];
            double w = weight == null ? 1 : weight.at(shape, index);
            double logX = Math.max(Math.log(x), -100);
            double log1mX = Math.max(Math.log1p(-x), -100);
            loss.value()[i] = -(y * logX + (1 - y) * log1mX) * w;
            magnitude[i] = (Math.abs(y * logX) + Math.abs((1 - y) * log1mX)) * Math.abs(w);
            loss.bound()[i] = ELEMENTWISE_ROUNDINGS * F32 * magnitude[i];
            Shapes.increment(index, shape);
        }
        if (reduction == NONE) {
            return loss;
        }
        double sum = 0;
        double sumMagnitude = 0;
        for (int i = 0; i < n; i++) {
            sum += loss.value()[i];
            sumMagnitude += magnitude[i];
        }
        double bound = sumRoundings(n) * F32 * sumMagnitude;
        if (reduction == MEAN) {
            return new Expected(new double[] {n == 0 ? Double.NaN : sum / n}, new double[] {n == 0 ? 0 : bound / n});
        }
        return new Expected(new double[] {sum}, new double[] {bound});
    }

    /** The three outputs of §5.4, each null when it was not asked for. */
    public record GroupNormGrads(Expected gradInput, Expected gradGamma, Expected gradBeta) {}

    /**
     * §5.4, with dy and x read as [N, C, HxW], mean and rstd as [N, group], gamma [C] (null = ones).
     */
    public static GroupNormGrads groupNormBackward(double[] dy, double[] x, double[] mean, double[] rstd,
            double[] gamma, int n, int c, int hxw, int group) {
        int channelsPerGroup = c / group;
        int m = channelsPerGroup * hxw;
        double[][] sdy = new double[n][c];
        double[][] sdyx = new double[n][c];
        double[][] sdyAbs = new double[n][c];
        double[][] sdyxAbs = new double[n][c];
        for (int ni = 0; ni < n; ni++) {
            for (int ci = 0; ci < c; ci++) {
                for (int h = 0; h < hxw; h++) {
                    int i = (ni * c + ci) * hxw + h;
                    sdy[ni][ci] += dy[i];
                    sdyx[ni][ci] += dy[i] * x[i];
                    sdyAbs[ni][ci] += Math.abs(dy[i]);
                    sdyxAbs[ni][ci] += Math.abs(dy[i] * x[i]);
                }
            }
        }
        Expected gradBeta = Expected.ofSize(c);
        Expected gradGamma = Expected.ofSize(c);
        for (int ci = 0; ci < c; ci++) {
            double betaMagnitude = 0;
            double gammaMagnitude = 0;
            for (int ni = 0; ni < n; ni++) {
                int g = ni * group + ci / channelsPerGroup;
                gradBeta.value()[ci] += sdy[ni][ci];
                gradGamma.value()[ci] += (sdyx[ni][ci] - mean[g] * sdy[ni][ci]) * rstd[g];
                betaMagnitude += sdyAbs[ni][ci];
                gammaMagnitude += (sdyxAbs[ni][ci] + Math.abs(mean[g]) * sdyAbs[ni][ci]) * Math.abs(rstd[g]);
            }
            long terms = (long) n * hxw;
            gradBeta.bound()[ci] = sumRoundings(terms) * F32 * betaMagnitude;
            gradGamma.bound()[ci] = sumRoundings(terms) * F32 * gammaMagnitude;
        }
        Expected gradInput = Expected.ofSize(dy.length);
        for (int ni = 0; ni < n; ni++) {
            for (int gi = 0; gi < group; gi++) {
                int g = ni * group + gi;
                double s1 = 0;
                double s2 = 0;
                double s1Abs = 0;
                double s2Abs = 0;
                for (int ci = gi * channelsPerGroup; ci < (gi + 1) * channelsPerGroup; ci++) {
                    double gammaC = gamma == null ? 1 : gamma[ci];
                    s1 += gammaC * sdy[ni][ci];
                    s2 += gammaC * sdyx[ni][ci];
                    s1Abs += Math.abs(gammaC) * sdyAbs[ni][ci];
                    s2Abs += Math.abs(gammaC) * sdyxAbs[ni][ci];
                }
                double r = rstd[g];
                double mu = mean[g];
                double b = (s1 * mu - s2) * r * r * r / m;
                double c0 = -b * mu - s1 * r / m;
                double bAbs = (s1Abs * Math.abs(mu) + s2Abs) * Math.abs(r * r * r) / m;
                double c0Abs = bAbs * Math.abs(mu) + s1Abs * Math.abs(r) / m;
                for (int ci = gi * channelsPerGroup; ci < (gi + 1) * channelsPerGroup; ci++) {
                    double gammaC = gamma == null ? 1 : gamma[ci];
                    for (int h = 0; h < hxw; h++) {
                        int i = (ni * c + ci) * hxw + h;
                        gradInput.value()[i] = r * gammaC * dy[i] + b * x[i] + c0;
                        double magnitude = Math.abs(r * gammaC * dy[i]) + bAbs * Math.abs(x[i]) + c0Abs;
                        gradInput.bound()[i] = sumRoundings(m) * F32 * magnitude;
                    }
                }
            }
        }
        return new GroupNormGrads(gradInput, gradGamma, gradBeta);
    }

    /**
     * §5.5 for self [rows, classes] (a 1-D self is one row): out = 0 except out[i, t_i] = −w[t_i]·g
     * for rows whose target is not ignoreIndex, g = grad[i] for reduction none with 2-D self and the
     * single gradOutput otherwise, divided by totalWeight for mean.
     */
    public static Expected nllLossBackward(double[] grad, long[] target, double[] weight, int reduction,
            long ignoreIndex, double totalWeight, int rows, int classes, boolean twoDimensional) {
        Expected out = Expected.ofSize(rows * classes);
        for (int i = 0; i < rows; i++) {
            long t = target[i];
            if (t == ignoreIndex) {
                continue;
            }
            double g = reduction == NONE && twoDimensional ? grad[i] : grad[0];
            double v = -weight[(int) t] * g;
            if (reduction == MEAN) {
                v /= totalWeight;
            }
            out.value()[i * classes + (int) t] = v;
            out.bound()[i * classes + (int) t] = ELEMENTWISE_ROUNDINGS * F32 * Math.abs(v);
        }
        return out;
    }
}
