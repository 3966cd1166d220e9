package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NHWC;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC §5.2: the checks of aclnnPreluBackwardGetWorkspaceSize (self [2,3,4], weight [3]). */
class PreluBackwardChecksTest {
    private static final Operator OP = Operator.PRELU_BACKWARD;
    private static final long[] RANK8 = {2, 3, 1, 1, 1, 1, 1, 4};
    private static final long[] RANK9 = {2, 3, 1, 1, 1, 1, 1, 1, 4};

    static Stream<Change> changes() {
        return Stream.of(
                // (1) before everything else
                rejects("null self and FLOAT16 weight", NULLPTR, a -> a.set("self", null).retype("weight", ACL_FLOAT16))
                        .naming("self"),
                rejects("null gradWeight and weight [7]", NULLPTR, a -> a.set("gradWeight", null).reshape("weight", 7))
                        .naming("gradWeight"),
                // (2) dtypes: self in the list, the others exactly self's
                rejects("every tensor INT32", INVALID, a -> allRetyped(a, ACL_INT32)),
                rejects("every tensor DOUBLE", INVALID, a -> allRetyped(a, ACL_DOUBLE)),
                rejects("gradOutput FLOAT16, self FLOAT", INVALID,
                        a -> a.retype("gradOutput", ACL_FLOAT16)).naming("gradOutput"),
                rejects("weight FLOAT16, self FLOAT", INVALID, a -> a.retype("weight", ACL_FLOAT16)).naming("weight"),
                rejects("gradInput BF16, self FLOAT", INVALID,
                        a -> a.retype("gradInput", ACL_BF16)).naming("gradInput"),
                rejects("gradWeight FLOAT16, self FLOAT", INVALID,
                        a -> a.retype("gradWeight", ACL_FLOAT16)).naming("gradWeight"),
                rejects("self FLOAT16, the rest FLOAT", INVALID, a -> a.retype("self", ACL_FLOAT16)).naming("self"),
                // (3) rank and shapes
                rejects("self, gradOutput, gradInput rank 9", INVALID,
                        a -> a.reshape("self", RANK9).reshape("gradOutput", RANK9).reshape("gradInput", RANK9)),
                accepts("self, gradOutput, gradInput rank 8", 
                        a -> a.reshape("self", RANK8).reshape("gradOutput", RANK8).reshape("gradInput", RANK8)),
                rejects("weight and gradWeight rank 9 of one element", INVALID,
                        a -> a.reshape("weight", 1, 1, 1, 1, 1, 1, 1, 1, 1).reshape("gradWeight", 1, 1, 1, 1, 1, 1, 1,
                                1, 1)),
                accepts("weight and gradWeight rank 8 of one element",
                        a -> a.reshape("weight", 1, 1, 1, 1, 1, 1, 1, 1).reshape("gradWeight", 1, 1, 1, 1, 1, 1, 1, 1)),
                rejects("gradOutput rank 9, broadcastable", INVALID,
                        a -> a.reshape("gradOutput", 1, 1, 1, 1, 1, 1, 1, 1, 4)).naming("gradOutput"),
                rejects("gradInput [2,3,5]", INVALID, a -> a.reshape("gradInput", 2, 3, 5)).naming("gradInput"),
                rejects("gradInput [24]", INVALID, a -> a.reshape("gradInput", 24)).naming("gradInput"),
                accepts("gradOutput [3,4] broadcasts", a -> a.reshape("gradOutput", 3, 4)),
                accepts("gradOutput [2,1,4] broadcasts", a -> a.reshape("gradOutput", 2, 1, 4)),
                accepts("gradOutput 0-d broadcasts", a -> a.reshape("gradOutput")),
                rejects("gradOutput [2,3,5]", INVALID, a -> a.reshape("gradOutput", 2, 3, 5)).naming("gradOutput"),
                rejects("gradOutput [1,2,3,4] (self would have to broadcast)", INVALID,
                        a -> a.reshape("gradOutput", 1, 2, 3, 4)).naming("gradOutput"),
                // (4) weight against the channel count C = self.shape[1] = 3
                rejects("weight [4]", INVALID, a -> a.reshape("weight", 4).reshape("gradWeight", 4)),
                rejects("weight [2]", INVALID, a -> a.reshape("weight", 2).reshape("gradWeight", 2)),
                accepts("weight [3,1] has C elements", a -> a.reshape("weight", 3, 1)),
                rejects("gradWeight [1,3] for w = C", INVALID, a -> a.reshape("gradWeight", 1, 3)).naming("gradWeight"),
                rejects("gradWeight [4] for w = C", INVALID, a -> a.reshape("gradWeight", 4)).naming("gradWeight"),
                rejects("gradWeight 0-d for w = C", INVALID, a -> a.reshape("gradWeight")).naming("gradWeight"),
                accepts("weight [1], gradWeight [1]", a -> a.reshape("weight", 1).reshape("gradWeight", 1)),
                accepts("weight 0-d, gradWeight 0-d", a -> a.reshape("weight").reshape("gradWeight")),
                accepts("weight [1,1], gradWeight [1,1]", a -> a.reshape("weight", 1, 1).reshape("gradWeight", 1, 1)),
                rejects("weight [1], gradWeight [3]", INVALID, a -> a.reshape("weight", 1)).naming("weight"),
                rejects("weight [1], gradWeight 0-d", INVALID, a -> a.reshape("weight", 1).reshape("gradWeight")),
                rejects("weight 0-d, gradWeight [1]", INVALID, a -> a.reshape("weight").reshape("gradWeight", 1)),
                rejects("weight [1,1], gradWeight [1]", INVALID,
                        a -> a.reshape("weight", 1, 1).reshape("gradWeight", 1)),
                rejects("0-d self with weight [2]", INVALID, a -> a.reshape("self").reshape("gradOutput")
                        .reshape("gradInput").reshape("weight", 2).reshape("gradWeight", 2)),
                accepts("0-d self with weight [1]", a -> a.reshape("self").reshape("gradOutput")
                        .reshape("gradInput").reshape("weight", 1).reshape("gradWeight", 1)),
                rejects("1-d self [5] (C = 1) with weight [5]", INVALID, a -> a.reshape("self", 5)
                        .reshape("gradOutput", 5).reshape("gradInput", 5).reshape("weight", 5).reshape("gradWeight",
                        5)),
                accepts("1-d self [5] with weight [1]", a -> a.reshape("self", 5).reshape("gradOutput", 5)
                        .reshape("gradInput", 5).reshape("weight", 1).reshape("gradWeight", 1)),
                accepts("2-d self [5,3] with weight [3]", a -> a.reshape("self", 5, 3).reshape("gradOutput", 5, 3)
                        .reshape("gradInput", 5, 3)),
                // the channel is view dimension 1 whatever the format tag says
                rejects("NHWC self [2,4,5,3] with weight [3]", INVALID, a -> nhwc(a, 3)),
                accepts("NHWC self [2,4,5,3] with weight [4]", a -> nhwc(a, 4)),
                // empty inputs are fine
                accepts("empty self [0,3,4]", a -> a.reshape("self", 0, 3, 4).reshape("gradOutput", 0, 3, 4)
                        .reshape("gradInput", 0, 3, 4)));
    }

    private static void allRetyped(OpArgs a, int dtype) {
        for (String name : OP.tensorSlots) {
            a.retype(name, dtype);
        }
    }

    private static void nhwc(OpArgs a, long weightCount) {
        for (String name : new String[] {"self", "gradOutput", "gradInput"}) {
            a.reshape(name, 2, 4, 5, 3).remake(name, s -> s.withFormat(ACL_FORMAT_NHWC));
        }
        a.reshape("weight", weightCount).reshape("gradWeight", weightCount);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void phase1(Change change) {
        try (DeviceArena arena = new DeviceArena()) {
            change.check(OP.baseline(arena, ACL_FLOAT));
        }
    }

    @Test
    void emptyInputGivesZeroGradWeight() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT).reshape("self", 2, 3, 0).reshape("gradOutput", 2, 3, 0)
                    .reshape("gradInput", 2, 3, 0);
            args.run(null);
            assertArrayEquals(new float[3], DeviceArena.readFloats(arena.spec(args.tensor("gradWeight")).data(), 3),
                    "gradWeight of an empty input is the sum over nothing");
        }
    }
}
