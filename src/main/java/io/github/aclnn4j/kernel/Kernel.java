package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;

/**
 * A planned call's work, made by phase 1 and run by phase 2 on the stream: one per operator call
 * (or per tile of one, {@link #inOrder}). Kernels implement it themselves rather than being handed
 * over as method references: a JVM spins a class and method-handle forms for each such reference
 * at its first call, milliseconds apiece before a program's first result.
 */
public interface Kernel {
    /** Runs the call, with its {@code workspace} (null when it asked for none). */
    void run(MemorySegment workspace);

    /** {@code kernels} one after the other (the tiles of one call); the kernel itself when there is one. */
    static Kernel inOrder(Kernel[] kernels) {
        return kernels.length == 1 ? kernels[0] : new InOrder(kernels.clone());
    }

    /** The tiles of one call, run in order. */
    final class InOrder implements Kernel {
        private final Kernel[] kernels;

        private InOrder(Kernel[] kernels) {
            this.kernels = kernels;
        }

        @Override
        public void run(MemorySegment workspace) {
            for (Kernel k : kernels) {
                k.run(workspace);
            }
        }
    }
}
