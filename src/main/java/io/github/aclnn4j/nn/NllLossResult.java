package io.github.aclnn4j.nn;

/** NLL loss and the sum of the weights of the targets it counted (a 0-d tensor). */
public record NllLossResult(Tensor out, Tensor totalWeight) {}
