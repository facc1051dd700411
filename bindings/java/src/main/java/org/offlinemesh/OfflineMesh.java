package org.offlinemesh;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An offline device mesh: named axes with sizes, e.g. {@code (dp=2, cp=2,
 * tp=2)}, with the rank topology a live mesh would have. Ranks are laid out
 * row-major (the last axis varies fastest).
 *
 * <p>A mesh holds its native {@code om_mesh}, so every query is one native
 * call. {@link #close()} releases it (try-with-resources); a mesh that is
 * never closed is released once unreachable (a {@link Cleaner}, never
 * {@code finalize}). After {@code close()} every method but {@code close},
 * {@code equals}, {@code hashCode} and {@code toString} throws
 * {@link IllegalStateException}. Meshes are immutable and thread-safe;
 * closing one while another thread uses it is an error.
 *
 * <p>Errors: bad input throws {@link OfflineMeshException} (an
 * {@link IllegalArgumentException}) with the library's message and status;
 * a {@code null} argument throws {@link NullPointerException} naming the
 * parameter.
 *
 * <p>Axis sets: the topology methods take axis names as varargs, in any
 * order (groups and members are listed in mesh order), with no limit on
 * their number; no names is the empty set (one single-rank group per rank).
 * A name the mesh lacks is {@link Status#UNKNOWN_AXIS}, one given twice
 * {@link Status#DUPLICATE_NAME}.
 */
public final class OfflineMesh implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private final List<String> names;
    private final int[] shape;
    private final int size;
    private final Mesh mesh;
    private final Cleaner.Cleanable cleanable;

    /** Takes ownership of the native mesh a {@code om_mesh **out} call produced. */
    OfflineMesh(long[] out) {
        mesh = new Mesh(out[0], true);
        cleanable = CLEANER.register(this, mesh::delete);
        int ndim = (int) OfflineMeshNative.omMeshNdim(mesh);
        List<String> dimNames = new ArrayList<>(ndim);
        shape = new int[ndim];
        for (int i = 0; i < ndim; i++) {
            dimNames.add(Text.decode(OfflineMeshNative.omMeshName(mesh, i)));
            shape[i] = (int) OfflineMeshNative.omMeshDimSize(mesh, i);
        }
        names = List.copyOf(dimNames);
        size = (int) OfflineMeshNative.omMeshSize(mesh);
    }

    /** Runs a native constructor that fills a {@code om_mesh **out} holder. */
    static OfflineMesh create(Consumer<long[]> constructor) {
        NativeLibrary.load();
        long[] out = new long[1];
        constructor.accept(out);
        return new OfflineMesh(out);
    }

    /** The native mesh; IllegalStateException once closed. */
    private Mesh open() {
        if (Mesh.getCPtr(mesh) == 0) {
            throw new IllegalStateException("mesh is closed");
        }
        return mesh;
    }

    /** Runs a native call on this mesh, keeping it reachable until it returns. */
    private <T> T call(Function<Mesh, T> f) {
        try {
            return f.apply(open());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Releases the native mesh now; later calls throw IllegalStateException. Idempotent. */
    @Override
    public void close() {
        cleanable.clean();
    }

    /**
     * Creates a mesh from axis names and their sizes.
     *
     * @throws OfflineMeshException with status {@link Status#LENGTH_MISMATCH},
     *     {@link Status#DUPLICATE_NAME}, {@link Status#EMPTY_NAME},
     *     {@link Status#INVALID_NAME}, {@link Status#BAD_SIZE} (a size below 1)
     *     or {@link Status#MESH_TOO_LARGE} (product over 2^31-1)
     * @throws NullPointerException when {@code dimNames}, one of its
     *     elements or {@code shape} is null
     */
    public static OfflineMesh of(List<String> dimNames, long... shape) {
        Text.requireNoNulls(dimNames, "dimNames");
        Objects.requireNonNull(shape, "shape");
        byte[][] encoded = new byte[dimNames.size()][];
        for (int i = 0; i < encoded.length; i++) {
            encoded[i] = Text.cString(dimNames.get(i), "dimNames[" + i + "]", Status.INVALID_NAME);
        }
        return create(out -> OfflineMeshNative.omMeshNewChecked(encoded, shape, out));
    }

    /** A new empty mesh: no axes, size 1. */
    public static OfflineMesh empty() {
        return of(List.of());
    }

    /**
     * Parses canonical mesh JSON, {@code {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}}
     * (whitespace allowed; anything else, duplicate keys or trailing text refused).
     *
     * @throws OfflineMeshException with status {@link Status#PARSE}, or a
     *     construction status of {@link #of(List, long...)}
     */
    public static OfflineMesh fromJson(String json) {
        byte[] text = Text.document(json, "json");
        return create(out -> OfflineMeshNative.omMeshFromJson(text, out));
    }

    /**
     * Parses the text form {@code "dp=2,cp=2,tp=8"} ({@code ""} is the empty mesh).
     *
     * @throws OfflineMeshException with status {@link Status#PARSE}, or a
     *     construction status of {@link #of(List, long...)}
     */
    public static OfflineMesh parse(String spec) {
        byte[] text = Text.cString(spec, "spec", Status.PARSE);
        return create(out -> OfflineMeshNative.omMeshFromSpec(text, out));
    }

    /** The axis names in mesh order (unmodifiable). */
    public List<String> dimNames() {
        open();
        return names;
    }

    /** The axis sizes in mesh order (a fresh copy). */
    public int[] shape() {
        open();
        return shape.clone();
    }

    /** Number of axes (0 for the empty mesh). */
    public int ndim() {
        open();
        return shape.length;
    }

    /** Total number of ranks, the product of all sizes (1 for the empty mesh). */
    public int size() {
        open();
        return size;
    }

    /** Size of the axis {@code dim}, or 1 when the mesh has no such axis. */
    public int size(String dim) {
        int index = indexOf(dim);
        return index < 0 ? 1 : shape[index];
    }

    /** Index of the axis {@code dim}, or -1 when absent. */
    public int indexOf(String dim) {
        Objects.requireNonNull(dim, "dim");
        open();
        return names.indexOf(dim);
    }

    /** True when the mesh has an axis called {@code dim}. */
    public boolean hasDim(String dim) {
        return indexOf(dim) >= 0;
    }

    /**
     * The sub-mesh of the named axes that this mesh has, in mesh order:
     * {@code get("tp")} is {@code (tp,)/(size,)}, {@code get("dp", "cp")} is
     * torch's {@code mesh["dp", "cp"]}; absent names are skipped, so an
     * absent axis gives the empty mesh (as the planner-facing original).
     */
    public OfflineMesh get(String... dims) {
        for (String dim : Objects.requireNonNull(dims, "dim")) {
            Objects.requireNonNull(dim, "dim");
        }
        List<String> selected = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        open();
        for (int i = 0; i < shape.length; i++) {
            if (Arrays.asList(dims).contains(names.get(i))) {
                selected.add(names.get(i));
                sizes.add((long) shape[i]);
            }
        }
        return of(selected, sizes.stream().mapToLong(Long::longValue).toArray());
    }

    /** Canonical JSON: {@code {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}}. */
    public String toJson() {
        return call(p -> Text.string(out -> OfflineMeshNative.omMeshToJson(p, out)));
    }

    /**
     * The text form {@code "dp=2,cp=2,tp=8"} that {@link #parse(String)} reads back.
     *
     * @throws OfflineMeshException when a name holds ',' or '=' or has
     *     spaces at its ends, which the text form cannot carry
     */
    public String toSpec() {
        return call(p -> Text.string(out -> OfflineMeshNative.omMeshToSpec(p, out)));
    }

    // ---- topology -------------------------------------------------------

    /**
     * Runs a bulk call whose buffer is one longer than the result (its last
     * element receives the needed length), with room for {@code guess}
     * values and once more with the needed length if that was short.
     */
    private static int[] bulk(int guess, Consumer<int[]> call) {
        int[] buf = new int[guess + 1];
        try {
            call.accept(buf);
        } catch (OfflineMeshException e) {
            if (e.status() != Status.BUFFER_TOO_SMALL) {
                throw e;
            }
            buf = new int[buf[guess] + 1];
            call.accept(buf);
        }
        return buf;
    }

    /** The size of the groups over {@code axes}, from the Java copy (the library checks the names). */
    private int guessGroupSize(String[] axes) {
        int n = 1;
        for (int i = 0; i < shape.length; i++) {
            n *= Arrays.asList(axes).contains(names.get(i)) ? shape[i] : 1;
        }
        return n;
    }

    /**
     * Coordinates of {@code rank}, one per axis in mesh order.
     *
     * @throws OfflineMeshException ({@link Status#OUT_OF_RANGE}) for a rank outside 0..size-1
     */
    public int[] coordinate(int rank) {
        long[] out = new long[shape.length + 1];
        call(p -> OfflineMeshNative.omMeshCoordinateOf(p, rank, out));
        int[] coord = new int[shape.length];
        for (int i = 0; i < coord.length; i++) {
            coord[i] = (int) out[i];
        }
        return coord;
    }

    /**
     * The rank at {@code coordinate} (one value per axis, in mesh order); the
     * inverse of {@link #coordinate(int)}.
     *
     * @throws OfflineMeshException {@link Status#INVALID_ARGUMENT} for a wrong
     *     number of values, {@link Status#OUT_OF_RANGE} for a value outside its axis
     */
    public int rank(int... coordinate) {
        long[] coord = Arrays.stream(Objects.requireNonNull(coordinate, "coordinate")).asLongStream().toArray();
        long[] rank = new long[1];
        call(p -> OfflineMeshNative.omMeshRank(p, coord, rank));
        return (int) rank[0];
    }

    /**
     * The indices of the named axes, in mesh order (the canonical form of the set).
     *
     * @throws OfflineMeshException {@link Status#UNKNOWN_AXIS} for a name
     *     the mesh lacks, {@link Status#DUPLICATE_NAME} for a name given twice
     */
    public int[] axisIndices(String... axes) {
        byte[][] names = Text.axes(axes);
        long[] out = new long[axes.length + 1];
        call(p -> OfflineMeshNative.omMeshAxisIndices(p, names, out));
        return Arrays.stream(out, 0, (int) out[axes.length]).mapToInt(v -> (int) v).toArray();
    }

    /** {count, size} of the groups over axes. */
    private long[] groupShape(String[] axes) {
        byte[][] names = Text.axes(axes);
        long[] count = new long[1];
        long[] groupSize = new long[1];
        call(p -> OfflineMeshNative.omMeshGroupShapeNamed(p, names, count, groupSize));
        return new long[] {count[0], groupSize[0]};
    }

    /**
     * Number of process groups over {@code axes}.
     *
     * @throws OfflineMeshException {@link Status#UNKNOWN_AXIS} for an axis
     *     the mesh lacks, {@link Status#DUPLICATE_NAME} for an axis named twice
     */
    public int groupCount(String... axes) {
        return (int) groupShape(axes)[0];
    }

    /** Number of ranks in each group over {@code axes}; errors as {@link #groupCount}. */
    public int groupSize(String... axes) {
        return (int) groupShape(axes)[1];
    }

    /**
     * All process groups over {@code axes}: the sets of ranks that agree on
     * every other axis, listed row-major over the other axes, members in
     * increasing rank order. Example, mesh (dp=2, cp=2, tp=2):
     * {@code groups("tp")} is {0,1},{2,3},{4,5},{6,7}; {@code groups("dp", "cp")}
     * is {0,2,4,6},{1,3,5,7}. Holds every rank once: for huge meshes walk
     * {@link #group(int, String...)} instead.
     *
     * @throws OfflineMeshException as {@link #groupCount}
     */
    public int[][] groups(String... axes) {
        byte[][] names = Text.axes(axes);
        int n = guessGroupSize(axes);
        int[] flat = bulk(size, b -> call(p -> OfflineMeshNative.omMeshGroupsNamed(p, names, 0, size / n, b)));
        int[][] groups = new int[size / n][];
        for (int g = 0; g < groups.length; g++) {
            groups[g] = Arrays.copyOfRange(flat, g * n, (g + 1) * n);
        }
        return groups;
    }

    /**
     * Group number {@code index} over {@code axes} (in the order of {@link #groups}).
     *
     * @throws OfflineMeshException {@link Status#OUT_OF_RANGE} for an index
     *     outside 0..groupCount-1, or as {@link #groupCount}
     */
    public int[] group(int index, String... axes) {
        byte[][] names = Text.axes(axes);
        int n = guessGroupSize(axes);
        return Arrays.copyOf(bulk(n, b -> call(p -> OfflineMeshNative.omMeshGroupsNamed(p, names, index, 1, b))), n);
    }

    /**
     * Index (in {@link #groups}) of the group over {@code axes} holding {@code rank}.
     *
     * @throws OfflineMeshException {@link Status#OUT_OF_RANGE} for a rank
     *     outside the mesh, or as {@link #groupCount}
     */
    public int groupIndex(int rank, String... axes) {
        byte[][] names = Text.axes(axes);
        long[] index = new long[1];
        call(p -> OfflineMeshNative.omMeshGroupIndexNamed(p, names, rank, index));
        return (int) index[0];
    }

    /**
     * Members of the group over {@code axes} that holds {@code rank}.
     *
     * @throws OfflineMeshException as {@link #groupIndex}
     */
    public int[] groupOf(int rank, String... axes) {
        byte[][] names = Text.axes(axes);
        int[] out = bulk(guessGroupSize(axes), b -> call(p -> OfflineMeshNative.omMeshGroupOfNamed(p, names, rank, b)));
        return Arrays.copyOf(out, out[out.length - 1]);
    }

    /**
     * Host locality of the groups over {@code axes} when ranks r..r+k-1 share a
     * host (k = {@code ranksPerHost}; the last host may be partial).
     *
     * @throws OfflineMeshException {@link Status#INVALID_ARGUMENT} for
     *     {@code ranksPerHost} below 1, or as {@link #groupCount}
     */
    public Locality locality(int ranksPerHost, String... axes) {
        byte[][] names = Text.axes(axes);
        long[][] r = {new long[1], new long[1], new long[1]};
        call(p -> OfflineMeshNative.omMeshLocalityNamed(p, names, ranksPerHost, r[0], r[1], r[2]));
        return new Locality((int) r[0][0], (int) r[1][0], (int) r[2][0]);
    }

    // ---- preflight ------------------------------------------------------

    /**
     * The planner's axis validation for a plan with these sizes: for tp and
     * cp above 1 the mesh must have that axis with that size; ep is compared
     * only when the mesh has an "ep" axis.
     *
     * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) when a
     *     check fails or a size is below 1
     */
    public void validateAxes(int tpSize, int cpSize, int epSize) {
        call(p -> {
            OfflineMeshNative.omValidateAxes(p, tpSize, cpSize, epSize);
            return null;
        });
    }

    /**
     * The plan coordinate axes: the mesh's names, in mesh order, that are
     * tp, cp or ep with a plan size above 1 ("dp" never is one).
     *
     * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for a size below 1
     */
    public List<String> planDimNames(int tpSize, int cpSize, int epSize) {
        String list = call(p -> Text.string(out -> OfflineMeshNative.omPlanDimNames(p, tpSize, cpSize, epSize, out)));
        return list.isEmpty() ? List.of() : List.of(list.split(",", -1));
    }

    /** {@link #expertMesh(int, int)} without a number of experts. */
    public OfflineMesh expertMesh(int epSize) {
        return expertMesh(epSize, 0);
    }

    /**
     * Extended expert parallelism: the dense region (all non-"pp" axes,
     * flattened row-major) re-sliced as the mesh {@code ("edp", "ep") =
     * (dense / ep, ep)}. Its groups over "ep" are the EP groups (ep
     * consecutive ranks), over "edp" the EDP groups (every ep-th rank).
     *
     * @param numExperts number of experts, 0 when not given
     * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for a
     *     "pp" axis above 1, an ep size that does not divide the dense
     *     region, a number of experts not divisible by ep, or values below range
     */
    public OfflineMesh expertMesh(int epSize, int numExperts) {
        return call(p -> create(out -> OfflineMeshNative.omExpertMesh(p, epSize, numExperts, out)));
    }

    // ---- values ---------------------------------------------------------

    /** Equal when names and shape are equal, in the same order. */
    @Override
    public boolean equals(Object other) {
        return other instanceof OfflineMesh && names.equals(((OfflineMesh) other).names)
                && Arrays.equals(shape, ((OfflineMesh) other).shape);
    }

    /** The library's hash of (names, shape): the same value in every language binding. */
    public long libraryHash() {
        return call(OfflineMeshNative::omMeshHash);
    }

    @Override
    public int hashCode() {
        return 31 * names.hashCode() + Arrays.hashCode(shape);
    }

    /** For example {@code OfflineMesh{mesh_dim_names=[dp, tp], mesh_shape=[2, 4]}}. */
    @Override
    public String toString() {
        return "OfflineMesh{mesh_dim_names=" + names + ", mesh_shape=" + Arrays.toString(shape) + "}";
    }
}
