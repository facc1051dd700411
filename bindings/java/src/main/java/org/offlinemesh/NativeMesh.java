package org.offlinemesh;

import java.util.ArrayList;
import java.util.List;

/**
 * A short-lived native {@code om_mesh} handle: created for one operation
 * (try-with-resources) and freed right after, so no native memory outlives
 * a call. Never exposed.
 */
final class NativeMesh implements AutoCloseable {
    private long handle;

    private NativeMesh(long handle) {
        this.handle = handle;
    }

    /** A native mesh with the names and sizes of {@code mesh}. */
    static NativeMesh of(OfflineMesh mesh) {
        return create(mesh.encodedNames(), mesh.shapeAsLongs());
    }

    /** Validates names and sizes in C and returns the native mesh. */
    static NativeMesh create(byte[][] names, long[] shape) {
        NativeLibrary.load();
        long[] out = new long[1];
        NativeErrors.check(OfflineMeshNative.omMeshNewChecked(names, shape, out));
        return adopt(out);
    }

    /** Takes ownership of the handle a {@code om_mesh **out} call produced. */
    static NativeMesh adopt(long[] out) {
        if (out[0] == 0) {
            throw new IllegalStateException("liboffline_mesh returned no mesh");
        }
        return new NativeMesh(out[0]);
    }

    /** Copies a freshly produced native mesh into Java values and frees it. */
    static OfflineMesh take(long[] out) {
        try (NativeMesh mesh = adopt(out)) {
            return mesh.toOfflineMesh();
        }
    }

    long handle() {
        if (handle == 0) {
            throw new IllegalStateException("native mesh already closed");
        }
        return handle;
    }

    OfflineMesh toOfflineMesh() {
        long h = handle();
        int ndim = Math.toIntExact(OfflineMeshNative.omMeshNdim(h));
        List<String> names = new ArrayList<>(ndim);
        int[] shape = new int[ndim];
        for (int i = 0; i < ndim; i++) {
            names.add(Text.decode(OfflineMeshNative.omMeshName(h, i)));
            shape[i] = Math.toIntExact(OfflineMeshNative.omMeshDimSize(h, i));
        }
        return OfflineMesh.trusted(names, shape);
    }

    /** The C axis mask of the named axes. */
    long mask(String[] axes) {
        byte[] list = Text.axisList(axes);
        long[] mask = new long[1];
        NativeErrors.check(OfflineMeshNative.omMeshAxes(handle(), list, mask));
        return mask[0];
    }

    @Override
    public void close() {
        if (handle != 0) {
            OfflineMeshNative.omMeshFree(handle);
            handle = 0;
        }
    }
}
