package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** OfflineMesh: construction, values, topology, views, errors, close(). */
class MeshTest {
    /** Runs {@code call}, which must throw OfflineMeshException with this status and message fragment. */
    static OfflineMeshException assertRejected(Status status, Executable call, String fragment) {
        OfflineMeshException e = assertThrows(OfflineMeshException.class, call);
        assertEquals(status, e.status(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "\"" + e.getMessage() + "\" lacks \"" + fragment + "\"");
        return e;
    }

    @Test
    void constructionAndValues() {
        try (OfflineMesh m = OfflineMesh.of(List.of("dp", "cp", "tp"), 2, 2, 2)) {
            assertEquals(List.of("dp", "cp", "tp"), m.dimNames());
            assertArrayEquals(new long[] {2, 2, 2}, m.shape());
            assertEquals(3, m.ndim());
            assertEquals(8, m.size());
            assertEquals(2, m.size("tp"));
            assertEquals(1, m.size("pp"), "an absent axis has size 1");
            assertEquals(2, m.indexOf("tp"));
            assertEquals(-1, m.indexOf("pp"));
            assertEquals("tp", m.name(2));
            assertEquals("OfflineMesh{mesh_dim_names=[dp, cp, tp], mesh_shape=[2, 2, 2]}", m.toString());
            assertEquals("{\"mesh_dim_names\":[\"dp\",\"cp\",\"tp\"],\"mesh_shape\":[2,2,2]}", m.toJson());
            assertEquals("dp=2,cp=2,tp=2", m.toSpec());
            OfflineMesh same = OfflineMesh.fromSpec("dp=2, cp=2, tp=2");
            assertEquals(m, same);
            assertEquals(m.hashCode(), same.hashCode());
            assertEquals(m.hash(), OfflineMesh.fromJson(m.toJson()).hash());
            assertNotEquals(m, OfflineMesh.fromSpec("dp=2,tp=2,cp=2"));
            assertNotEquals(m, "dp=2,cp=2,tp=2");
            assertEquals("OfflineMesh{mesh_dim_names=[tp], mesh_shape=[2]}", m.get("tp").toString());
            assertEquals(0, m.get("pp").ndim(), "absent axis: the empty mesh");
            assertTrue(m.isPlain());
            assertEquals(1, OfflineMesh.fromSpec("").size());
            assertEquals(List.of("d\u00e9", "\uD83D\uDE00"), OfflineMesh.of(List.of("d\u00e9", "\uD83D\uDE00"), 2, 3).dimNames());
        }
    }

    @Test
    void constructionErrors() {
        assertRejected(Status.DUPLICATE_NAME, () -> OfflineMesh.of(List.of("dp", "dp"), 2, 2), "dp");
        assertRejected(Status.EMPTY_NAME, () -> OfflineMesh.of(List.of(""), 2), "empty");
        assertRejected(Status.BAD_SIZE, () -> OfflineMesh.of(List.of("dp"), 0), "0");
        assertRejected(Status.LENGTH_MISMATCH, () -> OfflineMesh.of(List.of("dp"), 2, 2), "");
        assertRejected(Status.MESH_TOO_LARGE, () -> OfflineMesh.of(List.of("a", "b"), 65536, 65536), "");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMesh.of(List.of("a\0b"), 2), "NUL");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMesh.of(List.of("a\uD800"), 2), "unpaired surrogate U+D800 at index 1");
        // a null array is Java's (NULL, 0): an empty list
        assertRejected(Status.LENGTH_MISMATCH, () -> new OfflineMesh(null, new long[] {2}), "0 entries");
        assertRejected(Status.PARSE, () -> OfflineMesh.fromJson("{\"mesh_dim_names\":[\"dp\"]"), "");
        assertRejected(Status.PARSE, () -> OfflineMesh.fromSpec("dp=x"), "dp=x");
    }

    @Test
    void loadJsonReadsAFileAndReportsIo(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("m.json");
        Files.writeString(file, "{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}");
        assertEquals(OfflineMesh.fromSpec("dp=2,tp=4"), OfflineMesh.loadJson(file.toString()));
        IOException e = assertThrows(IOException.class, () -> OfflineMesh.loadJson(dir.resolve("none.json").toString()));
        assertTrue(e.getMessage().contains("none.json"), e.getMessage());
    }

    @Test
    void topologyOfTheWorkedExample() {
        OfflineMesh m = OfflineMesh.fromSpec("dp=2,cp=2,tp=2");
        assertArrayEquals(new long[] {1, 0, 1}, m.coordinate(5));
        assertEquals(5, m.rank(1, 0, 1));
        assertArrayEquals(new int[][] {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, m.groups("tp"));
        assertArrayEquals(new int[][] {{0, 2}, {1, 3}, {4, 6}, {5, 7}}, m.groups("cp"));
        assertArrayEquals(new int[][] {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, m.groups("dp"));
        assertArrayEquals(new int[][] {{0, 2, 4, 6}, {1, 3, 5, 7}}, m.groups("cp", "dp"), "names in any order");
        assertArrayEquals(new int[][] {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}, m.groups());
        assertArrayEquals(new int[] {4, 5}, m.group(2, "tp"));
        assertEquals(4, m.groupCount("tp"));
        assertEquals(2, m.groupSize("tp"));
        assertEquals(2, m.groupIndex(5, "tp"));
        assertArrayEquals(new int[] {1, 5}, m.groupOf(5, "dp"));
        assertArrayEquals(new long[] {0, 2}, m.axisIndices("tp", "dp"));
        assertEquals(new HostLocality(4, 4, 1), m.locality(2, "tp"));
        assertEquals(new HostLocality(4, 0, 2), m.locality(4, "dp"));
        assertFalse(m.locality(4, "dp").allLocal());
        // 1.0 calls: axis masks and caller arrays
        assertEquals(5, m.axes("dp,tp"));
        long[] coord = new long[3];
        m.coordinateInto(6, coord);
        assertArrayEquals(new long[] {1, 1, 0}, coord);
        assertArrayEquals(new long[] {4, 2}, m.groupShape(4));
        int[] into = new int[4];
        m.groups(4, 1, 2, into);
        assertArrayEquals(new int[] {2, 3, 4, 5}, into);
        assertEquals(2, m.groupIndex(4, 5));
        int[] of = new int[2];
        m.groupOf(1, 5, of);
        assertArrayEquals(new int[] {1, 5}, of);
        assertArrayEquals(new long[] {4, 0, 2}, m.locality(1, 4));
    }

    @Test
    void bulkCallsGrowPastTheFirstGuess() {
        OfflineMesh big = OfflineMesh.fromSpec("dp=4,tp=1000");
        int[] group = big.groupOf(3999, "tp");
        assertEquals(1000, group.length);
        assertEquals(3000, group[0]);
        assertEquals(3999, group[999]);
        int[][] all = big.groups("dp");
        assertEquals(1000, all.length);
        assertArrayEquals(new int[] {999, 1999, 2999, 3999}, all[999]);
        String[] names = new String[70];
        long[] sizes = new long[70];
        for (int i = 0; i < 70; i++) {
            names[i] = "a" + i;
            sizes[i] = 1;
        }
        OfflineMesh wide = new OfflineMesh(names, sizes);
        assertEquals(70, wide.coordinate(0).length, "more than 64 axes");
        assertEquals(70, wide.axisIndices(names).length);
    }

    @Test
    void topologyErrors() {
        OfflineMesh m = OfflineMesh.fromSpec("dp=2,cp=2,tp=2");
        assertRejected(Status.UNKNOWN_AXIS, () -> m.groups("ep"), "axis \"ep\" is not in the mesh (dp, cp, tp)");
        assertRejected(Status.DUPLICATE_NAME, () -> m.groupOf(0, "tp", "tp"), "tp");
        assertRejected(Status.OUT_OF_RANGE, () -> m.coordinate(8), "8");
        assertRejected(Status.OUT_OF_RANGE, () -> m.coordinate(-1), "-1");
        assertRejected(Status.INVALID_ARGUMENT, () -> m.rank(1, 0), "");
        assertRejected(Status.OUT_OF_RANGE, () -> m.rank(2, 0, 0), "");
        assertRejected(Status.OUT_OF_RANGE, () -> m.group(4, "tp"), "");
        assertRejected(Status.INVALID_ARGUMENT, () -> m.locality(0, "tp"), "");
        assertRejected(Status.INVALID_ARGUMENT, () -> m.axes("tp,ep"), "ep");
    }

    @Test
    void preflight() {
        OfflineMesh m = OfflineMesh.fromSpec("dp=4,cp=2,tp=2");
        m.validatePlan(2, 2, 4);
        OfflineMeshes.validateAxes(m, 2, 2, 4);
        assertRejected(Status.INVALID_ARGUMENT, () -> m.validatePlan(4, 1, 1), "tp");
        assertEquals("cp,tp", m.planAxes(2, 2, 4));
        assertEquals("cp,tp", OfflineMeshes.planDimNames(m, 2, 2, 4));
        try (OfflineMesh e = m.resliceExperts(4, 64)) {
            assertEquals(OfflineMesh.fromSpec("edp=4,ep=4"), e);
            assertArrayEquals(new int[] {0, 1, 2, 3}, e.groups("ep")[0]);
        }
        assertEquals(OfflineMeshes.expertMesh(m, 4, 0), m.resliceExperts(4, 0));
        assertRejected(Status.INVALID_ARGUMENT, () -> m.resliceExperts(3, 0), "3");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMeshes.validateAxes(null, 1, 1, 1), "NULL");
    }

    @Test
    void viewsFlattenUnflattenSlice() {
        OfflineMesh m = OfflineMesh.fromSpec("dp=2,cp=2,tp=2");
        try (OfflineMesh f = m.flatten(new String[] {"dp", "tp"}, null)) {
            assertEquals(List.of("dp_tp"), f.dimNames());
            assertFalse(f.isPlain());
            assertArrayEquals(new long[] {2, 4, 2, 1}, f.modes(0));
            assertEquals(2, f.modeCount(0));
            assertEquals(2, f.instanceCount());
            assertArrayEquals(new int[][] {{0, 1, 4, 5}, {2, 3, 6, 7}}, f.groups("dp_tp"));
            assertArrayEquals(new long[] {2}, f.coordinate(4));
            try (OfflineMesh u = f.unflatten("dp_tp", new long[] {2, 2}, new String[] {"x", "y"})) {
                assertArrayEquals(new int[][] {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, u.groups("x"));
                assertArrayEquals(new int[][] {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, u.groups("y"));
            }
            assertEquals(f, OfflineMesh.viewFromJson(f.toViewJson()));
            assertTrue(f.toString().contains("\"layout\":[[[2,4],[2,1]]]"), f.toString());
        }
        try (OfflineMesh s = m.slice("tp", "dp")) {
            assertEquals(List.of("tp", "dp"), s.dimNames());
            assertEquals(8, s.rankCount());
            assertEquals(2, s.instanceCount());
            assertArrayEquals(new long[] {1, 1}, s.coordinate(5));
        }
        try (OfflineMesh v = OfflineMesh.view(new String[] {"a"}, new long[] {2}, new long[] {4}, 1)) {
            assertEquals(1, v.offset());
            assertEquals(6, v.extent());
            assertTrue(v.holds(5));
            assertFalse(v.holds(2));
            assertArrayEquals(new long[] {1}, v.coordinate(5));
        }
        try (OfflineMesh v = OfflineMesh.viewOfModes(new String[] {"dp_tp"}, new long[] {2}, new long[] {2, 4, 2, 1},
                new long[] {2, 2}, 0)) {
            assertArrayEquals(new long[] {2, 2}, v.instanceModes());
            assertEquals(1, v.instanceModeCount());
        }
        assertRejected(Status.AXIS_ORDER, () -> m.flatten(new String[] {"tp", "dp"}, null), "'tp' and 'dp'");
        assertRejected(Status.SIZE_MISMATCH, () -> m.unflatten("cp", new long[] {3, 2}, new String[] {"a", "b"}), "6");
        assertRejected(Status.UNKNOWN_AXIS, () -> m.slice("dp", "ep"), "ep");
        assertEquals(0, m.slice("ep").ndim(), "a single absent name: the empty mesh (DOMAIN.md)");
        assertRejected(Status.RANK_COLLISION, () -> OfflineMesh.view(new String[] {"a", "b"}, new long[] {2, 2},
                new long[] {1, 1}, 0), "appears twice");
    }

    @Test
    void closedMeshThrowsIllegalState() {
        OfflineMesh m = OfflineMesh.fromSpec("dp=2");
        OfflineMesh other = OfflineMesh.fromSpec("dp=2");
        m.close();
        m.close(); // idempotent
        assertThrows(IllegalStateException.class, m::size);
        assertThrows(IllegalStateException.class, m::toJson);
        assertThrows(IllegalStateException.class, () -> m.groups("dp"));
        assertThrows(IllegalStateException.class, () -> other.equal(m));
        assertEquals("OfflineMesh{closed}", m.toString());
    }

    @Test
    void statusNamesAndExceptionMapping() {
        assertEquals("OM_ERR_PARSE", Status.PARSE.cName());
        assertEquals("parse error", Status.PARSE.description());
        assertEquals(13, Status.UNKNOWN_AXIS.swigValue());
        assertTrue(OfflineMeshException.create(5, "x".getBytes()) instanceof OutOfMemoryError);
        assertTrue(OfflineMeshException.create(4, "y".getBytes()) instanceof IOException);
        OfflineMeshException e = (OfflineMeshException) OfflineMeshException.create(3, "caf\u00e9".getBytes(
                java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(Status.PARSE, e.status());
        assertEquals("caf\u00e9", e.getMessage());
        assertTrue(OfflineMeshes.versionString().startsWith("1."));
        assertTrue(OfflineMeshes.versionNumber() >= 10100);
    }
}
