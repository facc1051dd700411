package org.offlinemesh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Entry points of the library: building meshes from parallel dims, reading
 * dims from training YAML, runtime axis orders and version information.
 * All methods are thread-safe.
 */
public final class OfflineMeshes {
    private OfflineMeshes() {
    }

    /**
     * The offline mesh of {@code dims}: axes dp, cp, tp in that order, each
     * present when its size is at least 1 (even at 1); pp appended last when
     * above 1; ep never an axis (it travels beside the mesh).
     *
     * @throws OfflineMeshException ({@link Status#MESH_TOO_LARGE}) when the
     *     product exceeds 2^31-1
     */
    public static OfflineMesh buildOfflineMesh(ParallelDims dims) {
        Objects.requireNonNull(dims, "dims");
        return dims.withNative(h -> OfflineMesh.create(out -> OfflineMeshNative.omBuildOfflineMesh(h, out)));
    }

    /**
     * The mesh of {@code dims} in a runtime axis order, as a live trainer
     * lays out its ranks. {@code order} lists axes from {dp, cp, tp, pp, ep}:
     * comma-separated, slowest first ({@code "pp,dp,cp,tp"}); dash-separated,
     * Megatron style, fastest first ({@code "tp-cp-ep-dp-pp"} is the mesh
     * pp, dp, ep, cp, tp). Names the offline mesh lacks are skipped.
     *
     * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for an
     *     unknown or repeated axis, mixed separators, an empty item or an
     *     axis above 1 that {@code order} omits
     */
    public static OfflineMesh buildRuntimeMesh(ParallelDims dims, String order) {
        Objects.requireNonNull(dims, "dims");
        byte[] text = Text.cString(order, "order", Status.INVALID_ARGUMENT);
        return dims.withNative(h -> OfflineMesh.create(out -> OfflineMeshNative.omBuildRuntimeMesh(h, text, out)));
    }

    /**
     * An axis order (either style) as the comma-separated, slowest-first list
     * of the mesh it describes: {@code "tp-cp-ep-dp-pp"} gives {@code "pp,dp,ep,cp,tp"}.
     *
     * @throws OfflineMeshException as {@link #buildRuntimeMesh} for the order itself
     */
    public static String normalizeOrder(String order) {
        byte[] text = Text.cString(order, "order", Status.INVALID_ARGUMENT);
        return Text.string(out -> OfflineMeshNative.omOrderNormalize(text, out));
    }

    /** {@link #parseParallelDims(String, int)} with the world size taken from the environment. */
    public static ParallelDims parseParallelDims(String yaml) {
        return parseParallelDims(yaml, 0);
    }

    /**
     * Projects a training YAML document onto parallel dims: only the
     * top-level {@code accelerator:} mapping is read. dp is derived as
     * {@code worldSize / (tp * cp * pp)} unless dp_size is given.
     *
     * @param worldSize the world size; 0 or less means: discover it from
     *     WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS (1 when none is set)
     * @throws OfflineMeshException {@link Status#PARSE} (malformed YAML, a
     *     value of the wrong type), {@link Status#INVALID_ARGUMENT} (sizes
     *     below 1, a world size not divisible or not matching),
     *     {@link Status#OUT_OF_RANGE} (values over 2^31-1); messages give the line
     */
    public static ParallelDims parseParallelDims(String yaml, int worldSize) {
        byte[] text = Text.document(yaml, "yaml");
        return ParallelDims.create(out -> OfflineMeshNative.omDimsFromYaml(text, worldSize, out));
    }

    /** {@link #loadParallelDims(Path, int)} with the world size taken from the environment. */
    public static ParallelDims loadParallelDims(Path path) throws IOException {
        return loadParallelDims(path, 0);
    }

    /**
     * As {@link #parseParallelDims(String, int)} for the YAML file at
     * {@code path} (on the default file system; messages start with the path).
     *
     * @throws IOException when the file is missing, unreadable, a directory
     *     or larger than 64 MiB
     * @throws OfflineMeshException as {@link #parseParallelDims(String, int)}
     */
    public static ParallelDims loadParallelDims(Path path, int worldSize) throws IOException {
        Objects.requireNonNull(path, "path");
        if (path.getFileSystem() != FileSystems.getDefault()) {
            throw new OfflineMeshException(Status.INVALID_ARGUMENT,
                    "path " + path.toUri() + " is not on the default file system");
        }
        byte[] text = Text.cString(path.toString(), "path", Status.INVALID_ARGUMENT);
        try {
            return ParallelDims.create(out -> OfflineMeshNative.omDimsLoadYaml(text, worldSize, out));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * The world size from the environment (WORLD_SIZE, OMPI_COMM_WORLD_SIZE,
     * PMI_SIZE, SLURM_NTASKS; the first one set decides), empty when none is set.
     *
     * @throws OfflineMeshException when the deciding variable is not a
     *     positive integer (naming it)
     */
    public static OptionalInt worldSizeFromEnvironment() {
        NativeLibrary.load();
        long[] worldSize = new long[1];
        boolean[] found = new boolean[1];
        OfflineMeshNative.omWorldSizeFromEnv(worldSize, found);
        return found[0] ? OptionalInt.of(Math.toIntExact(worldSize[0])) : OptionalInt.empty();
    }

    /** Version of the loaded C library, e.g. {@code "1.0.0"}. */
    public static String libraryVersion() {
        NativeLibrary.load();
        return Text.decode(OfflineMeshNative.omVersionString());
    }

    /** Version number of the loaded C library: major * 10000 + minor * 100 + patch. */
    public static int libraryVersionNumber() {
        NativeLibrary.load();
        return OfflineMeshNative.omVersionNumber();
    }
}
