package org.offlinemesh;

import java.util.Objects;

/**
 * The parallelism of a training config: dp, tp, cp, ep and pp sizes
 * (default 1) and the sequence_parallel and loss_parallel flags (default
 * false). An immutable value; build one with {@link #builder()}, or read
 * one from YAML with {@link OfflineMeshes#parseParallelDims(String, int)}.
 *
 * <p>A size of 0 means "not declared": dp, cp and tp at 0 are left out of
 * the mesh, pp and ep at 0 behave as 1. Negative sizes are refused.
 */
public final class ParallelDims {
    private static final ParallelDims DEFAULTS = new ParallelDims(1, 1, 1, 1, 1, false, false);

    private final int dpSize;
    private final int tpSize;
    private final int cpSize;
    private final int epSize;
    private final int ppSize;
    private final boolean sequenceParallel;
    private final boolean lossParallel;

    ParallelDims(int dpSize, int tpSize, int cpSize, int epSize, int ppSize,
            boolean sequenceParallel, boolean lossParallel) {
        this.dpSize = dpSize;
        this.tpSize = tpSize;
        this.cpSize = cpSize;
        this.epSize = epSize;
        this.ppSize = ppSize;
        this.sequenceParallel = sequenceParallel;
        this.lossParallel = lossParallel;
    }

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

    public int dpSize() {
        return dpSize;
    }

    public int tpSize() {
        return tpSize;
    }

    public int cpSize() {
        return cpSize;
    }

    public int epSize() {
        return epSize;
    }

    public int ppSize() {
        return ppSize;
    }

    public boolean sequenceParallel() {
        return sequenceParallel;
    }

    public boolean lossParallel() {
        return lossParallel;
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
        try (NativeDims dims = NativeDims.of(this)) {
            byte[][] out = new byte[1][];
            NativeErrors.check(OfflineMeshNative.omDimsToJson(dims.handle(), out));
            return Text.taken(out);
        }
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ParallelDims)) {
            return false;
        }
        ParallelDims that = (ParallelDims) other;
        return dpSize == that.dpSize && tpSize == that.tpSize && cpSize == that.cpSize
                && epSize == that.epSize && ppSize == that.ppSize
                && sequenceParallel == that.sequenceParallel && lossParallel == that.lossParallel;
    }

    @Override
    public int hashCode() {
        return Objects.hash(dpSize, tpSize, cpSize, epSize, ppSize, sequenceParallel, lossParallel);
    }

    @Override
    public String toString() {
        return "ParallelDims{dp_size=" + dpSize + ", tp_size=" + tpSize + ", cp_size=" + cpSize
                + ", ep_size=" + epSize + ", pp_size=" + ppSize
                + ", sequence_parallel=" + sequenceParallel + ", loss_parallel=" + lossParallel + "}";
    }

    /**
     * Builds {@link ParallelDims}; {@link #build()} validates every value in
     * the C library. Not thread-safe (the built values are).
     */
    public static final class Builder {
        private int dpSize;
        private int tpSize;
        private int cpSize;
        private int epSize;
        private int ppSize;
        private boolean sequenceParallel;
        private boolean lossParallel;

        private Builder(ParallelDims from) {
            dpSize = from.dpSize;
            tpSize = from.tpSize;
            cpSize = from.cpSize;
            epSize = from.epSize;
            ppSize = from.ppSize;
            sequenceParallel = from.sequenceParallel;
            lossParallel = from.lossParallel;
        }

        public Builder dpSize(int value) {
            dpSize = value;
            return this;
        }

        public Builder tpSize(int value) {
            tpSize = value;
            return this;
        }

        public Builder cpSize(int value) {
            cpSize = value;
            return this;
        }

        public Builder epSize(int value) {
            epSize = value;
            return this;
        }

        public Builder ppSize(int value) {
            ppSize = value;
            return this;
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
         * The dims with these values.
         *
         * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for a negative size
         */
        public ParallelDims build() {
            try (NativeDims dims = NativeDims.of(dpSize, tpSize, cpSize, epSize, ppSize,
                    sequenceParallel, lossParallel)) {
                return dims.toParallelDims();
            }
        }
    }
}
