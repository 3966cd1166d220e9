package io.github.aclnn4j.tensor;

import io.github.aclnn4j.runtime.MemoryBlock;

/**
 * What an {@code aclTensor} describes: a view (shape, strides and offset in elements) of typed data
 * starting at a pointer into a memory block, plus the format and storage shape tags. Immutable but
 * for {@link #destroy()}; nothing here is validated beyond what is needed to hold it safely, since
 * CANN accepts any descriptor at creation and the operators check what they use.
 */
public final class TensorDesc {
    private final long[] shape;
    private final long[] strides;
    private final long offset;
    private final int dtypeCode;
    private final int format;
    private final long[] storageShape;
    private final MemoryBlock block;   // null for a null data pointer
    private final long blockByteOffset; // where the data pointer lies in the block
    private volatile boolean destroyed;

    public TensorDesc(long[] shape, long[] strides, long offset, int dtypeCode, int format, long[] storageShape,
            MemoryBlock block, long blockByteOffset) {
        this.shape = shape.clone();
        this.strides = strides.clone();
        this.offset = offset;
        this.dtypeCode = dtypeCode;
        this.format = format;
        this.storageShape = storageShape.clone();
        this.block = block;
        this.blockByteOffset = blockByteOffset;
    }

    public long[] shape() {
        return shape.clone();
    }

    public long dim(int i) {
        return shape[i];
    }

    public int rank() {
        return shape.length;
    }

    public long[] strides() {
        return strides.clone();
    }

    public long offset() {
        return offset;
    }

    public int dtypeCode() {
        return dtypeCode;
    }

    /** The dtype, or null when the code is not one the library knows. */
    public DType dtype() {
        return DType.of(dtypeCode);
    }

    public int format() {
        return format;
    }

    public long[] storageShape() {
        return storageShape.clone();
    }

    public MemoryBlock block() {
        return block;
    }

    public long blockByteOffset() {
        return blockByteOffset;
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    public void destroy() {
        destroyed = true;
    }

    /** Elements of the view; saturates at Long.MAX_VALUE, and is 0 for any zero dimension. */
    public long numel() {
        return Shapes.numel(shape);
    }

    /** Some view dimension is 0 (a 0-d tensor is not empty). */
    public boolean isEmpty() {
        for (long d : shape) {
            if (d == 0) {
                return true;
            }
        }
        return false;
    }
}
