package io.github.aclnn4j.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The phase-1 arguments of one operator call, by C parameter name, so that a test can replace
 * exactly one of them and see which check fires.
 */
public final class OpArgs {
    public final Operator operator;
    public final DeviceArena arena;
    private final Map<String, AclTensor> tensors = new LinkedHashMap<>();
    private final Map<String, Long> numbers = new LinkedHashMap<>();
    private AclBoolArray mask;

    OpArgs(Operator operator, DeviceArena arena) {
        this.operator = operator;
        this.arena = arena;
    }

    public OpArgs set(String name, AclTensor tensor) {
        requireSlot(name);
        tensors.put(name, tensor);
        return this;
    }

    public OpArgs set(String name, long value) {
        if (!operator.numberSlots.contains(name)) {
            throw new IllegalArgumentException(operator + " has no integer parameter " + name);
        }
        numbers.put(name, value);
        return this;
    }

    public OpArgs mask(AclBoolArray outputMask) {
        this.mask = outputMask;
        return this;
    }

    public OpArgs mask(boolean... values) {
        return mask(arena.boolArray(values));
    }

    /** Replaces tensor {@code name} by a new tensor made by {@code change} from its creation arguments. */
    public OpArgs remake(String name, java.util.function.UnaryOperator<DeviceArena.TensorSpec> change) {
        return set(name, arena.like(tensor(name), change));
    }

    /** Replaces tensor {@code name} by a fresh contiguous tensor of the same dtype and a new shape. */
    public OpArgs reshape(String name, long... shape) {
        return set(name, arena.tensor(arena.spec(tensor(name)).dtype(), shape));
    }

    /** Replaces tensor {@code name} by a fresh contiguous tensor of the same shape and a new dtype. */
    public OpArgs retype(String name, int dtype) {
        return set(name, arena.tensor(dtype, arena.spec(tensor(name)).shape()));
    }

    public AclTensor tensor(String name) {
        requireSlot(name);
        return tensors.get(name);
    }

    public long number(String name) {
        Long v = numbers.get(name);
        if (v == null) {
            throw new IllegalArgumentException(operator + ": integer parameter " + name + " not set");
        }
        return v;
    }

    public AclBoolArray mask() {
        return mask;
    }

    private void requireSlot(String name) {
        if (!operator.tensorSlots.contains(name)) {
            throw new IllegalArgumentException(operator + " has no tensor parameter " + name);
        }
    }

    /** Phase 1 through the exception guard. */
    public int plan(long[] workspaceSize, AclOpExecutor executor) {
        return Calls.status(operator.cName + "GetWorkspaceSize", () -> operator.plan(this, workspaceSize, executor));
    }

    /** Phase 2 through the exception guard. */
    public int launch(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return operator.launchGuarded(workspace, workspaceSize, executor, stream);
    }

    /** Phase 1 must succeed; returns the executor, and the workspace size in {@code workspaceSize[0]}. */
    public AclOpExecutor planned(long[] workspaceSize) {
        AclOpExecutor executor = new AclOpExecutor();
        int status = plan(workspaceSize, executor);
        assertEquals(0, status, () -> operator.cName + "GetWorkspaceSize failed: " + Acl.getRecentErrMsg());
        assertFalse(executor.isNull(), "phase 1 succeeded without filling the executor");
        assertTrue(workspaceSize[0] >= 0, "negative workspace size");
        return executor;
    }

    /** Phase 1 must fail with {@code expected} and a message naming the operator; returns the message. */
    public String rejected(int expected) {
        return Calls.fails(expected, operator.cName, operator.cName + "GetWorkspaceSize",
                () -> operator.plan(this, new long[1], new AclOpExecutor()));
    }

    /** Phase 1 must succeed. */
    public void accepted() {
        planned(new long[1]);
    }

    /** Both phases on {@code stream} (null: the default stream), then synchronize; all must succeed. */
    public void run(AclrtStream stream) {
        long[] size = new long[1];
        AclOpExecutor executor = planned(size);
        Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
        Calls.ok(operator.cName, () -> operator.launch(workspace, size[0], executor, stream));
        Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(stream));
    }

    public List<String> tensorNames() {
        return List.copyOf(tensors.keySet());
    }
}
