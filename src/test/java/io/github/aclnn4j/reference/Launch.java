package io.github.aclnn4j.reference;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.util.function.Supplier;

/** Runs an operator's two phases the way a CANN program does, failing with the case's description. */
public final class Launch {
    /** Whether phase 2 gets its workspace in host memory over a Java array, as a program may pass it. */
    static volatile boolean hostWorkspaces;

    private Launch() {}

    @FunctionalInterface
    public interface Phase1 {
        int getWorkspaceSize(long[] workspaceSize, AclOpExecutor executor);
    }

    @FunctionalInterface
    public interface Phase2 {
        int run(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    /** Phase 1, phase 2 on a fresh stream (or the default one), synchronize; every status must be 0. */
    public static void run(Supplier<String> context, boolean defaultStream, Phase1 phase1, Phase2 phase2) {
        long[] workspaceSize = new long[1];
        AclOpExecutor executor = new AclOpExecutor();
        expectSuccess("phase 1", phase1.getWorkspaceSize(workspaceSize, executor), context);
        AclrtStream stream = null;
        if (!defaultStream) {
            stream = new AclrtStream();
            expectSuccess("aclrtCreateStream", AclRt.createStream(stream), context);
        }
        boolean device = workspaceSize[0] > 0 && !hostWorkspaces;
        Pointer workspace = device ? TestDevice.malloc(workspaceSize[0])
                : workspaceSize[0] > 0 ? Pointer.to(new byte[Math.toIntExact(workspaceSize[0])]) : new Pointer();
        try {
            expectSuccess("phase 2", phase2.run(workspace, workspaceSize[0], executor, stream), context);
            expectSuccess("aclrtSynchronizeStream", AclRt.synchronizeStream(stream), context);
        } finally {
            if (stream != null) {
                AclRt.destroyStream(stream);
            }
            if (device) {
                TestDevice.free(workspace);
            }
        }
    }

    private static void expectSuccess(String step, int status, Supplier<String> context) {
        if (status != 0) {
            throw new AssertionError(step + " returned " + status + " (" + Acl.getRecentErrMsg() + ")\n" + context.get());
        }
    }
}
