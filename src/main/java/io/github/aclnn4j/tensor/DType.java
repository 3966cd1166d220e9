package io.github.aclnn4j.tensor;

/** The element types of {@code aclDataType} the library knows, with their C codes and sizes. */
public enum DType {
    FLOAT(0, 4),
    FLOAT16(1, 2),
    INT8(2, 1),
    INT32(3, 4),
    UINT8(4, 1),
    INT16(6, 2),
    UINT16(7, 2),
    UINT32(8, 4),
    INT64(9, 8),
    UINT64(10, 8),
    DOUBLE(11, 8),
    BOOL(12, 1),
    STRING(13, 1),
    COMPLEX64(16, 8),
    COMPLEX128(17, 16),
    BF16(27, 2);

    private static final DType[] BY_CODE = new DType[28];

    static {
        for (DType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    public final int code;
    public final int byteSize;

    DType(int code, int byteSize) {
        this.code = code;
        this.byteSize = byteSize;
    }

    /** The type with C code {@code code}, or null for an unknown code (including DT_UNDEFINED). */
    public static DType of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    public boolean isFloating() {
        return this == FLOAT || this == FLOAT16 || this == BF16 || this == DOUBLE;
    }

    public boolean isIntegral() {
        return switch (this) {
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> true;
            default -> false;
        };
    }

    /** The C spelling, for messages: {@code ACL_FLOAT16}. */
    public String cName() {
        return "ACL_" + name();
    }

    /** The C spelling of any code, known or not. */
    public static String nameOf(int code) {
        DType t = of(code);
        return t != null ? t.cName() : code == -1 ? "ACL_DT_UNDEFINED" : "unknown dtype " + code;
    }

    /**
     * Floating-point promotion of the operators: same + same is same, any mix involving FLOAT, or
     * FLOAT16 with BF16, is FLOAT; DOUBLE wins over all.
     */
    public static DType promote(DType a, DType b) {
        if (a == b) {
            return a;
        }
        if (a == DOUBLE || b == DOUBLE) {
            return DOUBLE;
        }
        return FLOAT;
    }

    /** Whether a value of this floating type may be cast to {@code to} (no float to integer or bool). */
    public boolean castsTo(DType to) {
        return !isFloating() || to.isFloating() || to == COMPLEX64 || to == COMPLEX128;
    }
}
