package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclError.ACL_ERROR_UNINITIALIZE;
import static io.github.aclnn4j.acl.AclSysParamOpt.ACL_OPT_DETERMINISTIC;
import static io.github.aclnn4j.acl.AclSysParamOpt.ACL_OPT_ENABLE_DEBUG_KERNEL;
import static io.github.aclnn4j.acl.AclSysParamOpt.ACL_OPT_ENABLE_KERNEL_EARLY_START;
import static io.github.aclnn4j.acl.AclSysParamOpt.ACL_OPT_STRONG_CONSISTENCY;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_RUNTIME_ERROR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclrtContext;
import io.github.aclnn4j.acl.AclrtMemAttr;
import io.github.aclnn4j.acl.AclrtMemMallocPolicy;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.checks.DeviceArena;
import io.github.aclnn4j.checks.OpArgs;
import io.github.aclnn4j.checks.Operator;
import io.github.aclnn4j.testing.TestDevice;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The runtime's queries and switches: aclrtGetSocName, aclrtGetMemInfo, aclrtGetCurrentContext,
 * aclrtSynchronizeDevice and the system parameter options of the process and of a context.
 */
class RuntimeQueriesTest {
    private static final int INVALID = ACL_ERROR_INVALID_PARAM;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    /** The SoC name follows -Daclnn4j.soc: a product's own name as given, else the profile's short name. */
    @ParameterizedTest
    @CsvSource({"'', Ascend910B", "Ascend910B3, Ascend910B3", "Ascend950PR_9599, Ascend950PR_9599",
            "ascend310p, Ascend310P", "ASCEND910_93, Ascend910_93", "ascend950dt, Ascend950DT", "NoSuchChip, Ascend910B"})
    void socNameIsTheChosenProduct(String chosen, String expected) {
        String before = System.getProperty("aclnn4j.soc");
        try {
            System.setProperty("aclnn4j.soc", chosen);
            assertEquals(expected, AclRt.getSocName());
        } finally {
            if (before == null) {
                System.clearProperty("aclnn4j.soc");
            } else {
                System.setProperty("aclnn4j.soc", before);
            }
        }
    }

    @Test
    void memInfoCountsWhatIsAllocated() {
        long[] free = new long[1];
        long[] total = new long[1];
        Calls.ok("aclrtGetMemInfo", () -> AclRt.getMemInfo(AclrtMemAttr.ACL_HBM_MEM, free, total));
        assertTrue(total[0] > 0 && free[0] <= total[0], free[0] + " free of " + total[0]);
        long freeBefore = free[0];
        Pointer p = new Pointer();
        long bytes = 3 << 20;
        Calls.ok("aclrtMalloc", () -> AclRt.malloc(p, bytes, AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST));
        try {
            for (int attr = AclrtMemAttr.ACL_DDR_MEM; attr <= AclrtMemAttr.ACL_MEM_P2P_HUGE1G; attr++) {
                long[] f = new long[1];
                long[] t = new long[1];
                int a = attr;
                Calls.ok("aclrtGetMemInfo(" + attr + ")", () -> AclRt.getMemInfo(a, f, t));
                assertEquals(total[0], t[0], "total of attribute " + attr);
                assertEquals(freeBefore - bytes, f[0], "free of attribute " + attr + " after a malloc (no other thread allocates)");
            }
        } finally {
            Calls.ok("aclrtFree", () -> AclRt.free(p));
        }
        Calls.ok("aclrtGetMemInfo", () -> AclRt.getMemInfo(AclrtMemAttr.ACL_DDR_MEM, free, total));
        assertEquals(freeBefore, free[0], "free after the free");
    }

    @Test
    void memInfoRefusesBadArguments() {
        long[] one = new long[1];
        Calls.fails(INVALID, "aclrtGetMemInfo", "not an aclrtMemAttr", "attr 18", () -> AclRt.getMemInfo(18, one, one));
        Calls.fails(INVALID, "aclrtGetMemInfo", "not an aclrtMemAttr", "attr -1", () -> AclRt.getMemInfo(-1, one, one));
        Calls.fails(INVALID, "aclrtGetMemInfo", "free", "null free", () -> AclRt.getMemInfo(0, null, one));
        Calls.fails(INVALID, "aclrtGetMemInfo", "total", "empty total", () -> AclRt.getMemInfo(0, one, new long[0]));
    }

    @Test
    void currentContextIsTheOneMadeCurrent() {
        AclrtContext made = new AclrtContext();
        Calls.ok("aclrtCreateContext", () -> AclRt.createContext(made, 0));
        try {
            AclrtContext current = new AclrtContext();
            Calls.ok("aclrtGetCurrentContext", () -> AclRt.getCurrentContext(current));
            assertEquals(made, current);
            Calls.fails(INVALID, "aclrtGetCurrentContext", "null holder", () -> AclRt.getCurrentContext(null));
        } finally {
            Calls.ok("aclrtDestroyContext", () -> AclRt.destroyContext(made));
        }
        AclrtContext fallback = new AclrtContext();
        Calls.ok("aclrtGetCurrentContext after the destroy", () -> AclRt.getCurrentContext(fallback));
        assertNotEquals(made, fallback, "a destroyed context is not current");
    }

    @Test
    void synchronizeDeviceWaitsForEveryStreamAndReportsItsFailure() {
        AclrtStream stream = new AclrtStream();
        Calls.ok("aclrtCreateStream", () -> AclRt.createStream(stream));
        try (DeviceArena arena = new DeviceArena()) {
            // a target out of range is found when the call runs: a failure of the stream's work
            OpArgs args = Operator.NLL_LOSS_BACKWARD.baseline(arena, io.github.aclnn4j.acl.AclDataType.ACL_FLOAT);
            args.set("target", arena.values(io.github.aclnn4j.acl.AclDataType.ACL_INT64, new double[] {99, 99, 99}, 3));
            long[] size = new long[1];
            AclOpExecutor executor = args.planned(size);
            Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
            Calls.ok("launch", () -> args.launch(workspace, size[0], executor, stream));
            Calls.fails(ACLNN_ERR_RUNTIME_ERROR, "aclnnNLLLossBackward", "aclrtSynchronizeDevice",
                    AclRt::synchronizeDevice);
            Calls.ok("aclrtSynchronizeDevice again", AclRt::synchronizeDevice);
        } finally {
            Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(stream));
        }
    }

    @Test
    void processOptionsAreKeptAndChecked() {
        long[] value = {-1};
        for (int opt : new int[] {ACL_OPT_DETERMINISTIC, ACL_OPT_ENABLE_DEBUG_KERNEL, ACL_OPT_STRONG_CONSISTENCY,
                ACL_OPT_ENABLE_KERNEL_EARLY_START}) {
            long set = 10 + opt;
            Calls.ok("aclrtSetSysParamOpt(" + opt + ")", () -> AclRt.setSysParamOpt(opt, set));
            Calls.ok("aclrtGetSysParamOpt(" + opt + ")", () -> AclRt.getSysParamOpt(opt, value));
            assertEquals(set, value[0], "option " + opt);
            Calls.ok("aclrtSetSysParamOpt(" + opt + ", 0)", () -> AclRt.setSysParamOpt(opt, 0));
        }
        Calls.fails(INVALID, "aclrtSetSysParamOpt", "opt 4", "option 4", () -> AclRt.setSysParamOpt(4, 1));
        Calls.fails(INVALID, "aclrtGetSysParamOpt", "opt -1", "option -1", () -> AclRt.getSysParamOpt(-1, value));
        Calls.fails(INVALID, "aclrtGetSysParamOpt", "value", "null value", () -> AclRt.getSysParamOpt(0, null));
    }

    /** A context takes options 0 to 2 (not the process-only early start), each context its own. */
    @Test
    void contextOptionsBelongToTheirContext() {
        long[] value = {-1};
        AclrtContext first = new AclrtContext();
        AclrtContext second = new AclrtContext();
        Calls.ok("aclrtCreateContext", () -> AclRt.createContext(first, 0));
        Calls.ok("aclrtCreateContext", () -> AclRt.createContext(second, 0));
        try {
            Calls.ok("aclrtSetCurrentContext", () -> AclRt.setCurrentContext(first));
            Calls.ok("aclrtCtxGetSysParamOpt", () -> AclRt.ctxGetSysParamOpt(ACL_OPT_DETERMINISTIC, value));
            assertEquals(0, value[0], "an option never set reads 0");
            Calls.ok("aclrtCtxSetSysParamOpt", () -> AclRt.ctxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
            Calls.ok("aclrtCtxGetSysParamOpt", () -> AclRt.ctxGetSysParamOpt(ACL_OPT_DETERMINISTIC, value));
            assertEquals(1, value[0]);
            Calls.ok("aclrtSetCurrentContext", () -> AclRt.setCurrentContext(second));
            Calls.ok("aclrtCtxGetSysParamOpt", () -> AclRt.ctxGetSysParamOpt(ACL_OPT_DETERMINISTIC, value));
            assertEquals(0, value[0], "another context's option");
            Calls.fails(INVALID, "aclrtCtxSetSysParamOpt", "opt 3", "early start on a context",
                    () -> AclRt.ctxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
        } finally {
            Calls.ok("aclrtDestroyContext", () -> AclRt.destroyContext(first));
            Calls.ok("aclrtDestroyContext", () -> AclRt.destroyContext(second));
            TestDevice.init();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memInfo", "context", "synchronize"})
    void beforeInitEachIsUninitialize(String which) {
        Calls.ok("aclFinalize", Acl::finalizeAcl);
        try {
            long[] one = new long[1];
            switch (which) {
                case "memInfo" -> Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtGetMemInfo", which,
                        () -> AclRt.getMemInfo(0, one, one));
                case "context" -> Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtGetCurrentContext", which,
                        () -> AclRt.getCurrentContext(new AclrtContext()));
                default -> Calls.fails(ACL_ERROR_UNINITIALIZE, "aclrtSynchronizeDevice", which,
                        AclRt::synchronizeDevice);
            }
        } finally {
            TestDevice.init();
        }
    }
}
