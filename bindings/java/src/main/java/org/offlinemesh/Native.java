package org.offlinemesh;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the generated classes share: loading {@code liboffline_mesh_jni.so}
 * once, the Cleaner that frees unreachable handles, and the UTF-8
 * conversions at the native boundary.
 *
 * <p>The JNI library comes from the absolute path in the system property
 * {@code offlinemesh.jni.path} when set; else from the jar when it carries
 * one for this platform (copied to a temporary file, loaded, deleted again:
 * the mapping stays valid); else by name from {@code java.library.path}.
 */
final class Native {
    static final String NAME = "offline_mesh_jni";
    static final String PATH_PROPERTY = "offlinemesh.jni.path";
    static final Cleaner CLEANER = Cleaner.create();

    private Native() {
    }

    /** Run once, by the JNI class's initializer: a failure there is rethrown as it is, and later calls
     * get a NoClassDefFoundError caused by it (the JVM remembers a failed class initialization). */
    static void load() {
        String explicit = System.getProperty(PATH_PROPERTY, "");
        try {
            if (!explicit.isEmpty()) {
                System.load(explicit);
            } else if (!loadFromJar()) {
                System.loadLibrary(NAME);
            }
        } catch (UnsatisfiedLinkError | SecurityException | IOException e) {
            String file = System.mapLibraryName(NAME);
            String searched = explicit.isEmpty()
                    ? "java.library.path=" + System.getProperty("java.library.path")
                    : PATH_PROPERTY + "=" + explicit;
            throw (UnsatisfiedLinkError) new UnsatisfiedLinkError("offline-mesh: cannot load the JNI library "
                    + file + " (" + searched + "): " + e.getMessage() + ". Install liboffline_mesh built with"
                    + " its Java binding (meson setup build -Djava=enabled && ninja -C build install), then"
                    + " start java with -Djava.library.path=<folder holding " + file + "> or -D"
                    + PATH_PROPERTY + "=<path of " + file + ">; it also needs liboffline_mesh.so.1 where the"
                    + " dynamic linker finds it.").initCause(e);
        }
    }

    /** The resource tools/build-jar.sh puts into the jar for this platform. */
    static String resource() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).replace(" ", "");
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)
                .replace("amd64", "x86_64").replace("x86-64", "x86_64").replace("arm64", "aarch64");
        return "/org/offlinemesh/native/" + os + "-" + arch + "/" + System.mapLibraryName(NAME);
    }

    private static boolean loadFromJar() throws IOException {
        InputStream in = Native.class.getResourceAsStream(resource());
        if (in == null) {
            return false;
        }
        Path file = Files.createTempFile("liboffline_mesh_jni-", ".so");
        try (in) {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            System.load(file.toAbsolutePath().toString());
            return true;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** NUL-terminated UTF-8 of a string for C: a NUL inside would cut it, so it is refused. */
    static byte[] cstr(String value) {
        if (value != null && value.indexOf('\0') >= 0) {
            throw refused(value, "contains a NUL character at index " + value.indexOf('\0'));
        }
        byte[] bytes = utf8(value);
        return bytes == null ? null : Arrays.copyOf(bytes, bytes.length + 1);
    }

    /** The names as one byte[] of NUL-terminated UTF-8 strings; a null name is the byte 0xFF. */
    static byte[] cstrs(String[] values) {
        if (values == null) {
            return null;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(16 * values.length);
        for (String value : values) {
            out.writeBytes(value == null ? new byte[] {(byte) 0xFF, 0} : cstr(value));
        }
        return out.toByteArray();
    }

    /** UTF-8 of a string; an unpaired surrogate has none (getBytes would write '?'), so it is refused. */
    static byte[] utf8(String value) {
        for (int i = 0, c; value != null && i < value.length(); i += Character.charCount(c)) {
            c = value.codePointAt(i); // a pair is one code point above U+FFFF, a lone surrogate its own
            if (c >= 0xD800 && c <= 0xDFFF) {
                throw refused(value, String.format("has an unpaired surrogate U+%04X at index %d (no UTF-8 form)", c, i));
            }
        }
        return value == null ? null : value.getBytes(StandardCharsets.UTF_8);
    }

    /** A string C cannot take, quoted as the library quotes values: controls as \\xNN, lone surrogates
     * as \\uNNNN, at most 80 characters (a message is one line). */
    private static OfflineMeshException refused(String value, String why) {
        String shown = value.codePoints().limit(80).mapToObj(c -> c < 0x20 || c == 0x7F || (c >= 0xD800 && c <= 0xDFFF)
                ? String.format(c < 0x80 ? "\\x%02X" : "\\u%04X", c) : Character.toString(c)).collect(Collectors.joining());
        return new OfflineMeshException(Status.INVALID_ARGUMENT,
                '"' + shown + (value.codePointCount(0, value.length()) > 80 ? "...\" " : "\" ") + why);
    }

    /** A null enum argument, refused as the library refuses a NULL one. */
    static int isNull(String parameter) {
        throw new OfflineMeshException(Status.INVALID_ARGUMENT, parameter + " is null");
    }

    static String string(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Consecutive groups of {@code size} ranks. */
    static int[][] split(int[] flat, int size) {
        return java.util.stream.IntStream.range(0, size == 0 ? 0 : flat.length / size)
                .mapToObj(g -> Arrays.copyOfRange(flat, g * size, (g + 1) * size)).toArray(int[][]::new);
    }
}
