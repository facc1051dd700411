package org.offlinemesh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The JNI library a jar carries for its platform: tools/build-jar.sh puts a
 * copy of {@code liboffline_mesh_jni.so} that needs nothing beyond libc at
 * {@value #RESOURCE_ROOT}{@code <os>-<arch>/} (today {@code linux-x86_64}).
 * {@link #load()} copies it to a private temporary file, loads it and
 * deletes the file again (the loaded mapping stays valid on Linux), so
 * nothing is left behind and two JVMs never share a half-written file.
 *
 * <p>Called by {@link NativeLibrary} only when {@code -Dofflinemesh.jni.path}
 * is not set; a jar without a bundled library (the Debian package's, or one
 * built from a plain meson build) falls back to {@code java.library.path}.
 * The temporary file goes to {@code java.io.tmpdir}: where that is mounted
 * noexec, point {@code -Djava.io.tmpdir} elsewhere or use the path property.
 */
final class JarNative {
    /** Resource folder of the bundled libraries, one subfolder per platform. */
    static final String RESOURCE_ROOT = "/org/offlinemesh/native/";

    private JarNative() {
    }

    /** {@code linux-x86_64}, {@code linux-aarch64}, ...: the resource subfolder for this JVM. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).replace(" ", "");
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86-64")) {
            arch = "x86_64";
        } else if (arch.equals("arm64")) {
            arch = "aarch64";
        }
        return os + "-" + arch;
    }

    /** Resource path of the bundled library for this platform. */
    static String resource() {
        return RESOURCE_ROOT + platform() + "/" + System.mapLibraryName(NativeLibrary.NAME);
    }

    /**
     * Loads the bundled library. Returns false when the jar has none for this
     * platform; throws {@link UnsatisfiedLinkError} (naming the resource and
     * the temporary file) when it has one that cannot be extracted or loaded.
     */
    static boolean load() {
        String name = resource();
        try (InputStream in = JarNative.class.getResourceAsStream(name)) {
            if (in == null) {
                return false;
            }
            Path dir = Paths.get(System.getProperty("java.io.tmpdir"));
            Path file = Files.createTempFile(dir, "liboffline_mesh_jni-", ".so");
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            } catch (UnsatisfiedLinkError e) {
                UnsatisfiedLinkError wrapped = new UnsatisfiedLinkError("offline-mesh: cannot load the JNI library "
                        + "the jar carries (" + name + ", extracted to " + file + "): " + e.getMessage()
                        + ". Set -Djava.io.tmpdir to a folder that allows executing files, or -D"
                        + NativeLibrary.PATH_PROPERTY + "=<path of " + System.mapLibraryName(NativeLibrary.NAME) + ">");
                wrapped.initCause(e);
                throw wrapped;
            } finally {
                Files.deleteIfExists(file);
            }
            return true;
        } catch (IOException e) {
            UnsatisfiedLinkError wrapped = new UnsatisfiedLinkError("offline-mesh: cannot extract the JNI library "
                    + "the jar carries (" + name + ") to java.io.tmpdir=" + System.getProperty("java.io.tmpdir")
                    + ": " + e);
            wrapped.initCause(e);
            throw wrapped;
        }
    }
}
