package org.offlinemesh;

/**
 * A resolved world size and where it came from
 * ({@link OfflineMeshes#worldSizeResolve(long)}, {@link ParallelDims#worldSize()}).
 */
public record WorldSize(long size, WorldSizeSource source) {
    @Override
    public String toString() {
        return size + " (" + source + ")";
    }
}
