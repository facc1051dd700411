package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The status-to-exception mapping the JNI wrapper uses. Allocation failures
 * cannot be provoked through the public C API, so OM_ERR_NO_MEMORY is
 * checked on the mapping itself.
 */
class NativeErrorsTest {
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void noMemoryIsOutOfMemoryError() {
        Throwable t = NativeErrors.create(om_status.OM_ERR_NO_MEMORY, utf8("cannot allocate 24 bytes"));
        assertInstanceOf(OutOfMemoryError.class, t);
        assertEquals("cannot allocate 24 bytes", t.getMessage());
    }

    @Test
    void ioIsUncheckedIoWrappingIoException() {
        Throwable t = NativeErrors.create(om_status.OM_ERR_IO, utf8("/x.yaml: cannot open"));
        UncheckedIOException u = assertInstanceOf(UncheckedIOException.class, t);
        assertInstanceOf(IOException.class, u.getCause());
        assertEquals("/x.yaml: cannot open", u.getCause().getMessage());
    }

    @Test
    void inputErrorsKeepTheirStatusAndUtf8Message() {
        for (Status s : Status.values()) {
            if (s == Status.IO || s == Status.NO_MEMORY || s == Status.OK) {
                continue;
            }
            Throwable t = NativeErrors.create(s.code(), utf8("axis \"张量😀\" x"));
            OfflineMeshException e = assertInstanceOf(OfflineMeshException.class, t);
            assertInstanceOf(IllegalArgumentException.class, e);
            assertEquals(s, e.status());
            assertEquals("axis \"张量😀\" x", e.getMessage());
        }
        OfflineMeshException unknown = assertInstanceOf(OfflineMeshException.class,
                NativeErrors.create(77, utf8("future")));
        assertEquals(Status.UNKNOWN, unknown.status());
    }
}
