package org.offlinemesh;

/**
 * Loads the JNI library {@code liboffline_mesh_jni.so} once per class loader.
 *
 * <p>The library is taken from the absolute path in the system property
 * {@value #PATH_PROPERTY} when that is set; else from the jar itself when
 * it carries one for this platform ({@link JarNative}); else it is looked
 * up by name on {@code java.library.path}. A failure is remembered and reported again, with the
 * same explanation, by every later call (rather than as a bare
 * {@code NoClassDefFoundError}).
 */
final class NativeLibrary {
    /** Library name as given to {@link System#loadLibrary(String)}. */
    static final String NAME = "offline_mesh_jni";
    /** System property naming the library file explicitly. */
    static final String PATH_PROPERTY = "offlinemesh.jni.path";

    private static volatile boolean loaded;
    private static UnsatisfiedLinkError failure;

    private NativeLibrary() {
    }

    /** Loads the library; throws {@link UnsatisfiedLinkError} explaining what to install. */
    static void load() {
        if (loaded) {
            return;
        }
        synchronized (NativeLibrary.class) {
            if (loaded) {
                return;
            }
            if (failure == null) {
                String explicit = System.getProperty(PATH_PROPERTY);
                try {
                    if (explicit != null && !explicit.isEmpty()) {
                        System.load(explicit);
                    } else if (!JarNative.load()) {
                        System.loadLibrary(NAME);
                    }
                    loaded = true;
                    return;
                } catch (UnsatisfiedLinkError | SecurityException e) {
                    failure = new UnsatisfiedLinkError(explain(explicit, e));
                    failure.initCause(e);
                }
            }
            UnsatisfiedLinkError again = new UnsatisfiedLinkError(failure.getMessage());
            again.initCause(failure.getCause());
            throw again;
        }
    }

    private static String explain(String explicit, Throwable cause) {
        String file = System.mapLibraryName(NAME);
        String where = explicit != null && !explicit.isEmpty()
                ? PATH_PROPERTY + "=" + explicit
                : "java.library.path=" + System.getProperty("java.library.path");
        return "offline-mesh: cannot load the JNI library " + file + " (" + where + "): "
                + cause.getMessage() + ". Install liboffline_mesh built with its Java binding"
                + " (meson setup build -Djava=enabled && ninja -C build && ninja -C build install),"
                + " then start java with -Djava.library.path=<folder holding " + file + ">"
                + " or -D" + PATH_PROPERTY + "=<path of " + file + ">;"
                + " it also needs liboffline_mesh.so.1 where the dynamic linker finds it.";
    }
}
