package io.github.aclnn4j.nn;

/** GroupNorm's output, and the mean and reciprocal standard deviation of each (sample, group), shape [n, group]. */
public record GroupNormResult(Tensor out, Tensor mean, Tensor rstd) {}
