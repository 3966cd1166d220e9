/**
 * The kernels, one class per operator, over {@link io.github.aclnn4j.kernel.StridedView}s: blocked,
 * parallel on the library's own threads ({@link io.github.aclnn4j.kernel.Parallel}), deterministic,
 * with the inner loops in {@link io.github.aclnn4j.kernel.BulkMath} (Vector API or plain Java).
 * Knows dtypes and memory segments, not descriptors or checks.
 */
package io.github.aclnn4j.kernel;
