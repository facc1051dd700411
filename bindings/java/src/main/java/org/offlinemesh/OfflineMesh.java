package org.offlinemesh;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An offline device mesh: named axes with sizes, e.g. {@code (dp=2, cp=2,
 * tp=2)}, with the rank topology a live mesh would have. Ranks are laid out
 * row-major (the last axis varies fastest).
 *
 * <p>Instances are immutable, plain Java values copied out of the C library
 * (no native memory is held between calls), and safe to share between
 * threads. Every computation runs in liboffline_mesh, so the answers agree
 * with the C API and the {@code offline-mesh} CLI.
 *
 * <p>Errors: bad input throws {@link OfflineMeshException} (an
 * {@link IllegalArgumentException}) with the library's message; a
 * {@code null} argument throws {@link NullPointerException} naming the
 * parameter.
 *
 * <p>Axis sets: the topology methods take axis names as varargs, and each
 * item may itself be a comma-separated list, so {@code groups("dp", "cp")}
 * and {@code groups("dp,cp")} are the same; no names is the empty set (one
 * single-rank group per rank). The order of the names does not matter:
 * groups and their members are always listed in mesh order.
 */
public final class OfflineMesh {
    private static final OfflineMesh EMPTY = new OfflineMesh(List.of(), new int[0]);

    private final List<String> names;
    private final int[] shape;
    private final int size;
    private final byte[][] encodedNames;

    private OfflineMesh(List<String> names, int[] shape) {
        this.names = Collections.unmodifiableList(new ArrayList<>(names));
        this.shape = shape;
        int product = 1;
        for (int s : shape) {
            product = Math.multiplyExact(product, s);
        }
        this.size = product;
        this.encodedNames = new byte[names.size()][];
        for (int i = 0; i < names.size(); i++) {
            encodedNames[i] = names.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** A mesh whose values the C library already validated. */
    static OfflineMesh trusted(List<String> names, int[] shape) {
        return names.isEmpty() ? EMPTY : new OfflineMesh(names, shape);
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
        try (NativeMesh mesh = NativeMesh.create(encoded, shape.clone())) {
            return mesh.toOfflineMesh();
        }
    }

    /** The empty mesh: no axes, size 1. */
    public static OfflineMesh empty() {
        return EMPTY;
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
        NativeLibrary.load();
        long[] out = new long[1];
        NativeErrors.check(OfflineMeshNative.omMeshFromJson(text, out));
        return NativeMesh.take(out);
    }

    /**
     * Parses the text form {@code "dp=2,cp=2,tp=8"} ({@code ""} is the empty mesh).
     *
     * @throws OfflineMeshException with status {@link Status#PARSE}, or a
     *     construction status of {@link #of(List, long...)}
     */
    public static OfflineMesh parse(String spec) {
        byte[] text = Text.cString(spec, "spec", Status.PARSE);
        NativeLibrary.load();
        long[] out = new long[1];
        NativeErrors.check(OfflineMeshNative.omMeshFromSpec(text, out));
        return NativeMesh.take(out);
    }

    /** The axis names in mesh order (unmodifiable). */
    public List<String> dimNames() {
        return names;
    }

    /** The axis sizes in mesh order (a fresh copy). */
    public int[] shape() {
        return shape.clone();
    }

    /** Number of axes (0 for the empty mesh). */
    public int ndim() {
        return shape.length;
    }

    /** Total number of ranks, the product of all sizes (1 for the empty mesh). */
    public int size() {
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
        return names.indexOf(dim);
    }

    /** True when the mesh has an axis called {@code dim}. */
    public boolean hasDim(String dim) {
        return indexOf(dim) >= 0;
    }

    /** The single-axis mesh {@code (dim,)/(size,)}, or the empty mesh when the axis is absent. */
    public OfflineMesh get(String dim) {
        int index = indexOf(dim);
        if (index < 0) {
            return EMPTY;
        }
        return new OfflineMesh(List.of(dim), new int[] {shape[index]});
    }

    /** Canonical JSON: {@code {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}}. */
    public String toJson() {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            byte[][] out = new byte[1][];
            NativeErrors.check(OfflineMeshNative.omMeshToJson(mesh.handle(), out));
            return Text.taken(out);
        }
    }

    /**
     * The text form {@code "dp=2,cp=2,tp=8"} that {@link #parse(String)} reads back.
     *
     * @throws OfflineMeshException when a name holds ',' or '=' or has
     *     spaces at its ends, which the text form cannot carry
     */
    public String toSpec() {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            byte[][] out = new byte[1][];
            NativeErrors.check(OfflineMeshNative.omMeshToSpec(mesh.handle(), out));
            return Text.taken(out);
        }
    }

    // ---- topology -------------------------------------------------------

    /**
     * Coordinates of {@code rank}, one per axis in mesh order.
     *
     * @throws OfflineMeshException ({@link Status#OUT_OF_RANGE}) for a rank outside 0..size-1
     */
    public int[] coordinate(int rank) {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long[] coord = new long[shape.length];
            NativeErrors.check(OfflineMeshNative.omMeshCoordinate(mesh.handle(), rank, coord));
            int[] result = new int[coord.length];
            for (int i = 0; i < coord.length; i++) {
                result[i] = Math.toIntExact(coord[i]);
            }
            return result;
        }
    }

    /**
     * The rank at {@code coordinate} (one value per axis, in mesh order); the
     * inverse of {@link #coordinate(int)}.
     *
     * @throws OfflineMeshException {@link Status#INVALID_ARGUMENT} for a wrong
     *     number of values, {@link Status#OUT_OF_RANGE} for a value outside its axis
     */
    public int rank(int... coordinate) {
        Objects.requireNonNull(coordinate, "coordinate");
        long[] coord = new long[coordinate.length];
        for (int i = 0; i < coord.length; i++) {
            coord[i] = coordinate[i];
        }
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long[] rank = new long[1];
            NativeErrors.check(OfflineMeshNative.omMeshRank(mesh.handle(), coord, rank));
            return Math.toIntExact(rank[0]);
        }
    }

    /**
     * Number of process groups over {@code axes}.
     *
     * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for an
     *     unknown or repeated axis or an empty item
     */
    public int groupCount(String... axes) {
        return groupShape(axes)[0];
    }

    /** Number of ranks in each group over {@code axes}; errors as {@link #groupCount}. */
    public int groupSize(String... axes) {
        return groupShape(axes)[1];
    }

    private int[] groupShape(String[] axes) {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            return groupShape(mesh, mesh.mask(axes));
        }
    }

    private static int[] groupShape(NativeMesh mesh, long mask) {
        long[] count = new long[1];
        long[] groupSize = new long[1];
        NativeErrors.check(OfflineMeshNative.omMeshGroupShape(mesh.handle(), mask, count, groupSize));
        return new int[] {Math.toIntExact(count[0]), Math.toIntExact(groupSize[0])};
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
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long mask = mesh.mask(axes);
            int[] gs = groupShape(mesh, mask);
            int count = gs[0];
            int groupSize = gs[1];
            int[] flat = new int[size];
            NativeErrors.check(OfflineMeshNative.omMeshGroups(mesh.handle(), mask, 0, count, flat));
            int[][] groups = new int[count][];
            for (int g = 0; g < count; g++) {
                groups[g] = Arrays.copyOfRange(flat, g * groupSize, (g + 1) * groupSize);
            }
            return groups;
        }
    }

    /**
     * Group number {@code index} over {@code axes} (in the order of {@link #groups}).
     *
     * @throws OfflineMeshException {@link Status#OUT_OF_RANGE} for an index
     *     outside 0..groupCount-1, or as {@link #groupCount}
     */
    public int[] group(int index, String... axes) {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long mask = mesh.mask(axes);
            int[] members = new int[groupShape(mesh, mask)[1]];
            NativeErrors.check(OfflineMeshNative.omMeshGroups(mesh.handle(), mask, index, 1, members));
            return members;
        }
    }

    /**
     * Index (in {@link #groups}) of the group over {@code axes} holding {@code rank}.
     *
     * @throws OfflineMeshException {@link Status#OUT_OF_RANGE} for a rank
     *     outside the mesh, or as {@link #groupCount}
     */
    public int groupIndex(int rank, String... axes) {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long mask = mesh.mask(axes);
            long[] index = new long[1];
            NativeErrors.check(OfflineMeshNative.omMeshGroupIndex(mesh.handle(), mask, rank, index));
            return Math.toIntExact(index[0]);
        }
    }

    /**
     * Members of the group over {@code axes} that holds {@code rank}.
     *
     * @throws OfflineMeshException as {@link #groupIndex}
     */
    public int[] groupOf(int rank, String... axes) {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long mask = mesh.mask(axes);
            int[] members = new int[groupShape(mesh, mask)[1]];
            NativeErrors.check(OfflineMeshNative.omMeshGroupOf(mesh.handle(), mask, rank, members));
            return members;
        }
    }

    /**
     * Host locality of the groups over {@code axes} when ranks r..r+k-1 share a
     * host (k = {@code ranksPerHost}; the last host may be partial).
     *
     * @throws OfflineMeshException {@link Status#INVALID_ARGUMENT} for
     *     {@code ranksPerHost} below 1, or as {@link #groupCount}
     */
    public Locality locality(int ranksPerHost, String... axes) {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long mask = mesh.mask(axes);
            long[] count = new long[1];
            long[] local = new long[1];
            long[] maxHosts = new long[1];
            NativeErrors.check(OfflineMeshNative.omMeshLocality(mesh.handle(), mask, ranksPerHost,
                    count, local, maxHosts));
            return new Locality(Math.toIntExact(count[0]), Math.toIntExact(local[0]),
                    Math.toIntExact(maxHosts[0]));
        }
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
        try (NativeMesh mesh = NativeMesh.of(this)) {
            NativeErrors.check(OfflineMeshNative.omValidateAxes(mesh.handle(), tpSize, cpSize, epSize));
        }
    }

    /**
     * The plan coordinate axes: the mesh's names, in mesh order, that are
     * tp, cp or ep with a plan size above 1 ("dp" never is one).
     *
     * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for a size below 1
     */
    public List<String> planDimNames(int tpSize, int cpSize, int epSize) {
        try (NativeMesh mesh = NativeMesh.of(this)) {
            byte[][] out = new byte[1][];
            NativeErrors.check(OfflineMeshNative.omPlanDimNames(mesh.handle(), tpSize, cpSize, epSize, out));
            String list = Text.taken(out);
            return list.isEmpty() ? List.of() : List.of(list.split(",", -1));
        }
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
        try (NativeMesh mesh = NativeMesh.of(this)) {
            long[] out = new long[1];
            NativeErrors.check(OfflineMeshNative.omExpertMesh(mesh.handle(), epSize, numExperts, out));
            return NativeMesh.take(out);
        }
    }

    // ---- values ---------------------------------------------------------

    byte[][] encodedNames() {
        return encodedNames;
    }

    long[] shapeAsLongs() {
        long[] result = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            result[i] = shape[i];
        }
        return result;
    }

    /** Equal when names and shape are equal, in the same order. */
    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof OfflineMesh)) {
            return false;
        }
        OfflineMesh that = (OfflineMesh) other;
        return names.equals(that.names) && Arrays.equals(shape, that.shape);
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
