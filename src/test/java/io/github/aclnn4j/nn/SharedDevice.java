package io.github.aclnn4j.nn;

import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** A device for a test class's tests, and the tensors each test keeps, closed after it. */
abstract class SharedDevice {
    static Device device;
    final List<Tensor> made = new ArrayList<>();

    @BeforeAll
    static void openDevice() {
        device = Device.open();
    }

    /** Closes the device; a failed aclrtSetDevice in a test must not leave this thread on another device. */
    @AfterAll
    static void closeDevice() {
        device.close();
        TestDevice.init();
    }

    @AfterEach
    void closeTensors() {
        made.forEach(Tensor::close);
        made.clear();
    }

    /** {@code t}, closed after the test. */
    <T extends Tensor> T keep(T t) {
        made.add(t);
        return t;
    }
}
