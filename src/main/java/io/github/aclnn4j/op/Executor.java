package io.github.aclnn4j.op;

import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.MemoryBlock;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.runtime.Stream;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * An {@code aclOpExecutor}: one plan, launched once (then released) or, once made repeatable,
 * any number of times until destroyed.
 */
public final class Executor {
    /**
     * Calls up to this size run on the caller's thread when the stream is idle (the order is the
     * same): handing a call to a parked stream thread and being woken when it is done costs some
     * 45 µs on a virtual machine, the time of a 2^18-element call. Larger calls stay asynchronous,
     * so that a program can queue work on several streams at once.
     */
    private static final long INLINE_ELEMENTS = 1 << 18;

    private final Plan plan;
    private boolean repeatable;
    private boolean launched;
    private MemorySegment sliceOf;
    private long sliceOffset;
    private MemorySegment slice;
    private boolean released;
    private boolean destroyed;

    public Executor(Plan plan) {
        this.plan = plan;
    }

    public Plan plan() {
        return plan;
    }

    public synchronized void makeRepeatable() {
        if (destroyed) {
            throw Status.invalid("aclSetAclOpExecutorRepeatable: the executor of " + plan.operator()
                    + " was destroyed by aclDestroyAclOpExecutor");
        }
        if (released) {
            throw Status.invalid("aclSetAclOpExecutorRepeatable: the executor of " + plan.operator()
                    + " was already run and released");
        }
        if (launched) {
            throw Status.invalid("aclSetAclOpExecutorRepeatable: the executor of " + plan.operator()
                    + " has already run; call it right after phase 1");
        }
        repeatable = true;
    }

    public synchronized void destroy() {
        if (destroyed) {
            throw Status.invalid("aclDestroyAclOpExecutor: the executor of " + plan.operator()
                    + " was already destroyed");
        }
        destroyed = true;
        released = true;
    }

    /**
     * Phase 2: checks the executor, the workspace and the memory the plan uses, then enqueues the
     * plan on {@code stream}.
     *
     * @param operator the C name of the phase-2 function called
     * @param workspace the workspace block, or null for a null pointer
     */
    public void launch(String operator, MemoryBlock workspace, long workspaceOffset, long workspaceSize, Stream stream) {
        checkNotReleased(operator);
        if (!plan.operator().equals(operator)) {
            throw Status.invalid(operator + ": the executor was made by " + plan.operator() + "GetWorkspaceSize");
        }
        long needed = plan.workspaceSize();
        // workspaceSize is a C uint64_t: compared unsigned.
        if (workspace == null && workspaceSize != 0) {
            throw Status.nullptr(operator + ": workspace is null but workspaceSize is "
                    + Long.toUnsignedString(workspaceSize));
        }
        if (Long.compareUnsigned(workspaceSize, needed) < 0) {
            throw Status.invalid(operator + ": workspaceSize " + workspaceSize + " is smaller than the " + needed
                    + " bytes phase 1 asked for");
        }
        MemorySegment scratch = MemorySegment.NULL;
        if (needed > 0) {
            MemorySegment seg = liveSegment(operator, "workspace", workspace);
            if (workspaceOffset < 0 || workspaceOffset > seg.byteSize() || needed > seg.byteSize() - workspaceOffset) {
                throw Status.invalid(operator + ": the workspace of " + needed + " bytes at byte " + workspaceOffset
                        + " lies outside " + workspace.describe());
            }
            scratch = workspaceSlice(seg, workspaceOffset, needed);
        }
        List<Plan.Use> uses = plan.uses();
        for (int i = 0; i < uses.size(); i++) { // indexed: no iterator on the launch path
            Plan.Use use = uses.get(i);
            if (!use.block().isLive()) {
                throw Status.invalid(operator + ": the memory of " + namesUsing(use.block()) + " was freed after phase 1 ("
                        + use.block().describe() + ")");
            }
        }
        synchronized (this) { // released only once the stream has taken the work
            checkNotReleased(operator);
            try {
                stream.submit(plan, scratch, plan.elements() <= INLINE_ELEMENTS);
            } catch (Failure f) { // destroyed meanwhile
                throw Status.invalid(operator + ": the stream cannot take work: " + f.getMessage());
            }
            launched = true;
            if (!repeatable) {
                released = true;
            }
        }
    }

    /**
     * The workspace view for a launch, kept from the last launch when the workspace is the same: a
     * repeated launch then allocates nothing. (A block freed and allocated again has a new segment.)
     */
    private synchronized MemorySegment workspaceSlice(MemorySegment segment, long offset, long size) {
        if (segment != sliceOf || offset != sliceOffset) {
            slice = segment.asSlice(offset, size);
            sliceOf = segment;
            sliceOffset = offset;
        }
        return slice;
    }

    /** The tensors whose memory is {@code block}, for a message. */
    private String namesUsing(MemoryBlock block) {
        return plan.uses().stream().filter(u -> u.block() == block).map(Plan.Use::tensor).distinct().toList()
                .toString();
    }

    private synchronized void checkNotReleased(String operator) {
        if (destroyed) {
            throw Status.invalid(operator + ": the executor was destroyed by aclDestroyAclOpExecutor");
        }
        if (released) {
            throw Status.invalid(operator + ": the executor was already run (an executor is single-use unless "
                    + "aclSetAclOpExecutorRepeatable was called)");
        }
    }

    private static MemorySegment liveSegment(String operator, String name, MemoryBlock block) {
        try {
            return block.segment();
        } catch (Failure f) {
            throw Status.invalid(operator + ": " + name + ": " + f.getMessage());
        }
    }
}
