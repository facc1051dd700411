package org.offlinemesh;

/**
 * Bad input rejected by liboffline_mesh: the message is the library's own
 * (it names the offending value), {@link #status()} tells which check
 * failed. File errors are {@link java.io.IOException}s instead, allocation
 * failures {@link OutOfMemoryError}s.
 */
public final class OfflineMeshException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @serial the library status of the failure */
    private final Status status;

    OfflineMeshException(Status status, String message) {
        super(message);
        this.status = status;
    }

    /** Which check failed, e.g. {@link Status#DUPLICATE_NAME}. */
    public Status status() {
        return status;
    }
}
