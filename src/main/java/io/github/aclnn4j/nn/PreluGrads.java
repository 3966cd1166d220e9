package io.github.aclnn4j.nn;

/** PReLU backward's gradients: gradInput in self's shape, gradWeight in weight's. */
public record PreluGrads(Tensor gradInput, Tensor gradWeight) {}
