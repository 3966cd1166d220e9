package io.github.aclnn4j.demo;

import io.github.aclnn4j.acl.Acl;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * {@code aclnn4j demo}: the calling examples of the five seed documents, then examples in their style
 * for the forward operators, then a training step chaining forward and backward operators, one after
 * another. Each is a whole C program (aclInit ... aclFinalize), so they run in turn in one JVM.
 */
public final class Demo {
    private Demo() {}

    private record Example(String operator, IntSupplier main) {}

    private static final List<Example> EXAMPLES = List.of(
            new Example("aclnnBinaryCrossEntropyBackward", BinaryCrossEntropyBackwardExample::run),
            new Example("aclnnPreluBackward", PreluBackwardExample::run),
            new Example("aclnnBinaryCrossEntropyWithLogits", BinaryCrossEntropyWithLogitsExample::run),
            new Example("aclnnGroupNormBackward", GroupNormBackwardExample::run),
            new Example("aclnnNLLLossBackward", NllLossBackwardExample::run),
            new Example("aclnnPrelu", PreluExample::run),
            new Example("aclnnBinaryCrossEntropy", BinaryCrossEntropyExample::run),
            new Example("aclnnBinaryCrossEntropyWithLogitsBackward", BinaryCrossEntropyWithLogitsBackwardExample::run),
            new Example("aclnnNLLLoss", NllLossExample::run),
            new Example("aclnnGroupNorm", GroupNormExample::run),
            // ASCII arrows: the header goes through stdout's encoding, which may not be UTF-8
            new Example("training step: GroupNorm -> PReLU -> BCE-with-logits / NLLLoss, and back",
                    TrainingStepExample::run));

    /** Runs every example; returns 0 when all returned 0, else 1. */
    public static int run() {
        int failures = 0;
        for (Example example : EXAMPLES) {
            System.out.println("== " + example.operator() + " ==");
            int ret = example.main().getAsInt();
            if (ret != 0) {
                System.out.println(example.operator() + " example returned " + ret);
                failures++;
                // A failed C example would end its process; releasing the runtime stands in for that,
                // so the next example's aclInit starts clean.
                Acl.finalizeAcl();
            }
        }
        return failures == 0 ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(run());
    }
}
