package org.offlinemesh;

/** A short-lived native {@code om_dims} handle; see {@link NativeMesh}. */
final class NativeDims implements AutoCloseable {
    private long handle;

    private NativeDims(long handle) {
        this.handle = handle;
    }

    /** Native dims with these values; the C setters validate each one. */
    static NativeDims of(int dp, int tp, int cp, int ep, int pp,
            boolean sequenceParallel, boolean lossParallel) {
        NativeLibrary.load();
        long[] out = new long[1];
        NativeErrors.check(OfflineMeshNative.omDimsNew(out));
        NativeDims dims = adopt(out);
        try {
            dims.set(om_dim.OM_DIM_DP, dp);
            dims.set(om_dim.OM_DIM_TP, tp);
            dims.set(om_dim.OM_DIM_CP, cp);
            dims.set(om_dim.OM_DIM_EP, ep);
            dims.set(om_dim.OM_DIM_PP, pp);
            NativeErrors.check(OfflineMeshNative.omDimsSetFlag(dims.handle(),
                    om_flag.OM_FLAG_SEQUENCE_PARALLEL, sequenceParallel));
            NativeErrors.check(OfflineMeshNative.omDimsSetFlag(dims.handle(),
                    om_flag.OM_FLAG_LOSS_PARALLEL, lossParallel));
            return dims;
        } catch (RuntimeException | Error e) {
            dims.close();
            throw e;
        }
    }

    static NativeDims of(ParallelDims d) {
        return of(d.dpSize(), d.tpSize(), d.cpSize(), d.epSize(), d.ppSize(),
                d.sequenceParallel(), d.lossParallel());
    }

    static NativeDims adopt(long[] out) {
        if (out[0] == 0) {
            throw new IllegalStateException("liboffline_mesh returned no dims");
        }
        return new NativeDims(out[0]);
    }

    /** Copies freshly produced native dims into a ParallelDims and frees them. */
    static ParallelDims take(long[] out) {
        try (NativeDims dims = adopt(out)) {
            return dims.toParallelDims();
        }
    }

    private void set(int dim, int value) {
        NativeErrors.check(OfflineMeshNative.omDimsSet(handle(), dim, value));
    }

    private int get(int dim) {
        return Math.toIntExact(OfflineMeshNative.omDimsGet(handle(), dim));
    }

    ParallelDims toParallelDims() {
        long h = handle();
        return new ParallelDims(get(om_dim.OM_DIM_DP), get(om_dim.OM_DIM_TP),
                get(om_dim.OM_DIM_CP), get(om_dim.OM_DIM_EP), get(om_dim.OM_DIM_PP),
                OfflineMeshNative.omDimsGetFlag(h, om_flag.OM_FLAG_SEQUENCE_PARALLEL),
                OfflineMeshNative.omDimsGetFlag(h, om_flag.OM_FLAG_LOSS_PARALLEL));
    }

    long handle() {
        if (handle == 0) {
            throw new IllegalStateException("native dims already closed");
        }
        return handle;
    }

    @Override
    public void close() {
        if (handle != 0) {
            OfflineMeshNative.omDimsFree(handle);
            handle = 0;
        }
    }
}
