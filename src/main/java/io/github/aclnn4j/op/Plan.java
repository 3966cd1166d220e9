package io.github.aclnn4j.op;

import io.github.aclnn4j.runtime.MemoryBlock;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/** The work an operator's phase 1 planned: checked, sized, and ready to run on a stream. */
public interface Plan {
    /** The C name of the operator, e.g. {@code aclnnPreluBackward}. */
    String operator();

    /** Scratch bytes {@link #run} uses from the workspace; 0 when none. */
    long workspaceSize();

    /** The memory the plan uses, each with the tensor names pointing into it: it must still be live at launch. */
    Map<MemoryBlock, String> blocks();

    /** Elements the run touches, roughly: small plans run inline on an idle stream. */
    long elements();

    /** Runs the work on the stream's thread; {@code workspace} holds at least {@link #workspaceSize()} bytes. */
    void run(MemorySegment workspace);
}
