package org.offlinemesh;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The parallelism of a training config: dp, tp, cp, ep and pp sizes
 * (default 1) and the sequence_parallel and loss_parallel flags (default
 * false). An immutable value: build one with {@link #builder()}, or read one
 * from YAML with {@link OfflineMeshes#parseParallelDims(String, int)}. The
 * record constructor accepts any values; the library checks them when the
 * dims are used ({@link Builder#build()} checks at once).
 *
 * <p>A size of 0 means "not declared": dp, cp and tp at 0 are left out of
 * the mesh, pp and ep at 0 behave as 1. Negative sizes are refused.
 */
public record ParallelDims(int dpSize, int tpSize, int cpSize, int epSize, int ppSize,
        boolean sequenceParallel, boolean lossParallel) {
    private static final ParallelDims DEFAULTS = new ParallelDims(1, 1, 1, 1, 1, false, false);

    /** All sizes 1, both flags false. */
    public static ParallelDims defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Same as {@link OfflineMeshes#buildOfflineMesh(ParallelDims)}. */
    public OfflineMesh buildOfflineMesh() {
        return OfflineMeshes.buildOfflineMesh(this);
    }

    /** Same as {@link OfflineMeshes#buildRuntimeMesh(ParallelDims, String)}. */
    public OfflineMesh buildRuntimeMesh(String order) {
        return OfflineMeshes.buildRuntimeMesh(this, order);
    }

    /**
     * Canonical JSON of the seven fields, keys sorted, no spaces:
     * {@code {"cp_size":1,"dp_size":8,"ep_size":1,"loss_parallel":false,"pp_size":1,"sequence_parallel":false,"tp_size":1}}.
     */
    public String toJson() {
        return withNative(h -> Text.string(out -> OfflineMeshNative.omDimsToJson(h, out)));
    }

    /** Runs f on a native copy of these dims, freed afterwards; the C setters check each value. */
    <T> T withNative(Function<Dims, T> f) {
        NativeLibrary.load();
        long[] out = new long[1];
        OfflineMeshNative.omDimsNew(out);
        Dims h = new Dims(out[0], true);
        try {
            int[] sizes = {dpSize, tpSize, cpSize, epSize, ppSize};
            for (int d = 0; d < sizes.length; d++) {
                OfflineMeshNative.omDimsSet(h, d, sizes[d]);
            }
            OfflineMeshNative.omDimsSetFlag(h, om_flag.OM_FLAG_SEQUENCE_PARALLEL, sequenceParallel);
            OfflineMeshNative.omDimsSetFlag(h, om_flag.OM_FLAG_LOSS_PARALLEL, lossParallel);
            return f.apply(h);
        } finally {
            h.delete();
        }
    }

    /** Runs a native constructor of dims and copies the result out. */
    static ParallelDims create(Consumer<long[]> constructor) {
        NativeLibrary.load();
        long[] out = new long[1];
        constructor.accept(out);
        Dims h = new Dims(out[0], true);
        try {
            int[] s = new int[5];
            for (int d = 0; d < s.length; d++) {
                s[d] = (int) OfflineMeshNative.omDimsGet(h, d);
            }
            return new ParallelDims(s[0], s[1], s[2], s[3], s[4],
                    OfflineMeshNative.omDimsGetFlag(h, om_flag.OM_FLAG_SEQUENCE_PARALLEL),
                    OfflineMeshNative.omDimsGetFlag(h, om_flag.OM_FLAG_LOSS_PARALLEL));
        } finally {
            h.delete();
        }
    }

    /** Builds {@link ParallelDims}. Not thread-safe (the built values are). */
    public static final class Builder {
        private final int[] sizes;
        private boolean sequenceParallel;
        private boolean lossParallel;

        private Builder(ParallelDims from) {
            sizes = new int[] {from.dpSize, from.tpSize, from.cpSize, from.epSize, from.ppSize};
            sequenceParallel = from.sequenceParallel;
            lossParallel = from.lossParallel;
        }

        private Builder size(int dim, int value) {
            sizes[dim] = value;
            return this;
        }

        public Builder dpSize(int value) {
            return size(om_dim.OM_DIM_DP, value);
        }

        public Builder tpSize(int value) {
            return size(om_dim.OM_DIM_TP, value);
        }

        public Builder cpSize(int value) {
            return size(om_dim.OM_DIM_CP, value);
        }

        public Builder epSize(int value) {
            return size(om_dim.OM_DIM_EP, value);
        }

        public Builder ppSize(int value) {
            return size(om_dim.OM_DIM_PP, value);
        }

        public Builder sequenceParallel(boolean value) {
            sequenceParallel = value;
            return this;
        }

        public Builder lossParallel(boolean value) {
            lossParallel = value;
            return this;
        }

        /**
         * The dims with these values, checked by the library.
         *
         * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for a negative size
         */
        public ParallelDims build() {
            ParallelDims d = new ParallelDims(sizes[0], sizes[1], sizes[2], sizes[3], sizes[4],
                    sequenceParallel, lossParallel);
            return d.withNative(h -> d);
        }
    }
}
