package io.github.aclnn4j.acl;

/** The C enum {@code aclrtEventRecordedStatus} of {@link AclRt#queryEventStatus}. */
public final class AclrtEventRecordedStatus {
    private AclrtEventRecordedStatus() {}

    /** Work queued before the event's last record has not all run. */
    public static final int ACL_EVENT_RECORDED_STATUS_NOT_READY = 0;
    /** The work before the event's last record has run (or the event was never recorded). */
    public static final int ACL_EVENT_RECORDED_STATUS_COMPLETE = 1;
}
