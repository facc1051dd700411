package org.offlinemesh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Bad input rejected by liboffline_mesh: the message is the library's own
 * (it names the offending value), {@link #status()} tells which check
 * failed. File errors are {@link IOException}s instead, allocation
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

    /** Called by the JNI wrapper with the status and UTF-8 message of a failed call. */
    static Throwable create(int code, byte[] message) {
        String text = new String(message, StandardCharsets.UTF_8);
        Status status = Status.swigToEnum(code);
        return status == Status.NO_MEMORY ? new OutOfMemoryError(text)
                : status == Status.IO ? new IOException(text) : new OfflineMeshException(status, text);
    }
}
