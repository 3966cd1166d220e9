/**
 * The tensor model: dtypes and their exact 16-bit conversions, shapes and numpy broadcasting, and
 * the descriptor behind an {@code aclTensor}. Knows memory blocks, not streams or operators.
 */
package io.github.aclnn4j.tensor;
