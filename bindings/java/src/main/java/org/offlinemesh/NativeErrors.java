package org.offlinemesh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Turns a failed C call into the Java exception of the public API. */
final class NativeErrors {
    private NativeErrors() {
    }

    /**
     * Called by the JNI wrapper (offline_mesh_java.i) with the status and
     * the UTF-8 message of the {@code om_error} the failing call filled.
     */
    static Throwable create(int status, byte[] message) {
        String text = new String(message, StandardCharsets.UTF_8);
        Status s = Status.fromCode(status);
        switch (s) {
            case NO_MEMORY:
                return new OutOfMemoryError(text);
            case IO:
                return new UncheckedIOException(text, new IOException(text));
            default:
                return new OfflineMeshException(s, text);
        }
    }
}
