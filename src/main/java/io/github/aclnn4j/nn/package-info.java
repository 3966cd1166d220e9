/**
 * Layer 2, the Java-first API: tensors made from arrays, operators that return their results,
 * failures as exceptions, and everything that holds device memory {@link java.lang.AutoCloseable}.
 *
 * <p>It is layer 1 ({@code io.github.aclnn4j.acl}) driven for the caller: every operator call
 * makes its {@code aclTensor}s, runs both phases on the {@link io.github.aclnn4j.nn.Device}'s
 * stream and turns a failing status into an {@link io.github.aclnn4j.nn.AclnnException} with
 * layer 1's status and message. Operators run asynchronously; reading a result waits for them.
 *
 * <pre>{@code
 * try (Device device = Device.open()) {
 *     Tensor logits = device.tensor(new float[] {0.5f, -1f, 2f, 0f}, 2, 2);
 *     Tensor target = device.tensor(new float[] {1f, 0f, 1f, 0f}, 2, 2);
 *     float loss = Functional.binaryCrossEntropyWithLogits(logits, target, null, null, Reduction.MEAN).item();
 * }
 * }</pre>
 */
package io.github.aclnn4j.nn;
