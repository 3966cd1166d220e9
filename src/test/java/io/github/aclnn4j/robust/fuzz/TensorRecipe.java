package io.github.aclnn4j.robust.fuzz;

import static io.github.aclnn4j.acl.AclDataType.*;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Everything {@code aclCreateTensor} takes for one tensor argument, plus where its data lies and
 * what it holds. A recipe starts valid for its operator; {@link #mutate} then breaks it in one of
 * the ways a caller can, and {@link #realize} allocates, fills and creates it.
 */
final class TensorRecipe {
    /** Where the data pointer points. */
    enum Data {
        /** A live device buffer sized for the view. */
        OWN,
        /** {@code new Pointer()}: the C null pointer. */
        NULL_POINTER,
        /** A Java null where a Pointer is expected. */
        NO_POINTER,
        /** Device memory that was freed before the tensor was made. */
        DANGLING,
        /** A Java array: host memory. */
        HOST,
        /** A live device buffer of 4 bytes, whatever the view needs. */
        SHORT_BUFFER
    }

    /** The largest allocation a recipe makes; a view needing more gets a tiny buffer (and fails its bounds check). */
    private static final long MAX_BYTES = 16 << 20;

    long[] dims;
    long dimsNum;
    int dtype;
    long[] strides; // null: contiguous
    long offset;
    int format;
    long[] storage;
    long storageNum;
    Data data = Data.OWN;
    /** Bytes added to the data pointer (in front of the view, or misaligning it). */
    long byteShift;
    boolean destroyed;
    /** For an index tensor (NLL target): the class count, the ignored value, and whether some rows are out of range. */
    long classes = -1;
    long ignoreIndex;
    boolean badIndices;
    /** Set by {@link #mutate}: the recipe may no longer be valid. */
    boolean mutated;

    TensorRecipe(int dtype, long[] dims) {
        this.dtype = dtype;
        this.dims = dims.clone();
        this.dimsNum = dims.length;
        this.format = 2; // ND
        this.storage = dims.clone();
        this.storageNum = dims.length;
    }

    /** A valid layout for the recipe's shape: contiguous, padded, permuted, offset, and for inputs stride 0. */
    TensorRecipe layout(FuzzedDataProvider d, boolean input) {
        int rank = dims.length;
        switch (d.consumeInt(0, 4)) {
            case 0 -> strides = null;
            case 1 -> strides = contiguous(dims, 1);
            case 2 -> strides = contiguous(dims, elements() <= 1 << 16 ? d.consumeInt(2, 3) : 1); // gaps: small views
            case 3 -> strides = permuted(d);
            default -> {
                strides = contiguous(dims, 1);
                if (input && rank > 0) {
                    strides[d.consumeInt(0, rank - 1)] = 0;
                }
            }
        }
        offset = d.consumeInt(0, 3);
        byteShift = (long) d.consumeInt(0, 2) * elementSize(dtype);
        format = d.pickValue(Palette.PLAIN_FORMATS);
        return this;
    }

    private long elements() {
        long n = 1;
        for (long dim : dims) {
            n *= dim;
        }
        return n;
    }

    private static long[] contiguous(long[] dims, long innermost) {
        long[] s = new long[dims.length];
        long step = innermost;
        for (int i = dims.length - 1; i >= 0; i--) {
            s[i] = step;
            step *= Math.max(dims[i], 1);
        }
        return s;
    }

    /** Strides of the dimensions laid out in a random order (a transposed tensor). */
    private long[] permuted(FuzzedDataProvider d) {
        int rank = dims.length;
        int[] order = new int[rank];
        for (int i = 0; i < rank; i++) {
            order[i] = i;
        }
        for (int i = rank - 1; i > 0; i--) {
            int j = d.consumeInt(0, i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        long[] s = new long[rank];
        long step = 1;
        for (int k = rank - 1; k >= 0; k--) {
            s[order[k]] = step;
            step *= Math.max(dims[order[k]], 1);
        }
        return s;
    }

    TensorRecipe indices(long classes, long ignoreIndex, boolean badIndices) {
        this.classes = classes;
        this.ignoreIndex = ignoreIndex;
        this.badIndices = badIndices;
        return this;
    }

    /** Breaks the recipe in one of the ways a caller can. */
    void mutate(FuzzedDataProvider d) {
        mutated = true;
        int rank = dims == null ? 0 : dims.length;
        switch (d.consumeInt(0, 12)) {
            case 0 -> dtype = d.pickValue(Palette.DTYPES);
            case 1 -> format = d.pickValue(Palette.FORMATS);
            case 2 -> {
                if (rank > 0) {
                    dims = dims.clone();
                    dims[d.consumeInt(0, rank - 1)] = d.pickValue(Palette.DIMS);
                }
            }
            case 3 -> {
                int newRank = d.consumeInt(0, 10);
                long[] grown = Arrays.copyOf(dims == null ? new long[0] : dims, newRank);
                for (int i = rank; i < newRank; i++) {
                    grown[i] = d.consumeInt(0, 3);
                }
                dims = grown;
                dimsNum = newRank;
                strides = strides == null ? null : contiguous(grown, 1);
            }
            case 4 -> {
                strides = strides == null ? contiguous(dims == null ? new long[0] : dims, 1) : strides.clone();
                if (strides.length > 0) {
                    strides[d.consumeInt(0, strides.length - 1)] = d.pickValue(Palette.STRIDES);
                }
            }
            case 5 -> offset = d.pickValue(Palette.OFFSETS);
            case 6 -> data = d.pickValue(Data.values());
            case 7 -> byteShift = d.pickValue(Palette.BYTE_SHIFTS);
            case 8 -> dimsNum = d.pickValue(new long[] {-1, 0, rank - 1L, rank + 1L, Long.MIN_VALUE, Long.MAX_VALUE});
            case 9 -> {
                long length = storage == null ? 0 : storage.length;
                storageNum = d.pickValue(new long[] {-1, 0, length + 1, Long.MAX_VALUE});
                if (d.consumeBoolean()) {
                    storage = null;
                }
            }
            case 10 -> strides = strides == null || strides.length == 0 ? new long[0]
                    : Arrays.copyOf(strides, strides.length - 1);
            case 11 -> destroyed = true;
            default -> dims = null;
        }
    }

    /** A created tensor and the bytes of its buffer that an operator may write through it. */
    record Made(AclTensor tensor, FuzzScene.Region region) {}

    /**
     * Allocates and fills the data, creates the tensor (null when aclCreateTensor refuses the
     * arguments, which {@link TensorApiFuzzer} checks separately) and destroys it if the recipe says so.
     */
    Made realize(FuzzScene scene, SplittableRandom rng) {
        int es = elementSize(dtype);
        long[] view = effectiveDims();
        long[] viewStrides = view == null ? null : effectiveStrides(view);
        long[] span = view == null || viewStrides == null ? null : spanBytes(view, viewStrides, es);
        long need = span == null ? 64 : Math.min(span[1], MAX_BYTES + 1);
        long bytes = need > MAX_BYTES || need < 1 ? 64 : need + rng.nextInt(0, 9);
        FuzzScene.Buffer buffer = switch (data) {
            case OWN -> scene.device(bytes, content(bytes, es, rng));
            case DANGLING -> scene.dangling(bytes);
            case HOST -> scene.host((int) bytes, content(bytes, es, rng));
            case SHORT_BUFFER -> scene.device(4, content(4, es, rng));
            case NULL_POINTER, NO_POINTER -> null;
        };
        Pointer pointer = switch (data) {
            case NULL_POINTER -> new Pointer();
            case NO_POINTER -> null;
            default -> buffer.base.withByteOffset(byteShift);
        };
        AclTensor t = scene.keep(Acl.createTensor(dims, dimsNum, dtype, strides, offset, format, storage, storageNum,
                pointer));
        if (t != null && destroyed) {
            Acl.destroyTensor(t);
        }
        FuzzScene.Region region = null;
        if (buffer != null) {
            // an unknown layout may reach anywhere in its buffer: then the whole buffer is its region
            region = span == null ? new FuzzScene.Region(buffer, 0, buffer.bytes)
                    : new FuzzScene.Region(buffer, span[0], span[1]);
        }
        return new Made(t, region);
    }

    /** The view's dims as aclCreateTensor keeps them, or null when it refuses them. */
    private long[] effectiveDims() {
        if (dimsNum < 0 || (dimsNum > 0 && (dims == null || dimsNum > dims.length))) {
            return null;
        }
        return dimsNum == 0 ? new long[0] : Arrays.copyOf(dims, (int) dimsNum);
    }

    private long[] effectiveStrides(long[] view) {
        if (strides == null) {
            try {
                long[] s = new long[view.length];
                long step = 1;
                for (int i = view.length - 1; i >= 0; i--) {
                    s[i] = step;
                    step = Math.multiplyExact(step, Math.max(view[i], 1));
                }
                return s;
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return strides.length < view.length ? null : Arrays.copyOf(strides, view.length);
    }

    /** Bytes [start, end) the view covers from the buffer's start ([shift, shift) if empty); null if not computable. */
    private long[] spanBytes(long[] view, long[] viewStrides, int es) {
        if (es == 0 || offset < 0) {
            return null;
        }
        try {
            long last = offset;
            for (int i = 0; i < view.length; i++) {
                if (view[i] < 0 || viewStrides[i] < 0) {
                    return null;
                }
                if (view[i] == 0) {
                    return new long[] {Math.max(byteShift, 0), Math.max(byteShift, 0)};
                }
                last = Math.addExact(last, Math.multiplyExact(view[i] - 1, viewStrides[i]));
            }
            long start = Math.addExact(byteShift, Math.multiplyExact(offset, es));
            long end = Math.addExact(byteShift, Math.multiplyExact(Math.addExact(last, 1), es));
            return start < 0 ? null : new long[] {start, end};
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /** What the buffer holds: values of the dtype (class indices for an index tensor), else random bytes. */
    private byte[] content(long bytes, int es, SplittableRandom rng) {
        int n = (int) Math.min(bytes, MAX_BYTES);
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.nativeOrder());
        if (es == 0 || !(isFloat(dtype) || classes >= 0)) {
            rng.nextBytes(b.array());
            return b.array();
        }
        while (b.remaining() >= es) {
            if (classes >= 0) {
                putInteger(b, dtype, index(rng));
            } else {
                putFloat(b, dtype, Palette.value(rng));
            }
        }
        return b.array();
    }

    private long index(SplittableRandom rng) {
        int pick = rng.nextInt(16);
        if (pick == 0) {
            return ignoreIndex;
        }
        if (badIndices && pick == 1) {
            return new long[] {-1, classes, classes + 1, 255, -100, 1L << 40}[rng.nextInt(6)];
        }
        return classes > 0 ? rng.nextLong(classes) : 0;
    }

    private static void putFloat(ByteBuffer b, int dtype, double v) {
        switch (dtype) {
            case ACL_FLOAT -> b.putFloat((float) v);
            case ACL_FLOAT16 -> b.putShort(Float.floatToFloat16((float) v));
            default -> b.putShort((short) (Float.floatToRawIntBits((float) v) >>> 16)); // BF16, truncated
        }
    }

    private static void putInteger(ByteBuffer b, int dtype, long v) {
        switch (elementSize(dtype)) {
            case 1 -> b.put((byte) v);
            case 2 -> b.putShort((short) v);
            case 4 -> b.putInt((int) v);
            case 8 -> b.putLong(v);
            default -> b.put(new byte[elementSize(dtype)]);
        }
    }

    static boolean isFloat(int dtype) {
        return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
    }

    /** Bytes per element of a dtype code; 0 for codes without a size. */
    static int elementSize(int dtype) {
        return switch (dtype) {
            case ACL_FLOAT, ACL_INT32, ACL_UINT32 -> 4;
            case ACL_FLOAT16, ACL_BF16, ACL_INT16, ACL_UINT16 -> 2;
            case ACL_INT8, ACL_UINT8, ACL_BOOL -> 1;
            case ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_COMPLEX64 -> 8;
            case ACL_COMPLEX128 -> 16;
            default -> 0;
        };
    }
}
