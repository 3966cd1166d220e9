package io.github.aclnn4j.checks;

import io.github.aclnn4j.acl.AclDataType;
import java.util.function.Consumer;

/**
 * One edit of an operator's valid argument set and the phase-1 status it must lead to (0: still
 * accepted); {@code parameter}, when set, must be named by the error message.
 */
public record Change(String name, int expected, String parameter, Consumer<OpArgs> edit) {
    public static final int NULLPTR = 161001;
    public static final int INVALID = 161002;

    public static Change rejects(String name, int expected, Consumer<OpArgs> edit) {
        return new Change(name, expected, null, edit);
    }

    public static Change accepts(String name, Consumer<OpArgs> edit) {
        return new Change(name, 0, null, edit);
    }

    /** The same change, whose message must also name {@code parameterName}. */
    public Change naming(String parameterName) {
        return new Change(name, expected, parameterName, edit);
    }

    /** Applies the change to {@code args} and checks phase 1's answer. */
    public void check(OpArgs args) {
        edit.accept(args);
        if (expected == 0) {
            args.accepted();
        } else {
            String message = args.rejected(expected);
            if (parameter != null) {
                Calls.assertNamesParameter(message, parameter);
            }
        }
    }

    /** Applies the change to {@code op}'s FLOAT baseline, in an arena of its own, and checks phase 1's answer. */
    public void checkOnBaseline(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            check(op.baseline(arena, AclDataType.ACL_FLOAT));
        }
    }

    @Override
    public String toString() {
        return name + (expected == 0 ? " -> accepted" : " -> " + expected);
    }
}
