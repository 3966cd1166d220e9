package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;

/**
 * A kernel whose operands lie partly in the call's workspace, which phase 2 hands over: built by its
 * factory at the first launch over a workspace, and kept for the launches that hand over the same
 * one. An executor hands over the same segment for the same workspace ({@code op.Executor}), so a
 * repeatable executor's repeated launch builds nothing and allocates nothing; a launch over another
 * workspace builds the kernel again. Launches on several streams at once each run a kernel over
 * their own workspace: a binding is published whole, and one that another launch replaced
 * meanwhile is still a correct kernel for its own workspace.
 */
final class OverWorkspace {
    /** Builds the kernel over one workspace. */
    interface Factory {
        Kernel over(MemorySegment workspace);
    }

    private record Binding(MemorySegment workspace, Kernel kernel) {}

    private final Factory factory;
    private volatile Binding binding;

    OverWorkspace(Factory factory) {
        this.factory = factory;
    }

    /** The kernel over {@code workspace}: the one built for it at the last launch, or a new one. */
    Kernel over(MemorySegment workspace) {
        Binding b = binding;
        if (b == null || b.workspace != workspace) {
            b = new Binding(workspace, factory.over(workspace));
            binding = b;
        }
        return b.kernel;
    }
}
