package io.github.aclnn4j.nn;

/** GroupNorm backward's gradients; one its outputMask leaves out is null. */
public record GroupNormGrads(Tensor gradInput, Tensor gradGamma, Tensor gradBeta) {}
