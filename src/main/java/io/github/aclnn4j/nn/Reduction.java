package io.github.aclnn4j.nn;

/** How a loss reduces its elements: CANN's {@code reduction} attribute (0 none, 1 mean, 2 sum). */
public enum Reduction {
    /** Every element's loss, in the input's shape. */
    NONE,
    /** The mean of the losses, a 0-d tensor. */
    MEAN,
    /** The sum of the losses, a 0-d tensor. */
    SUM;

    /** The {@code int64_t reduction} value layer 1 takes. */
    public long code() {
        return ordinal();
    }
}
