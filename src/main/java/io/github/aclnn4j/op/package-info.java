/**
 * One class per operator: its phase-1 checks in the documented order and the plan they produce,
 * plus the {@link io.github.aclnn4j.op.Executor} that launches a plan on a stream. Turns tensor
 * descriptors into kernel views; never touches element data itself.
 */
package io.github.aclnn4j.op;
