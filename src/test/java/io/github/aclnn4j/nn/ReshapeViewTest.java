package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** {@link Tensor#view} reshapes contiguous tensors without a copy and refuses what would need one. */
class ReshapeViewTest extends SharedDevice {
    @Test
    void contiguousTensorsTakeAnyShapeOfTheirCount() {
        float[] v = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        Tensor t = keep(device.tensor(v, 2, 3, 2));
        long before = device.bytesInUse();
        Tensor rows = keep(t.view(2, -1));
        assertEquals(before, device.bytesInUse(), "no copy");
        assertArrayEquals(new long[] {2, 6}, rows.shape());
        assertArrayEquals(new long[] {6, 1}, rows.strides());
        assertArrayEquals(v, rows.toFloatArray());
        assertArrayEquals(new float[] {0, 1, 2, 3, 4, 5}, keep(keep(t.slice(0, 0, 1, 1)).view(6)).toFloatArray());
        Tensor row = keep(t.slice(0, 1, 2, 1)); // the second sample: offset 6, still contiguous
        assertArrayEquals(new float[] {6, 7, 8, 9, 10, 11}, keep(row.view(3, 2)).toFloatArray());
        assertArrayEquals(new long[0], keep(keep(device.tensor(new float[] {5}, 1, 1)).view()).shape());
    }

    @Test
    void viewsThatNeedACopyOrAnotherCountAreRefused() {
        Tensor t = keep(device.tensor(new float[6], 2, 3));
        assertThrows(IllegalStateException.class, () -> t.transpose(0, 1).view(6));
        assertThrows(IllegalStateException.class, () -> t.slice(1, 0, 3, 2).view(4));
        assertThrows(IllegalArgumentException.class, () -> t.view(4));
        assertThrows(IllegalArgumentException.class, () -> t.view(-1, 4));
        assertThrows(IllegalArgumentException.class, () -> t.view(-1, -1));
    }
}
