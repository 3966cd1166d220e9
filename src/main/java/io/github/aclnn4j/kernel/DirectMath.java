package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;

/**
 * Kernel loops that work straight on dense memory, with no copy into rows: for blocks whose
 * operands all lie densely in memory (or are one value repeated, see {@link DirectOperands}) in a
 * single {@linkplain #supports supported} dtype. Operands and outputs must lie in native memory
 * ({@link MemorySegment#isNative()}), a loop throws {@link ClassCastException} on a segment over a
 * Java array; {@link #groupSums}' workspace may be either. Each method covers {@code n} elements,
 * a multiple of {@link #step()}, from the byte offsets given (GroupNorm's, {@code n} of each of
 * several rows); the kernel does the remainder with rows. Per element they compute exactly what
 * the row loops compute (same operations, same order, or for {@link #bceWithLogitsUniform} a table
 * of the row loop's own results); sums may group lanes differently, so a sum can differ in its
 * last bits, and GroupNorm's 16-bit sums run partly in fp32 (see {@link #groupSums}).
 *
 * <p>Only the Vector API implementation exists: {@link #INSTANCE} is null without
 * {@code jdk.incubator.vector} or with {@code -Daclnn4j.vector=false}, and kernels then use rows,
 * as a call does while {@link Warmup} finds these loops cold ({@link DirectOperands#supported}).
 * Loaded on first use: a call that never needs it (a cold one) does not initialize the Vector API.
 */
public interface DirectMath extends HalfChunkMath {
    /** The implementation in use, or null. */
    DirectMath INSTANCE = Loader.load();

    /**
     * Elements per loop step of every implementation, on every processor: which elements a kernel
     * leaves to rows, and so how its sums group, does not depend on either (see {@link SumOrder}).
     */
    int STEP = 32;

    /** Elements per loop step ({@link #STEP}); every {@code n} is a multiple of it. */
    int step();

    /**
     * Whether the loops take {@code dtype}: FLOAT, BFLOAT16 and FLOAT16, except
     * {@link #bceWithLogitsBackward}, {@link #preluForwardWeighted}, {@link #readAndSum},
     * {@link #affineStore}, {@link #affine} and the channel loops (FLOAT only), and
     * {@link #bceWithLogitsUniform}, {@link #bceBackwardDenseGrad}, {@link #bceWithLogitsBackwardUniform},
     * {@link #bceWithLogitsBackwardDenseGrad} and {@link #groupNormUpdate} (the 16-bit types).
     */
    boolean supports(DType dtype);

    /**
     * {@code out = g·(x − y) / max((1 − x)·x, 1e-12) · w · scale}, as {@link BceBackwardKernel}: for
     * FLOAT gradOutput {@code g} and weight {@code w} as {@link DirectOperands} lays them out, for
     * BFLOAT16 and FLOAT16 both dense of {@code dtype}.
     */
    void bceBackward(DType dtype, MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment w, long wAt, float scale, MemorySegment out, long outAt, int n);

    /**
     * As {@link #bceBackward} for BFLOAT16 and FLOAT16, with gradOutput {@code g} dense of
     * {@code dtype} and weight {@code w} one value (1 where absent): reduction none's usual call.
     */
    void bceBackwardDenseGrad(DType dtype, MemorySegment g, long gAt, MemorySegment x, long xAt, MemorySegment y,
            long yAt, float w, float scale, MemorySegment out, long outAt, int n);

    /** As {@link #bceBackward} with gradOutput {@code g} and weight {@code w} single values. */
    void bceBackwardUniform(DType dtype, float g, MemorySegment x, long xAt, MemorySegment y, long yAt, float w,
            float scale, MemorySegment out, long outAt, int n);

    /**
     * BCE-with-logits losses, as {@link BulkMath#bceWithLogits}: written to {@code out} (null for a
     * reduction, which wants only the sum) and their sum returned, in {@link SumOrder#chunkedSum}'s
     * order as the rows add it. {@code x}, {@code y} and {@code out} hold {@code dtype}; weight
     * {@code w} and posWeight {@code pw} are FLOAT runs as {@link DirectOperands} lays them out
     * (FLOAT: dense, a row or a value repeated, or ones; the 16-bit types: a row of {@code dtype}'s
     * values repeated, see {@link #bceWithLogitsUniform} for single values).
     */
    double bceWithLogits(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, MemorySegment w, long wAt,
            MemorySegment pw, long pwAt, MemorySegment out, long outAt, int n);

    /**
     * As {@link #bceWithLogits} for BFLOAT16 and FLOAT16, with weight {@code w} and posWeight
     * {@code pw} single values of {@code dtype} (1 where absent); {@code x}, {@code y} and
     * {@code out} hold {@code dtype}.
     */
    double bceWithLogitsUniform(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, float w, float pw,
            MemorySegment out, long outAt, int n);

    /**
     * FLOAT BCE-with-logits gradients, as {@link BulkMath#bceWithLogitsBackward}, with the same
     * operations and so the same bits; gradOutput {@code g}, weight {@code w} and posWeight
     * {@code pw} as {@link DirectOperands} lays them out (dense, a repeated value, or ones).
     */
    void bceWithLogitsBackward(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, MemorySegment g,
            long gAt, MemorySegment w, long wAt, MemorySegment pw, long pwAt, float scale, MemorySegment out,
            long outAt, int n);

    /**
     * As {@link #bceWithLogitsBackward} for BFLOAT16 or FLOAT16 {@code x}, {@code y} and {@code out}, with
     * gradOutput {@code g}, weight {@code w} and posWeight {@code pw} single values (1 where absent).
     */
    void bceWithLogitsBackwardUniform(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt, float g,
            float w, float pw, float scale, MemorySegment out, long outAt, int n);

    /** As {@link #bceWithLogitsBackwardUniform}, gradOutput {@code g} dense of {@code dtype}. */
    void bceWithLogitsBackwardDenseGrad(DType dtype, MemorySegment x, long xAt, MemorySegment y, long yAt,
            MemorySegment g, long gAt, float w, float pw, float scale, MemorySegment out, long outAt, int n);

    /**
     * PReLU backward, FLOAT or BFLOAT16 (widened as a gathered row is), over {@code rows} whole rows
     * of {@code channels} (channels-last memory, dense {@code x} and {@code g}): the gradient in fp32
     * into {@code out[outAt, …)} and {@code acc[c] += min(x, 0)·g} per channel in row order, as
     * {@link BulkMath#preluChannelRows} computes them from copies, so the same bits.
     */
    void preluChannelRows(DType dtype, MemorySegment x, long xAt, MemorySegment g, long gAt, int rows, int channels,
            float[] w, double[] acc, float[] out, int outAt);

    /**
     * BFLOAT16 PReLU backward over {@code positions} rows of {@code channels} (channels-last memory,
     * dense {@code x} and {@code g}) into channels-first memory: channel c's gradient stored as the
     * run of positions at {@code giAt + c·giColStride}, and {@code sums[c]} the sum of x·g over channel
     * c's non-positive x, each with the bits {@link #prelu} gives for that channel's run of positions
     * lying dense.
     * {@code positions} is a multiple of {@link #STEP}.
     */
    void preluBackwardChannelsLast(MemorySegment x, long xAt, MemorySegment g, long gAt, int positions, int channels,
            float[] w, MemorySegment gi, long giAt, long giColStride, double[] sums);

    /**
     * PReLU forward with weight {@code w}: {@code out = x > 0 ? x : w·x}, as {@link BulkMath#prelu};
     * {@code x} and {@code out} hold {@code dtype}. The product is exact in fp32 for every dtype, so
     * all ways give the same bits.
     */
    void preluForward(DType dtype, MemorySegment x, long xAt, float w, MemorySegment out, long outAt, int n);

    /**
     * FLOAT PReLU forward over a {@code rows × cols} panel of channels-last memory into
     * channels-first memory: {@code x} holds rows {@code xRowStride} bytes apart, value j of a row
     * being channel j with weight {@code w[wAt + j]}, and channel j's results land as the run of
     * {@code rows} values at {@code outAt + j·outColStride}; every element of the panel, computed as
     * {@link #preluForward} computes it, so the same bits. Transposed in registers between the load
     * and the store, so the bytes of a dense call move once.
     */
    void preluTransposed(DType dtype, MemorySegment x, long xAt, long xRowStride, int rows, int cols, float[] w,
            int wAt, MemorySegment out, long outAt, long outColStride);

    /**
     * FLOAT PReLU forward with a weight per element, {@code out[i] = x[i] > 0 ? x[i] : w[wAt + i]·x[i]},
     * as {@link BulkMath#preluWeighted} (channels-last memory, its weights a repeated row).
     */
    void preluForwardWeighted(DType dtype, MemorySegment x, long xAt, float[] w, int wAt, MemorySegment out,
            long outAt, int n);

    /**
     * GroupNorm forward's first pass, FLOAT: copies {@code n} floats from {@code x} into {@code dst}
     * and returns their sum in double, with {@link BulkMath#groupSum}'s operations in its order.
     */
    double readAndSum(DType dtype, MemorySegment x, long xAt, float[] dst, int n);

    /**
     * GroupNorm forward's update, FLOAT: {@code out = (float) fma(s, k, bias)} in double for the
     * {@code n} values of {@code src} from {@code from}, {@link BulkMath#scaleShift}'s operation.
     */
    void affineStore(DType dtype, float[] src, int from, int n, double k, double bias, MemorySegment out, long outAt);

    /**
     * {@link #affineStore} over rows laid end to end whose {@code k} and {@code bias} differ by row,
     * FLOAT: element i's are {@code k = rstd·γ} and {@code bias = β − mean·k}, γ and β the doubles at
     * bytes {@code gammaAt + 8i} and {@code betaAt + 8i} of {@code coefficients} (its row's, repeated
     * along the row), the coefficients a caller of affineStore forms per row, so the same bits.
     */
    void affineStoreScaled(DType dtype, float[] src, int from, int n, MemorySegment coefficients, long gammaAt,
            long betaAt, double rstd, double mean, MemorySegment out, long outAt);

    /** {@code out = (float) (ca·a + cb·b + bias)}, in double, as {@link BulkMath#affine}; {@code n} any count. */
    void affine(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, double ca, double cb, double bias,
            MemorySegment out, long outAt, int n);

    /**
     * {@link #affine} over rows laid end to end whose {@code ca} differs by row, FLOAT: element i's is
     * {@code rs·γ}, with {@code γ} the double at byte {@code gammaAt + 8i} of {@code gamma} (its
     * row's γ, repeated along the row), the product a caller of {@link #affine} forms per row, so
     * the same bits; {@code n} any count. One loop for a whole group of short rows.
     */
    void affineScaled(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, MemorySegment gamma,
            long gammaAt, double rs, double cb, double bias, MemorySegment out, long outAt, int n);

    /**
     * GroupNorm's channels-last sums, FLOAT, over dense {@code [positions, channels]} memory:
     * {@code sum[c] += x[p, c]} in position order, as {@link BulkMath#addChannelRows} without dots.
     */
    void channelSums(DType dtype, MemorySegment x, long xAt, int positions, int channels, double[] sum);

    /**
     * As {@link #channelSums}, {@code acc[c] = fma(d, d, acc[c])} with {@code d = x[p, c] − shift[c]},
     * as {@link BulkMath#addChannelSquaredDeviations}.
     */
    void channelSquaredDeviations(DType dtype, MemorySegment x, long xAt, int positions, int channels,
            double[] shift, double[] acc);

    /** As {@link #channelSums}, with {@code dot[c] = fma(a, b, dot[c])}, as {@link BulkMath#addChannelRows}. */
    void channelSumsAndDots(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, int positions,
            int channels, double[] sum, double[] dot);

    /** {@code out[p, c] = (float) fma(k[c], x[p, c], bias[c])}, as {@link BulkMath#affineChannelRows}, FLOAT. */
    void channelAffine(DType dtype, MemorySegment x, long xAt, int positions, int channels, double[] k,
            double[] bias, MemorySegment out, long outAt);

    /**
     * {@code out[p, c] = (float) (ca[c]·a[p, c] + cb[c]·b[p, c] + bias[c])}, as
     * {@link BulkMath#affineChannelPairs}, FLOAT.
     */
    void channelAffinePairs(DType dtype, MemorySegment a, long aAt, MemorySegment b, long bAt, int positions,
            int channels, double[] ca, double[] cb, double[] bias, MemorySegment out, long outAt);

    /** Picks the implementation, under the same rules as {@link BulkMath.Loader}. */
    final class Loader {
        private Loader() {}

        static DirectMath load() {
            if (!(BulkMath.fastest().getClass().getSimpleName().equals("VectorBulkMath"))) {
                return null;
            }
            try {
                return (DirectMath) Class.forName("io.github.aclnn4j.kernel.VectorDirectMath")
                        .getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                return null;
            }
        }
    }
}
