package io.github.aclnn4j.robust.fuzz;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.robust.fuzz.FuzzCalls.check;
import static io.github.aclnn4j.robust.fuzz.FuzzCalls.status;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclTensorList;
import io.github.aclnn4j.acl.AclrtEvent;
import io.github.aclnn4j.acl.AclrtEventRecordedStatus;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Fuzzed sequences of the runtime's stream-ordered copies and fills, events, tensor lists and half
 * conversions. The properties: nothing throws; every call returns success or a documented status
 * with a recent message; a copy or fill is accepted exactly when its arguments are valid (a model
 * of layer 1's checks), and after a synchronize every buffer holds what applying the accepted ones
 * in order gives; an event recorded and synchronized is complete; a list is made exactly when its
 * count fits and no element was destroyed, and owns its tensors.
 */
final class RuntimeApiFuzzer {
    private static final int INVALID = 100000;

    private RuntimeApiFuzzer() {}

    static void fuzz(FuzzedDataProvider d) {
        try (FuzzScene scene = new FuzzScene(d)) {
            Map<FuzzScene.Buffer, byte[]> model = new IdentityHashMap<>();
            List<FuzzScene.Buffer> buffers = new ArrayList<>();
            for (int n = d.consumeInt(1, 3); n > 0; n--) {
                int bytes = d.consumeInt(1, 4096);
                byte[] content = d.consumeBytes(bytes);
                FuzzScene.Buffer b = scene.device(bytes, content);
                model.put(b, Arrays.copyOf(content, bytes));
                buffers.add(b);
            }
            if (d.consumeBoolean()) {
                int bytes = d.consumeInt(1, 512);
                FuzzScene.Buffer h = scene.host(bytes, d.consumeBytes(bytes));
                model.put(h, h.host.clone());
                buffers.add(h);
            }
            if (d.consumeBoolean()) {
                buffers.add(scene.dangling(d.consumeInt(1, 256)));
            }
            AclrtStream stream = d.consumeBoolean() ? null : scene.stream();
            List<AclrtEvent> events = new ArrayList<>();
            for (int rounds = d.consumeInt(1, 12); rounds > 0; rounds--) {
                switch (d.consumeInt(0, 5)) {
                    case 0 -> copy(d, buffers, model, stream);
                    case 1 -> fill(d, buffers, model, stream);
                    case 2 -> event(d, events, stream, scene);
                    case 3 -> list(d, buffers);
                    case 4 -> half(d);
                    default -> compare(buffers, model, stream, "after a synchronize");
                }
            }
            compare(buffers, model, stream, "at the end");
            for (AclrtEvent e : events) {
                AclRt.destroyEvent(e);
            }
        }
    }

    private static void copy(FuzzedDataProvider d, List<FuzzScene.Buffer> buffers, Map<FuzzScene.Buffer, byte[]> model,
            AclrtStream stream) {
        FuzzScene.Buffer to = d.pickValue(buffers);
        FuzzScene.Buffer from = d.pickValue(buffers);
        long toAt = offset(d, to);
        long fromAt = offset(d, from);
        long count = count(d, Math.min(to.bytes - toAt, from.bytes - fromAt));
        long destMax = limit(d, count);
        int kind = d.consumeInt(0, 12) == 0 ? d.consumeInt(-2, 9) : d.consumeInt(0, 4);
        boolean valid = kind >= 0 && kind <= 4 && count <= destMax && fitsIn(to, toAt, count)
                && fitsIn(from, fromAt, count)
                && (kind == 4 || ((to.host == null) == (kind == 1 || kind == 3)
                        && (from.host == null) == (kind == 2 || kind == 3)));
        String what = "aclrtMemcpyAsync(" + describe(to, toAt) + ", " + destMax + ", " + describe(from, fromAt) + ", "
                + count + ", kind " + kind + ")";
        expect(valid, what, () -> AclRt.memcpyAsync(to.base.withByteOffset(toAt), destMax,
                from.base.withByteOffset(fromAt), count, kind, stream));
        if (valid) {
            System.arraycopy(model.get(from), (int) fromAt, model.get(to), (int) toAt, (int) count);
        }
    }

    private static void fill(FuzzedDataProvider d, List<FuzzScene.Buffer> buffers, Map<FuzzScene.Buffer, byte[]> model,
            AclrtStream stream) {
        FuzzScene.Buffer to = d.pickValue(buffers);
        long at = offset(d, to);
        long count = count(d, to.bytes - at);
        long maxCount = limit(d, count);
        int value = d.consumeInt();
        boolean valid = count <= maxCount && fitsIn(to, at, count);
        String what = "aclrtMemsetAsync(" + describe(to, at) + ", " + maxCount + ", " + value + ", " + count + ")";
        expect(valid, what, () -> AclRt.memsetAsync(to.base.withByteOffset(at), maxCount, value, count, stream));
        if (valid) {
            Arrays.fill(model.get(to), (int) at, (int) (at + count), (byte) value);
        }
    }

    private static void event(FuzzedDataProvider d, List<AclrtEvent> events, AclrtStream stream, FuzzScene scene) {
        if (events.isEmpty() || d.consumeInt(0, 4) == 0) {
            AclrtEvent e = new AclrtEvent();
            expect(true, "aclrtCreateEvent", () -> AclRt.createEvent(e));
            events.add(e);
            return;
        }
        AclrtEvent e = d.consumeInt(0, 9) == 0 ? new AclrtEvent() : d.pickValue(events); // an empty holder at times
        AclrtStream on = d.consumeBoolean() ? stream : scene.stream();
        int[] status = new int[1];
        float[] ms = new float[1];
        switch (d.consumeInt(0, 6)) {
            case 0 -> documented("aclrtRecordEvent", () -> AclRt.recordEvent(e, on));
            case 1 -> documented("aclrtStreamWaitEvent", () -> AclRt.streamWaitEvent(on, e));
            case 2 -> documented("aclrtQueryEventStatus", () -> AclRt.queryEventStatus(e, status));
            case 3 -> documented("aclrtEventElapsedTime", () -> AclRt.eventElapsedTime(ms, e, d.pickValue(events)));
            case 4 -> documented("aclrtDestroyEvent", () -> AclRt.destroyEvent(e));
            default -> {
                if (documented("aclrtRecordEvent", () -> AclRt.recordEvent(e, on)) == 0) {
                    expect(true, "aclrtSynchronizeEvent after a record", () -> AclRt.synchronizeEvent(e));
                    expect(true, "aclrtQueryEventStatus after a synchronize", () -> AclRt.queryEventStatus(e, status));
                    check(status[0] == AclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_COMPLETE,
                            "an event recorded and synchronized is not complete");
                }
            }
        }
    }

    private static void list(FuzzedDataProvider d, List<FuzzScene.Buffer> buffers) {
        int length = d.consumeInt(0, 5);
        AclTensor[] tensors = d.consumeInt(0, 9) == 0 ? null : new AclTensor[length];
        boolean destroyedInside = false;
        long size = d.consumeInt(0, 9) == 0 ? -1 : d.consumeInt(0, 6);
        for (int i = 0; tensors != null && i < length; i++) {
            if (d.consumeInt(0, 4) == 0) {
                continue; // a null element
            }
            FuzzScene.Buffer b = d.pickValue(buffers);
            long[] shape = {1};
            tensors[i] = Acl.createTensor(shape, 1, ACL_FLOAT, null, 0, ACL_FORMAT_ND, shape, 1, b.base);
            if (d.consumeInt(0, 5) == 0) {
                Acl.destroyTensor(tensors[i]);
                destroyedInside |= i < size;
            }
        }
        int available = tensors == null ? -1 : tensors.length;
        boolean valid = size == 0 || (size > 0 && available >= size && !destroyedInside);
        Acl.getRecentErrMsg();
        AclTensorList list = Acl.createTensorList(tensors, size);
        String message = Acl.getRecentErrMsg();
        String what = "aclCreateTensorList(" + (tensors == null ? "null" : tensors.length + " tensors") + ", " + size + ")";
        check((list != null) == valid, what + (list != null ? " made a list" : " made none: " + message));
        if (list == null) {
            check(message != null, what + " failed without a recent message");
            for (int i = 0; tensors != null && i < length; i++) {
                Acl.destroyTensor(tensors[i]);
            }
            return;
        }
        long[] got = new long[1];
        expect(true, what + " aclGetTensorListSize", () -> Acl.getTensorListSize(list, got));
        check(got[0] == size, what + ": aclGetTensorListSize gave " + got[0]);
        expect(true, what + " aclDestroyTensorList", () -> Acl.destroyTensorList(list));
        for (int i = 0; i < size; i++) {
            if (tensors[i] != null) {
                int s = Acl.destroyTensor(tensors[i]);
                Acl.getRecentErrMsg();
                check(s == 161002, what + ": element " + i + " was not destroyed with its list (" + s + ")");
            }
        }
        for (int i = (int) size; tensors != null && i < length; i++) {
            Acl.destroyTensor(tensors[i]);
        }
    }

    /** aclFloatToFloat16 is the JDK's rounding with CANN's saturation; the value read back is the JDK's. */
    private static void half(FuzzedDataProvider d) {
        float x = Float.intBitsToFloat(d.consumeInt());
        short jdk = Float.floatToFloat16(x);
        short expected = (jdk & 0x7C00) == 0x7C00 ? (short) ((Float.floatToRawIntBits(x) >>> 16 & 0x8000) | 0x7BFF) : jdk;
        short h = Acl.floatToFloat16(x);
        check(h == expected, "aclFloatToFloat16(" + x + ") = 0x" + Integer.toHexString(h & 0xFFFF));
        check(Float.floatToRawIntBits(Acl.float16ToFloat(h)) == Float.floatToRawIntBits(Float.float16ToFloat(h)),
                "aclFloat16ToFloat(0x" + Integer.toHexString(h & 0xFFFF) + ") of a finite half");
    }

    private static void compare(List<FuzzScene.Buffer> buffers, Map<FuzzScene.Buffer, byte[]> model, AclrtStream stream,
            String when) {
        expect(true, "aclrtSynchronizeStream", () -> AclRt.synchronizeStream(stream));
        for (FuzzScene.Buffer b : buffers) {
            if (b.freed) {
                continue;
            }
            byte[] now = new byte[(int) b.bytes];
            if (b.host != null) {
                now = b.host.clone();
            } else {
                byte[] out = now;
                expect(true, "aclrtMemcpy back", () -> AclRt.memcpy(Pointer.to(out), out.length, b.base, out.length, 2));
            }
            int at = Arrays.mismatch(model.get(b), now);
            check(at < 0, when + ": byte " + at + " of a " + b.bytes + "-byte " + (b.host == null ? "device" : "host")
                    + " buffer differs from the copies and fills accepted, in order");
        }
    }

    /** A count: all that is left of the room, some of it, a little more than it, or negative. */
    private static long count(FuzzedDataProvider d, long room) {
        return switch (d.consumeInt(0, 3)) {
            case 0 -> Math.max(0, room);
            case 1 -> d.consumeLong(0, Math.max(0, room));
            case 2 -> Math.max(0, room) + d.consumeInt(1, 8);
            default -> -d.consumeInt(1, 8);
        };
    }

    /** A destMax or maxCount: the count itself, one short of it (the edge of the check), or any. */
    private static long limit(FuzzedDataProvider d, long count) {
        return switch (d.consumeInt(0, 2)) {
            case 0 -> count;
            case 1 -> count - 1;
            default -> d.consumeInt(0, 4200);
        };
    }

    private static long offset(FuzzedDataProvider d, FuzzScene.Buffer b) {
        return switch (d.consumeInt(0, 7)) {
            case 0 -> b.bytes + d.consumeInt(0, 8); // past the end
            case 1 -> b.bytes - d.consumeInt(0, 8); // at the edge
            default -> d.consumeLong(0, b.bytes);
        };
    }

    /** Whether {@code count} bytes at {@code at} lie inside a live buffer {@code b}. */
    private static boolean fitsIn(FuzzScene.Buffer b, long at, long count) {
        return !b.freed && count >= 0 && at >= 0 && at <= b.bytes && count <= b.bytes - at;
    }

    private static String describe(FuzzScene.Buffer b, long at) {
        return (b.freed ? "freed " : b.host != null ? "host " : "device ") + b.bytes + "-byte buffer + " + at;
    }

    /** The call succeeds when {@code valid}, else fails with 100000 and a recent message. */
    private static void expect(boolean valid, String what, IntSupplier call) {
        int status = status(what, call);
        String message = Acl.getRecentErrMsg();
        check(status == (valid ? 0 : INVALID), what + " returned " + status + " (expected " + (valid ? 0 : INVALID)
                + "): " + message);
        check(valid || message != null, what + " failed without a recent message");
    }

    /** The call succeeds, or fails with 100000 and a recent message; returns its status. */
    private static int documented(String what, IntSupplier call) {
        int status = status(what, call);
        String message = Acl.getRecentErrMsg();
        check(status == 0 || status == INVALID, what + " returned " + status + ": " + message);
        check(status == 0 || message != null, what + " failed without a recent message");
        return status;
    }
}
