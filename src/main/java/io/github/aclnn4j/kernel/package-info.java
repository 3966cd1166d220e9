/**
 * The kernels: one class per operator, over {@link io.github.aclnn4j.kernel.StridedView}s (typed,
 * strided, broadcast operands), blocked, parallel on the library's own threads
 * ({@link io.github.aclnn4j.kernel.Parallel}) and deterministic. Knows dtypes and memory segments,
 * not descriptors or checks.
 *
 * <h2>Design</h2>
 * <ul>
 * <li><b>Plan time decides the layout, run time only loops.</b> Phase 1 builds a kernel object per
 *     call with its views and chooses its path once (a kernel over copies in the workspace, which
 *     only phase 2 hands over, is built at the first launch over each workspace:
 *     {@code OverWorkspace}); phase 2 allocates nothing (PhaseTwoAllocationTest). Dense operands of one dtype take the
 *     {@link io.github.aclnn4j.kernel.DirectMath} loops straight over memory (on the Vector API:
 *     one class of loops per operator, {@code BceBackwardVectorLoops} and its siblings, sharing
 *     only {@code VectorLanes}' species and sum helpers); anything else is
 *     gathered block by block into float rows, computed by
 *     {@link io.github.aclnn4j.kernel.BulkMath} (Vector API when present, plain Java otherwise)
 *     and scattered back. Both compute the same operations per element.</li>
 * <li><b>Memory order, not logical order.</b> The plan changes what "logical order" means for
 *     all operands at once: {@link io.github.aclnn4j.kernel.Tiling} walks an element-wise call in
 *     the memory order of its first operand that is not broadcast (so operands that all lie
 *     transposed or channels-last are dense and take the direct loops), and cuts it into tiles of
 *     one block, each memory column a cache line (16 rows × 256 FLOAT, 32 × 128 16-bit), where
 *     layouts still disagree; {@code StridedView} moves an operand whose second-innermost
 *     dimension is the contiguous one through transposing panels, the rows transposed in 8×8
 *     register blocks ({@code BlockTranspose}) and each memory column then moved whole
 *     ({@link io.github.aclnn4j.kernel.BulkMath#storePanel});
 *     a FLOAT channels-last PReLU input bound for a contiguous output is computed and transposed in
 *     registers in one pass ({@link io.github.aclnn4j.kernel.PreluChannelsLastKernel}, its loads,
 *     math and butterfly generated together), a BFLOAT16 one likewise with two positions per 32-bit
 *     value, and a FLOAT16 one is copied
 *     there raw ({@link io.github.aclnn4j.kernel.TransposeCopyKernel}) and computed over in place,
 *     dense, which spares the conversions around the transposing stores (all cut into panels by
 *     {@code TransposePanels}); a BFLOAT16 channels-last PReLU backward into a contiguous gradInput
 *     reads its rows of channels in place, each channel's sum in the lanes the dense call would use
 *     and the gradient transposed two positions per 32-bit value
 *     ({@link io.github.aclnn4j.kernel.PreluBackwardChannelsLastKernel}); the other 16-bit transposed
 *     or channels-last inputs of BCE with logits and PReLU backward are copied raw into the
 *     workspace in row-major order ({@code RowMajorCopies}), where the direct loops read them; an
 *     element-wise 16-bit call whose inputs all lie in one such order (BCE backward, BCE with logits
 *     backward, BCE and BCE with logits without reduction) is instead computed in that order into the
 *     workspace and its results moved raw into out ({@code InMemoryOrder}: one copy instead of one
 *     per input), and so is a FLOAT one whose memory runs are longer than a tile's row, which no
 *     tile would keep dense;
 *     GroupNorm and its backward read NHWC memory a sample at a time as rows of C channels
 *     ({@code GroupNormChannelsLastKernel}, {@code GroupNormBackwardChannelsLastKernel}), with
 *     per-channel sums vectorised across channels: in place when the sample and its output are
 *     dense FLOAT ({@code GroupNormChannelsLastVectorLoops}), else through a copy of the sample.</li>
 * <li><b>One loop, one method, one profile.</b> Each way through a kernel is a small method of
 *     its own: a loop shared by calls of different shapes or paths gets a polluted profile and is
 *     deoptimized again and again (JitStabilityTest fails on that, from the JVM's own events).
 *     The reverse holds inside a Vector API loop: a helper that takes or returns vectors is
 *     written out in the loop, since one the JIT leaves uninlined boxes every vector. Variants of
 *     one loop are generated from it where they are many lines ({@code BceWithLogitsVectorLoops}'
 *     16-bit loops with weights per element, by {@code tools/kernels/generate_weighted_loops.py};
 *     {@code BlockTranspose}'s butterflies per element type and memory kind, and
 *     {@code PreluVectorLoops}' butterfly with PReLU on its rows, by
 *     {@code tools/kernels/generate_block_transposes.py}; {@code BceBackwardVectorLoops}' 16-bit
 *     loops per kind of gradOutput and weight, by
 *     {@code tools/kernels/generate_bce_backward_loops.py}; {@code BceWithLogitsBackwardVectorLoops}'
 *     per dtype and kind of gradOutput, by
 *     {@code tools/kernels/generate_bce_with_logits_backward_loops.py}).</li>
 * <li><b>Forward operators are element-wise plans like the backward ones.</b> A per-channel
 *     operand is a broadcast view (stride 0 where it repeats) of the call's logical shape, so
 *     {@code Tiling} and the rows treat it as any other operand; broadcast operands touch little
 *     memory and do not decide the tiling.</li>
 * <li><b>Plain Java until the Vector API's loops are compiled.</b> A Vector API loop runs 10–100
 *     times slower than plain Java until C2 has compiled it; a call, small or large, takes the
 *     plain-Java path (the same bits) while {@link io.github.aclnn4j.kernel.Warmup} runs the Vector
 *     API loops calls ask for on a daemon thread of its own, and the Vector API's loops once that
 *     is done.</li>
 * <li><b>Sums in a fixed order.</b> Reductions sum per block or row and combine in a fixed order,
 *     so results never depend on the thread count; a different layout may group the terms
 *     differently.</li>
 * <li><b>Small calls stay on the caller; workers stay awake between calls.</b> Up to
 *     {@code Executor.INLINE_ELEMENTS} (2^18) a call on an idle stream runs on the calling
 *     thread, and below {@link io.github.aclnn4j.kernel.Parallel#MIN_PARALLEL_ELEMENTS} on it
 *     alone: waking a parked thread costs tens of microseconds. For the same reason an idle
 *     compute worker spins for 50 µs before it parks, so that a program's next call finds it
 *     awake, as OpenMP's threads do for PyTorch.</li>
 * </ul>
 */
package io.github.aclnn4j.kernel;
