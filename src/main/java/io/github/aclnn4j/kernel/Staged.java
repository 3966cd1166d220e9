package io.github.aclnn4j.kernel;

/**
 * A call that moves its operands or its results through the workspace in another memory order, so
 * that the direct loops can take them: the 16-bit permuted inputs copied row-major
 * ({@link BceWithLogitsKernel.Copies}, {@link PreluBackwardKernel.Copies}), or the results computed
 * in the inputs' order ({@link InMemoryOrder}).
 */
public sealed interface Staged extends Kernel permits BceWithLogitsKernel.Copies, PreluBackwardKernel.Copies,
        InMemoryOrder {
    /** Bytes of workspace the call needs. */
    long workspaceBytes();
}
