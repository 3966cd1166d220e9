package io.github.aclnn4j.acl;

import io.github.aclnn4j.runtime.Event;

/** The C handle {@code aclrtEvent}, filled by {@link AclRt#createEvent}. */
public final class AclrtEvent {
    volatile Event event;

    /** An empty holder, the C {@code aclrtEvent event = nullptr;}. */
    public AclrtEvent() {}

    /** Whether the holder has no event in it (the C null pointer). */
    public boolean isNull() {
        return event == null;
    }
}
