package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Statuses show with the names CANN's headers give them; the message stays layer 1's. */
class AclnnExceptionTest {
    @Test
    void statusesCarryTheirNames() {
        assertEquals("ACLNN_ERR_PARAM_INVALID", new AclnnException(161002, "m").statusName());
        assertEquals("ACL_ERROR_INVALID_PARAM", new AclnnException(100000, "m").statusName());
        assertEquals("io.github.aclnn4j.nn.AclnnException: ACLNN_ERR_PARAM_NULLPTR (161001): self is null",
                new AclnnException(161001, "self is null").toString());
        assertNull(new AclnnException(42, "m").statusName());
        assertEquals("io.github.aclnn4j.nn.AclnnException: 42: m", new AclnnException(42, "m").toString());
    }

    @Test
    void aFailingCallNamesItsStatus() {
        try (Device d = Device.open()) {
            Tensor self = d.tensor(new float[] {0.5f, 0.5f}, 2);
            AclnnException e = assertThrows(AclnnException.class,
                    () -> Functional.binaryCrossEntropy(self, d.tensor(new float[] {1, 0, 1}, 3), null, Reduction.MEAN));
            assertEquals(161002, e.status());
            assertEquals("ACLNN_ERR_PARAM_INVALID (161002): " + e.getMessage(),
                    e.toString().substring(AclnnException.class.getName().length() + 2));
        }
    }
}
