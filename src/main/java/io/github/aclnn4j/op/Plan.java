package io.github.aclnn4j.op;

import io.github.aclnn4j.runtime.MemoryBlock;
import io.github.aclnn4j.runtime.Stream;
import java.lang.foreign.MemorySegment;
import java.util.List;

/** The work an operator's phase 1 planned: checked, sized, and ready to run on a stream. */
public interface Plan extends Stream.Work {
    /** The C name of the operator, e.g. {@code aclnnPreluBackward}. */
    String operator();

    /** Scratch bytes {@link #run} uses from the workspace; 0 when none. */
    long workspaceSize();

    /** A tensor's memory the plan uses; it must still be live at launch. */
    record Use(MemoryBlock block, String tensor) {}

    /** Every tensor's memory the plan uses (a block may appear more than once). */
    List<Use> uses();

    /** Elements the run touches, roughly: small plans run inline on an idle stream. */
    long elements();

    /** Runs the work on the stream's thread; {@code workspace} holds at least {@link #workspaceSize()} bytes. */
    @Override
    void run(MemorySegment workspace);
}
