package io.github.aclnn4j.robust.fuzz;

import static io.github.aclnn4j.acl.AclDataType.ACL_BF16;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT16;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT32;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static io.github.aclnn4j.acl.AclDataType.ACL_UINT8;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operators as the fuzzer sees them: their parameters, a generator of arguments that
 * SPEC §5 says phase 1 must accept (shapes, broadcasting, dtypes, layouts and attributes all drawn
 * from the input), and their two phases.
 */
enum FuzzedOperator {
    BCE_BACKWARD("aclnnBinaryCrossEntropyBackward", List.of("out"), List.of("reduction")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            long[] shape = shape(d, 0, 4);
            Call c = new Call();
            c.input("gradOutput", floatType(d), broadcastable(d, shape), d);
            c.input("self", floatType(d), shape, d);
            c.input("target", floatType(d), broadcastable(d, shape), d);
            c.tensors.put("weightOptional", d.consumeBoolean() ? null
                    : new TensorRecipe(floatType(d), broadcastable(d, shape)).layout(d, true));
            c.output("out", floatType(d), shape, d);
            c.attributes.put("reduction", (long) d.consumeInt(0, 2));
            // CANN's code requires self, target and weight to carry one format tag
            c.tensors.get("target").format = c.tensors.get("self").format;
            if (c.tensors.get("weightOptional") != null) {
                c.tensors.get("weightOptional").format = c.tensors.get("self").format;
            }
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(a.t("gradOutput"), a.t("self"), a.t("target"),
                    a.t("weightOptional"), a.n("reduction"), a.t("out"), workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropyBackward(workspace, size, executor, stream);
        }
    },

    PRELU_BACKWARD("aclnnPreluBackward", List.of("gradInput", "gradWeight"), List.of()) {
        @Override
        Call valid(FuzzedDataProvider d) {
            int dtype = floatType(d);
            long[] shape = shape(d, 0, 4);
            long[] weightShape = shape.length >= 2 && d.consumeBoolean() ? new long[] {shape[1]}
                    : d.pickValue(new long[][] {{}, {1}, {1, 1}});
            Call c = new Call();
            c.input("gradOutput", dtype, broadcastable(d, shape), d);
            c.input("self", dtype, shape, d);
            c.input("weight", dtype, weightShape, d);
            c.output("gradInput", dtype, shape, d);
            c.output("gradWeight", dtype, weightShape, d);
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.preluBackwardGetWorkspaceSize(a.t("gradOutput"), a.t("self"), a.t("weight"),
                    a.t("gradInput"), a.t("gradWeight"), workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.preluBackward(workspace, size, executor, stream);
        }
    },

    BCE("aclnnBinaryCrossEntropy", List.of("out"), List.of("reduction")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            long[] shape = shape(d, 0, 4);
            long reduction = d.consumeInt(0, 2);
            boolean weighted = d.consumeBoolean();
            int dtype = floatType(d);
            Call c = new Call();
            c.input("self", dtype, shape, d);
            c.input("target", weighted ? dtype : floatType(d), shape, d);
            c.tensors.put("weight", weighted ? new TensorRecipe(dtype, broadcastable(d, shape)).layout(d, true) : null);
            c.output("out", weighted ? dtype : floatType(d), reduction == 0 ? shape : new long[] {1}, d);
            c.attributes.put("reduction", reduction);
            return c;
        }

        @Override
        int nullStatus() {
            return 561103; // ACLNN_ERR_INNER_NULLPTR, as CANN's code returns for a null self, target or out
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyGetWorkspaceSize(a.t("self"), a.t("target"), a.t("weight"),
                    a.n("reduction"), a.t("out"), workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropy(workspace, size, executor, stream);
        }
    },

    BCE_WITH_LOGITS_BACKWARD("aclnnBinaryCrossEntropyWithLogitsBackward", List.of("out"), List.of("reduction")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            long[] shape = shape(d, 0, 4);
            int targetType = floatType(d);
            Call c = new Call();
            c.input("gradOutput", floatType(d), broadcastable(d, shape), d);
            c.input("self", floatType(d), shape, d);
            c.input("target", targetType, shape, d);
            for (String optional : List.of("weightOptional", "posWeightOptional")) {
                c.tensors.put(optional, d.consumeBoolean() ? null
                        : new TensorRecipe(floatType(d), broadcastable(d, shape)).layout(d, true));
            }
            c.output("out", targetType, shape, d);
            c.attributes.put("reduction", (long) d.consumeInt(0, 2));
            // CANN's code requires self, target and out to carry one format tag
            c.tensors.get("target").format = c.tensors.get("self").format;
            c.tensors.get("out").format = c.tensors.get("self").format;
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(a.t("gradOutput"), a.t("self"),
                    a.t("target"), a.t("weightOptional"), a.t("posWeightOptional"), a.n("reduction"), a.t("out"),
                    workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropyWithLogitsBackward(workspace, size, executor, stream);
        }
    },

    PRELU("aclnnPrelu", List.of("out"), List.of()) {
        @Override
        Call valid(FuzzedDataProvider d) {
            long[] shape = shape(d, 0, 4);
            long[] weightShape = shape.length >= 2 && d.consumeBoolean() ? new long[] {shape[1]}
                    : d.pickValue(new long[][] {{}, {1}, {1, 1}});
            Call c = new Call();
            c.input("self", floatType(d), shape, d);
            c.input("weight", floatType(d), weightShape, d);
            c.output("out", floatType(d), shape, d);
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.preluGetWorkspaceSize(a.t("self"), a.t("weight"), a.t("out"), workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.prelu(workspace, size, executor, stream);
        }
    },

    BCE_WITH_LOGITS("aclnnBinaryCrossEntropyWithLogits", List.of("out"), List.of("reduction")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            long[] shape = shape(d, 0, 4);
            int targetType = floatType(d);
            long reduction = d.consumeInt(0, 2);
            Call c = new Call();
            c.input("self", floatType(d), shape, d);
            c.input("target", targetType, shape, d);
            for (String optional : List.of("weightOptional", "posWeightOptional")) {
                c.tensors.put(optional, d.consumeBoolean() ? null
                        : new TensorRecipe(floatType(d), broadcastable(d, shape)).layout(d, true));
            }
            c.output("out", targetType, reduction == 0 ? shape : d.pickValue(new long[][] {{}, {1}}), d);
            c.attributes.put("reduction", reduction);
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(a.t("self"), a.t("target"),
                    a.t("weightOptional"), a.t("posWeightOptional"), a.n("reduction"), a.t("out"), workspaceSize,
                    executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropyWithLogits(workspace, size, executor, stream);
        }
    },

    GROUP_NORM("aclnnGroupNorm", List.of("out", "meanOut", "rstdOut"), List.of("N", "C", "HxW", "group")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            int dtype = floatType(d);
            boolean big = d.consumeInt(0, 31) == 31;
            long group = d.consumeInt(1, 4);
            long channels = group * d.consumeInt(big ? 1 : 0, 4);
            long n = d.consumeInt(big ? 1 : 0, 4);
            long hxw = big ? d.consumeInt(2048, 8192) : d.consumeInt(0, 6);
            long[] shape = {n, channels, hxw};
            Call c = new Call();
            c.input("self", dtype, shape, d);
            for (String optional : List.of("gamma", "beta")) {
                c.tensors.put(optional, d.consumeBoolean() ? null
                        : new TensorRecipe(dtype, new long[] {channels}).layout(d, true));
            }
            c.output("out", dtype, shape, d);
            c.output("meanOut", dtype, new long[] {n, group}, d);
            c.output("rstdOut", dtype, new long[] {n, group}, d);
            // CANN's code: self and out under one tag, and not NHWC, HWCN or NDHWC
            c.tensors.get("self").format = 2;
            c.tensors.get("out").format = 2;
            c.attributes.put("N", n);
            c.attributes.put("C", channels);
            c.attributes.put("HxW", hxw);
            c.attributes.put("group", group);
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.groupNormGetWorkspaceSize(a.t("self"), a.t("gamma"), a.t("beta"), a.n("N"), a.n("C"),
                    a.n("HxW"), a.n("group"), 1e-5, a.t("out"), a.t("meanOut"), a.t("rstdOut"), workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.groupNorm(workspace, size, executor, stream);
        }
    },

    GROUP_NORM_BACKWARD("aclnnGroupNormBackward", List.of("gradInput", "gradGammaOut", "gradBetaOut"),
            List.of("N", "C", "HxW", "group")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            int dtype = floatType(d);
            boolean big = d.consumeInt(0, 31) == 31;
            long group = d.consumeInt(1, 4);
            long channels = group * d.consumeInt(big ? 1 : 0, 4);
            long n = d.consumeInt(big ? 1 : 0, 4);
            long hxw = big ? d.consumeInt(2048, 8192) : d.consumeInt(0, 6);
            Call c = new Call();
            c.mask = new boolean[] {d.consumeBoolean(), d.consumeBoolean(), d.consumeBoolean()};
            c.input("gradOut", dtype, dataShape(d, n, channels, hxw), d);
            c.input("input", dtype, dataShape(d, n, channels, hxw), d);
            long[] stats = d.consumeBoolean() ? new long[] {n, group} : new long[] {n * group};
            c.input("mean", dtype, stats, d);
            c.input("rstd", dtype, stats, d);
            c.tensors.put("gamma", d.consumeBoolean() ? null
                    : new TensorRecipe(dtype, new long[] {channels}).layout(d, true));
            long[][] outShapes = {c.tensors.get("input").dims, {channels}, {channels}};
            for (int k = 0; k < 3; k++) {
                String name = outputs.get(k);
                if (c.mask[k]) {
                    c.output(name, dtype, outShapes[k], d);
                } else { // neither checked nor touched: anything goes
                    c.tensors.put(name, d.consumeBoolean() ? null
                            : new TensorRecipe(d.pickValue(Palette.DTYPES), shape(d, 0, 3)).layout(d, false));
                }
            }
            c.attributes.put("N", n);
            c.attributes.put("C", channels);
            c.attributes.put("HxW", hxw);
            c.attributes.put("group", group);
            return c;
        }

        /** N·C·HxW elements as [N, C, HxW], [N, C·HxW], [N·C·HxW] or [N, C, 1, HxW]. */
        private static long[] dataShape(FuzzedDataProvider d, long n, long c, long hxw) {
            return switch (d.consumeInt(0, 3)) {
                case 0 -> new long[] {n, c, hxw};
                case 1 -> new long[] {n, c * hxw};
                case 2 -> new long[] {n * c * hxw};
                default -> new long[] {n, c, 1, hxw};
            };
        }

        @Override
        boolean outputRequested(Call c, String name) {
            return c.mask == null || c.mask[outputs.indexOf(name)];
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.groupNormBackwardGetWorkspaceSize(a.t("gradOut"), a.t("input"), a.t("mean"), a.t("rstd"),
                    a.t("gamma"), a.n("N"), a.n("C"), a.n("HxW"), a.n("group"), a.mask, a.t("gradInput"),
                    a.t("gradGammaOut"), a.t("gradBetaOut"), workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.groupNormBackward(workspace, size, executor, stream);
        }
    },

    NLL_LOSS("aclnnNLLLoss", List.of("out", "totalWeightOut"), List.of("reduction", "ignoreIndex")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            int dtype = floatType(d);
            boolean big = d.consumeInt(0, 31) == 31;
            boolean batched = big || d.consumeBoolean();
            long classes = big ? d.consumeInt(64, 1024) : d.consumeInt(1, 8); // C = 0 with targets is refused
            long rows = big ? d.consumeInt(64, 512) : batched ? d.consumeInt(0, 16) : 1;
            long reduction = d.consumeInt(0, 2);
            long ignoreIndex = d.pickValue(new long[] {-100, -1, 0, 1, 255, 1000});
            int targetType = d.pickValue(new int[] {ACL_INT64, ACL_INT32, ACL_UINT8});
            Call c = new Call();
            c.input("self", dtype, batched ? new long[] {rows, classes} : new long[] {classes}, d);
            c.tensors.put("target", new TensorRecipe(targetType, batched ? new long[] {rows} : new long[0])
                    .layout(d, true).indices(classes, ignoreIndex, d.consumeInt(0, 3) == 3));
            c.input("weight", dtype, new long[] {classes}, d);
            c.output("out", floatType(d), reduction == 0 && batched ? new long[] {rows}
                    : d.pickValue(new long[][] {{}, {1}}), d);
            c.output("totalWeightOut", floatType(d), d.pickValue(new long[][] {{}, {1}, {1, 1}}), d);
            c.attributes.put("reduction", reduction);
            c.attributes.put("ignoreIndex", ignoreIndex);
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.nllLossGetWorkspaceSize(a.t("self"), a.t("target"), a.t("weight"), a.n("reduction"),
                    a.n("ignoreIndex"), a.t("out"), a.t("totalWeightOut"), workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.nllLoss(workspace, size, executor, stream);
        }
    },

    NLL_LOSS_BACKWARD("aclnnNLLLossBackward", List.of("out"), List.of("reduction", "ignoreIndex")) {
        @Override
        Call valid(FuzzedDataProvider d) {
            int dtype = floatType(d);
            boolean big = d.consumeInt(0, 31) == 31;
            boolean batched = big || d.consumeBoolean();
            long classes = big ? d.consumeInt(64, 1024) : d.consumeInt(0, 8);
            long rows = big ? d.consumeInt(64, 512) : batched ? d.consumeInt(0, 16) : 1;
            long reduction = d.consumeInt(0, 2);
            long ignoreIndex = d.pickValue(new long[] {-100, -1, 0, 1, 255, 1000});
            int targetType = d.pickValue(new int[] {ACL_INT64, ACL_INT32, ACL_UINT8});
            long[] self = batched ? new long[] {rows, classes} : new long[] {classes};
            Call c = new Call();
            c.input("gradOutput", dtype, reduction == 0 && batched ? new long[] {rows}
                    : d.pickValue(new long[][] {{}, {1}}), d);
            c.input("self", dtype, self, d);
            c.tensors.put("target", new TensorRecipe(targetType, batched ? new long[] {rows} : new long[0])
                    .layout(d, true).indices(classes, ignoreIndex, d.consumeInt(0, 3) == 3));
            c.input("weight", dtype, new long[] {classes}, d);
            c.input("totalWeight", dtype, d.pickValue(new long[][] {{}, {1}}), d);
            c.output("out", floatType(d), self, d);
            c.attributes.put("reduction", reduction);
            c.attributes.put("ignoreIndex", ignoreIndex);
            return c;
        }

        @Override
        int phase1(Args a, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.nllLossBackwardGetWorkspaceSize(a.t("gradOutput"), a.t("self"), a.t("target"),
                    a.t("weight"), a.n("reduction"), a.n("ignoreIndex"), a.t("totalWeight"), a.t("out"),
                    workspaceSize, executor);
        }

        @Override
        int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.nllLossBackward(workspace, size, executor, stream);
        }
    };

    final String cName;
    final List<String> outputs;
    final List<String> attributeNames;

    FuzzedOperator(String cName, List<String> outputs, List<String> attributeNames) {
        this.cName = cName;
        this.outputs = outputs;
        this.attributeNames = attributeNames;
    }

    /** One call's arguments by parameter name, in C order; a null recipe is a null argument. */
    static final class Call {
        final Map<String, TensorRecipe> tensors = new LinkedHashMap<>();
        final Map<String, Long> attributes = new LinkedHashMap<>();
        /** GroupNormBackward's outputMask; null for the other operators. */
        boolean[] mask;

        void input(String name, int dtype, long[] shape, FuzzedDataProvider d) {
            tensors.put(name, new TensorRecipe(dtype, shape).layout(d, true));
        }

        void output(String name, int dtype, long[] shape, FuzzedDataProvider d) {
            tensors.put(name, new TensorRecipe(dtype, shape).layout(d, false));
        }
    }

    /** The created arguments of one call. */
    record Args(Map<String, AclTensor> tensors, Map<String, Long> attributes, AclBoolArray mask) {
        AclTensor t(String name) {
            return tensors.get(name);
        }

        long n(String name) {
            return attributes.get(name);
        }
    }

    abstract Call valid(FuzzedDataProvider d);

    abstract int phase1(Args args, long[] workspaceSize, AclOpExecutor executor);

    /** The status of a null required tensor. */
    int nullStatus() {
        return 161001;
    }

    abstract int phase2(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream);

    /** Whether the call computes (and so may write) output {@code name}. */
    boolean outputRequested(Call c, String name) {
        return true;
    }

    static int floatType(FuzzedDataProvider d) {
        return d.pickValue(new int[] {ACL_FLOAT, ACL_FLOAT16, ACL_BF16});
    }

    /**
     * A shape of rank minRank..maxRank with dimensions 1..6 and now and then a 0; one call in 32
     * is a large [rows, cols] shape past the threshold where the kernels go parallel. Rare choices
     * take the largest value of their draw, so that an exhausted input gives an ordinary call.
     */
    static long[] shape(FuzzedDataProvider d, int minRank, int maxRank) {
        if (maxRank >= 2 && d.consumeInt(0, 31) == 31) {
            return new long[] {d.consumeInt(64, 512), d.consumeInt(512, 1024)};
        }
        long[] shape = new long[d.consumeInt(minRank, maxRank)];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = d.consumeInt(1, 6);
        }
        if (shape.length > 0 && d.consumeInt(0, 9) == 9) {
            shape[d.consumeInt(0, shape.length - 1)] = 0;
        }
        return shape;
    }

    /** A shape that broadcasts to {@code to}: some of its trailing dimensions, each kept or set to 1. */
    static long[] broadcastable(FuzzedDataProvider d, long[] to) {
        int rank = d.consumeInt(0, to.length);
        long[] shape = new long[rank];
        for (int i = 0; i < rank; i++) {
            long dim = to[to.length - rank + i];
            shape[i] = d.consumeBoolean() ? dim : 1;
        }
        return shape;
    }
}
