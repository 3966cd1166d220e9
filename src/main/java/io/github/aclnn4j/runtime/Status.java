package io.github.aclnn4j.runtime;

/** The numeric codes of CANN, for the layers below the facade (which re-exports them by C name). */
public final class Status {
    private Status() {}

    public static final int SUCCESS = 0;

    public static final int ACL_INVALID_PARAM = 100000;
    public static final int ACL_UNINITIALIZE = 100001;
    public static final int ACL_REPEAT_INITIALIZE = 100002;
    public static final int ACL_BAD_ALLOC = 200000;
    public static final int ACL_INTERNAL_ERROR = 500000;

    public static final int PARAM_NULLPTR = 161001;
    public static final int PARAM_INVALID = 161002;
    public static final int RUNTIME_ERROR = 361001;
    public static final int INNER = 561000;
    public static final int INNER_NULLPTR = 561103;

    public static Failure nullptr(String message) {
        return new Failure(PARAM_NULLPTR, message);
    }

    public static Failure invalid(String message) {
        return new Failure(PARAM_INVALID, message);
    }

    public static Failure aclInvalid(String message) {
        return new Failure(ACL_INVALID_PARAM, message);
    }
}
