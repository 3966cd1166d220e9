package io.github.aclnn4j.nn;

import io.github.aclnn4j.acl.AclError;
import io.github.aclnn4j.acl.AclnnStatus;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * A failure of a layer-2 call: the status layer 1 returned for the same call
 * ({@code 161001} a missing input, {@code 161002} an invalid one, {@code 361001} a failure while
 * running, {@code 1000xx} a runtime error, ...) and, as the message, layer 1's
 * {@code aclGetRecentErrMsg} text.
 */
public class AclnnException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    /** A failure with layer 1's {@code status} and {@code message}. */
    public AclnnException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** The {@code aclnnStatus} or {@code aclError} of the failure. */
    public int status() {
        return status;
    }

    /**
     * The status's name as CANN's headers spell it ({@code ACLNN_ERR_PARAM_INVALID} for 161002), or
     * null for a code they do not name.
     */
    public String statusName() {
        return Names.BY_CODE.get(status);
    }

    /** The class, the status with its name ({@code ACLNN_ERR_PARAM_INVALID (161002)}) and the message. */
    @Override
    public String toString() {
        String name = statusName();
        return getClass().getName() + ": " + (name == null ? "" + status : name + " (" + status + ")") + ": "
                + getMessage();
    }

    /** The names of layer 1's status constants, by value. */
    private static final class Names {
        static final Map<Integer, String> BY_CODE = new HashMap<>();

        static {
            for (Class<?> codes : new Class<?>[] {AclError.class, AclnnStatus.class}) {
                for (Field f : codes.getFields()) {
                    if (f.getType() == int.class && Modifier.isStatic(f.getModifiers())) {
                        try {
                            BY_CODE.putIfAbsent(f.getInt(null), f.getName());
                        } catch (IllegalAccessException e) {
                            throw new AssertionError(e);
                        }
                    }
                }
            }
        }
    }
}
