package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import io.github.aclnn4j.tensor.HalfFloats;
import java.lang.foreign.MemorySegment;

/**
 * PReLU forward, element-wise: {@code out = x > 0 ? x : w·x} over three views of one logical
 * shape, the weights broadcast (stride 0 wherever they do not vary), block by block on the
 * library's threads. The product of two values of any of the three dtypes is exact in fp32, so each
 * element is one rounding: to out's dtype, or first to the promoted dtype where that is 16-bit and
 * out's is another (CANN computes in the promoted dtype, then casts). Four ways through a block,
 * with the same bits:
 * <ul>
 * <li>{@link DirectMath} loops, run by run, when self and out are dense in one dtype, the weight is
 *     constant along runs of at least {@link #MIN_DIRECT_RUN} elements and there is no
 *     intermediate rounding;
 * <li>rows of floats with one weight per run, when runs are at least {@link #MIN_SCALAR_RUN} long;
 * <li>a {@link DirectMath} loop (FLOAT) or rows of floats with the weights taken from a repeated row
 *     of weights, when the weights vary along a short innermost run and repeat it (per-channel
 *     weights over channels-last memory);
 * <li>rows of floats with the weights gathered beside self.
 * </ul>
 */
public final class PreluKernel implements Parallel.Tasks, Kernel {
    /** Runs shorter than this go through rows even when the direct loops could take them. */
    private static final long MIN_DIRECT_RUN = 64;
    /** Runs shorter than this have their weights gathered element by element. */
    private static final long MIN_SCALAR_RUN = 16;

    private final StridedView self;
    private final StridedView weight;
    private final StridedView out;
    private final long numel;
    /** Logical elements in a row over which the weight is one value (all of them for a single weight). */
    private final long run;
    /** The promoted dtype when out must first be rounded to it, else null. */
    private final DType rounding;
    private final boolean direct;
    /**
     * For weights that repeat a short row (per-channel weights over channels-last memory): that row
     * of {@link #period} values, repeated to cover a block from any phase, filled by each run (as
     * {@link PreluChannelsLastKernel}'s weights are); else null.
     */
    private final float[] pattern;
    private final int period;
    /** The FLOAT direct loop over {@link #pattern}. */
    private final boolean directPattern;

    /**
     * The kernel of one plan (or of one tile-ordered piece of it), made by phase 1.
     *
     * @param weight the weights as a view of self's logical shape, stride 0 where they repeat
     * @param promoted the dtype CANN computes in: FLOAT, or the 16-bit dtype self and weight share
     */
    public PreluKernel(StridedView self, StridedView weight, StridedView out, DType promoted) {
        this.self = self;
        this.weight = weight;
        this.out = out;
        this.numel = self.numel();
        this.run = constantRun(weight);
        this.rounding = promoted != DType.FLOAT && promoted != out.dtype() ? promoted : null;
        DType dt = out.dtype();
        boolean dense = DirectOperands.supported(Warmup.Family.PRELU, dt)
                && DirectOperands.dense(self, dt)
                && DirectOperands.dense(out, dt);
        direct = rounding == null && run >= MIN_DIRECT_RUN && dense;
        long row = weight.repeatedRunLength();
        if (run < MIN_SCALAR_RUN && row > 0 && row <= Blocks.SIZE) {
            period = (int) row;
            pattern = new float[period + Blocks.SIZE];
        } else {
            period = 0;
            pattern = null;
        }
        directPattern = pattern != null && rounding == null && dense && dt == DType.FLOAT;
    }

    /** The product of the innermost logical dimensions along which {@code w} has stride 0. */
    private static long constantRun(StridedView w) {
        long run = 1;
        for (int d = w.rank() - 1; d >= 0; d--) {
            if (w.size(d) > 1 && w.stride(d) != 0) {
                break;
            }
            run *= w.size(d);
        }
        return Math.max(run, 1);
    }

    /**
     * Runs the whole call on the library's threads, {@link #pattern} first read from the weights as
     * they are now: a repeatable executor's runs see new weights.
     */
    @Override
    public void run(MemorySegment workspace) {
        if (pattern != null) {
            for (int i = 0; i < period; i++) {
                pattern[i] = weight.get(i);
            }
            for (int filled = period; filled < pattern.length; filled *= 2) { // whole periods doubled
                System.arraycopy(pattern, 0, pattern, filled, Math.min(filled, pattern.length - filled));
            }
        }
        Parallel.forEach(Blocks.count(numel), Blocks.SIZE, this, workspace);
    }

    @Override
    public void task(long task, MemorySegment workspace) {
        long start = task * Blocks.SIZE;
        int len = (int) Math.min(Blocks.SIZE, numel - start);
        if (direct) {
            directBlock(start, len);
            return;
        }
        int phase = pattern == null ? 0 : (int) (start % period);
        int done = 0;
        if (directPattern) {
            done = len - len % DirectOperands.math().step();
            DirectOperands.math().preluForwardWeighted(DType.FLOAT, self.segment(), self.denseOffset(start), pattern,
                    phase, out.segment(), out.denseOffset(start), done);
            if (done == len) {
                return;
            }
        }
        rows(start + done, len - done, phase + done);
    }

    /** Elements [start, start + len) through rows; {@code phase}: where they start in {@link #pattern}. */
    private void rows(long start, int len, int phase) {
        Scratch s = Scratch.get();
        float[] x = s.a;
        self.gather(start, x, len);
        if (run >= MIN_SCALAR_RUN) {
            for (int i = 0; i < len; ) {
                long at = start + i;
                int end = (int) Math.min(len, (at / run + 1) * run - start);
                BulkMath.current().prelu(x, i, end, weight.get(at));
                i = end;
            }
        } else if (pattern != null) {
            BulkMath.current().preluWeighted(x, slice(phase, len, s.b), 0, len);
        } else {
            weight.gather(start, s.b, len);
            BulkMath.current().preluWeighted(x, s.b, 0, len);
        }
        if (rounding != null) {
            for (int i = 0; i < len; i++) {
                x[i] = HalfFloats.roundTo(rounding, x[i]);
            }
        }
        out.scatter(start, x, len);
    }

    /** {@link #pattern} from {@code phase}, as a row from index 0 ({@code into} when it must be copied). */
    private float[] slice(int phase, int len, float[] into) {
        if (phase == 0) {
            return pattern;
        }
        System.arraycopy(pattern, phase, into, 0, len);
        return into;
    }

    /** A block of dense runs through the direct loops; each run's last partial step through rows. */
    private void directBlock(long start, int len) {
        DType dt = out.dtype();
        int step = DirectOperands.math().step();
        long end = start + len;
        for (long at = start; at < end; ) {
            long runEnd = Math.min(end, (at / run + 1) * run);
            float w = weight.get(at);
            int n = (int) (runEnd - at);
            int done = n - n % step;
            if (done > 0) {
                DirectOperands.math().preluForward(dt, self.segment(), self.denseOffset(at), w, out.segment(),
                        out.denseOffset(at), done);
            }
            if (done < n) {
                float[] x = Scratch.get().a;
                self.gather(at + done, x, n - done);
                BulkMath.current().prelu(x, 0, n - done, w);
                out.scatter(at + done, x, n - done);
            }
            at = runEnd;
        }
    }
}
