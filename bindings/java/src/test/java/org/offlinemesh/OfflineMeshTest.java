package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Construction, accessors, value semantics and the text forms of OfflineMesh. */
class OfflineMeshTest {
    static OfflineMesh dpCpTp() {
        return OfflineMesh.of(List.of("dp", "cp", "tp"), 2, 2, 2);
    }

    /** Asserts the library rejected the input with this status and a message containing each fragment. */
    static OfflineMeshException assertRejected(Status status, Runnable call, String... fragments) {
        OfflineMeshException e = assertThrows(OfflineMeshException.class, call::run);
        assertEquals(status, e.status(), e.getMessage());
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment),
                    "message \"" + e.getMessage() + "\" lacks \"" + fragment + "\"");
        }
        return e;
    }

    static void assertNpe(String parameter, Runnable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call::run);
        assertEquals(parameter, e.getMessage());
    }

    @Test
    void accessors() {
        OfflineMesh mesh = dpCpTp();
        assertEquals(List.of("dp", "cp", "tp"), mesh.dimNames());
        assertArrayEquals(new int[] {2, 2, 2}, mesh.shape());
        assertEquals(3, mesh.ndim());
        assertEquals(8, mesh.size());
        assertEquals(2, mesh.size("cp"));
        assertEquals(1, mesh.size("pp"), "an absent axis has size 1");
        assertEquals(1, mesh.indexOf("cp"));
        assertEquals(-1, mesh.indexOf("ep"));
        assertTrue(mesh.hasDim("tp"));
        assertFalse(mesh.hasDim("TP"));
    }

    @Test
    void sizesAreIndependentPerAxis() {
        OfflineMesh mesh = OfflineMesh.of(List.of("dp", "tp", "pp"), 3, 4, 5);
        assertEquals(60, mesh.size());
        assertEquals(3, mesh.size("dp"));
        assertEquals(4, mesh.size("tp"));
        assertEquals(5, mesh.size("pp"));
    }

    @Test
    void valuesAreImmutable() {
        OfflineMesh mesh = dpCpTp();
        int[] shape = mesh.shape();
        shape[0] = 99;
        assertArrayEquals(new int[] {2, 2, 2}, mesh.shape());
        assertThrows(UnsupportedOperationException.class, () -> mesh.dimNames().add("ep"));
        List<String> names = new ArrayList<>(List.of("dp", "tp"));
        long[] sizes = {2, 4};
        OfflineMesh copy = OfflineMesh.of(names, sizes);
        names.set(0, "xx");
        sizes[0] = 7;
        assertEquals(List.of("dp", "tp"), copy.dimNames());
        assertArrayEquals(new int[] {2, 4}, copy.shape());
    }

    @Test
    void emptyMesh() {
        OfflineMesh empty = OfflineMesh.empty();
        assertEquals(0, empty.ndim());
        assertEquals(1, empty.size());
        assertEquals(List.of(), empty.dimNames());
        assertEquals(empty, OfflineMesh.of(List.of()));
        assertEquals("{\"mesh_dim_names\":[],\"mesh_shape\":[]}", empty.toJson());
        assertEquals("", empty.toSpec());
        assertEquals(empty, OfflineMesh.parse(""));
        assertEquals(empty, OfflineMesh.fromJson(empty.toJson()));
    }

    @Test
    void getIsTheSingleAxisMeshOrEmpty() {
        OfflineMesh mesh = dpCpTp();
        assertEquals(OfflineMesh.of(List.of("cp"), 2), mesh.get("cp"));
        OfflineMesh absent = mesh.get("ep");
        assertEquals(OfflineMesh.empty(), absent);
        assertEquals(0, absent.ndim());
        assertEquals(1, absent.size());
        OfflineMesh tall = OfflineMesh.of(List.of("dp", "tp"), 3, 7);
        assertEquals(List.of("tp"), tall.get("tp").dimNames());
        assertArrayEquals(new int[] {7}, tall.get("tp").shape());
    }

    @Test
    void equalityAndHashByNamesAndShape() {
        OfflineMesh a = dpCpTp();
        OfflineMesh b = OfflineMesh.of(List.of("dp", "cp", "tp"), 2, 2, 2);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a.libraryHash(), b.libraryHash());
        assertNotEquals(a.libraryHash(), OfflineMesh.parse("tp=2,dp=4").libraryHash());
        assertNotEquals(a, OfflineMesh.of(List.of("dp", "tp", "cp"), 2, 2, 2), "order matters");
        assertNotEquals(a, OfflineMesh.of(List.of("dp", "cp", "tp"), 2, 2, 4));
        assertNotEquals(a, OfflineMesh.of(List.of("dp", "cp"), 2, 2));
        assertNotEquals(a, null);
        assertNotEquals(a, "dp=2,cp=2,tp=2");
        assertEquals(a, a);
    }

    @Test
    void toStringShowsNamesAndShape() {
        assertEquals("OfflineMesh{mesh_dim_names=[dp, cp, tp], mesh_shape=[2, 2, 2]}", dpCpTp().toString());
        assertEquals("OfflineMesh{mesh_dim_names=[], mesh_shape=[]}", OfflineMesh.empty().toString());
    }

    @Test
    void canonicalJson() {
        assertEquals("{\"mesh_dim_names\":[\"dp\",\"cp\",\"tp\"],\"mesh_shape\":[2,2,2]}", dpCpTp().toJson());
        OfflineMesh parsed = OfflineMesh.fromJson(
                "  {\n \"mesh_shape\" : [4, 2],\n \"mesh_dim_names\" : [\"dp\", \"tp\"] }\n");
        assertEquals(OfflineMesh.of(List.of("dp", "tp"), 4, 2), parsed);
        assertEquals("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[4,2]}", parsed.toJson());
    }

    @Test
    void nonAsciiNamesRoundTrip() {
        // Outside the BMP too: the binding passes standard UTF-8, not JNI's modified UTF-8.
        List<String> names = List.of("données", "张量", "ax\uD83D\uDE00");
        OfflineMesh mesh = OfflineMesh.of(names, 2, 3, 1);
        assertEquals(names, mesh.dimNames());
        assertEquals(mesh, OfflineMesh.fromJson(mesh.toJson()));
        assertEquals(mesh, OfflineMesh.parse(mesh.toSpec()));
        assertEquals(3, mesh.size("张量"));
        assertArrayEquals(new int[] {0, 2, 0}, mesh.coordinate(2));
        assertEquals(3, mesh.groupCount("données"));
        assertArrayEquals(new int[][] {{0, 3}, {1, 4}, {2, 5}}, mesh.groups("données"));
    }

    @Test
    void specRoundTrip() {
        OfflineMesh mesh = OfflineMesh.parse(" dp=2, cp=2 ,tp=8 ");
        assertEquals(OfflineMesh.of(List.of("dp", "cp", "tp"), 2, 2, 8), mesh);
        assertEquals("dp=2,cp=2,tp=8", mesh.toSpec());
    }

    @Test
    void constructionErrors() {
        assertRejected(Status.LENGTH_MISMATCH, () -> OfflineMesh.of(List.of("dp", "tp"), 2), "2", "1");
        assertRejected(Status.LENGTH_MISMATCH, () -> OfflineMesh.of(List.of("dp"), 2, 2));
        assertRejected(Status.DUPLICATE_NAME, () -> OfflineMesh.of(List.of("dp", "tp", "dp"), 2, 2, 2), "dp");
        assertRejected(Status.EMPTY_NAME, () -> OfflineMesh.of(List.of("dp", ""), 2, 2));
        assertRejected(Status.BAD_SIZE, () -> OfflineMesh.of(List.of("dp", "tp"), 2, 0), "tp");
        assertRejected(Status.BAD_SIZE, () -> OfflineMesh.of(List.of("dp"), -3), "-3");
        assertRejected(Status.MESH_TOO_LARGE, () -> OfflineMesh.of(List.of("dp", "tp"), 65536, 32768));
        // the largest mesh is fine
        assertEquals(Integer.MAX_VALUE, OfflineMesh.of(List.of("dp"), Integer.MAX_VALUE).size());
        assertRejected(Status.INVALID_NAME, () -> OfflineMesh.of(List.of("d\0p"), 2), "dimNames[0]");
        // unpaired surrogates have no UTF-8 form: refused instead of turned into '?'
        assertRejected(Status.INVALID_NAME, () -> OfflineMesh.of(List.of("dp", "t\uD800p"), 2, 2),
                "dimNames[1]", "surrogate");
        assertRejected(Status.INVALID_NAME, () -> OfflineMesh.of(List.of("tp\uDC00"), 2), "dimNames[0]");
        assertRejected(Status.INVALID_NAME, () -> OfflineMesh.of(List.of("\uDE00\uD83D"), 2), "dimNames[0]");
        assertRejected(Status.PARSE, () -> OfflineMesh.fromJson(
                "{\"mesh_dim_names\":[\"\uD800\"],\"mesh_shape\":[2]}"), "json", "surrogate");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "[]",
        "{}",
        "{\"mesh_dim_names\":[\"dp\"]}",
        "{\"mesh_shape\":[2]}",
        "{\"mesh_dim_names\":\"dp\",\"mesh_shape\":[2]}",
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[\"2\"]}",
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2.5]}",
        "{\"mesh_dim_names\":[1],\"mesh_shape\":[2]}",
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]} x",
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}{}",
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2],\"extra\":1}",
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_dim_names\":[\"tp\"],\"mesh_shape\":[2]}",
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}\u0000",
        "{\"mesh_dim_names\":[\"d\\u0000p\"],\"mesh_shape\":[2]}",
        "{\"mesh_dim_names\":[\"dp\"",
    })
    void fromJsonRejectsAnythingButOneMesh(String json) {
        OfflineMeshException e = assertThrows(OfflineMeshException.class, () -> OfflineMesh.fromJson(json));
        assertTrue(e.status() == Status.PARSE || e.status() == Status.INVALID_NAME,
                json + " -> " + e.status() + ": " + e.getMessage());
        assertFalse(e.getMessage().isEmpty());
    }

    @Test
    void fromJsonValidatesTheMesh() {
        assertRejected(Status.LENGTH_MISMATCH,
                () -> OfflineMesh.fromJson("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2]}"));
        assertRejected(Status.DUPLICATE_NAME,
                () -> OfflineMesh.fromJson("{\"mesh_dim_names\":[\"dp\",\"dp\"],\"mesh_shape\":[2,2]}"), "dp");
        assertRejected(Status.EMPTY_NAME,
                () -> OfflineMesh.fromJson("{\"mesh_dim_names\":[\"\"],\"mesh_shape\":[2]}"));
        assertRejected(Status.BAD_SIZE,
                () -> OfflineMesh.fromJson("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[0]}"));
        assertRejected(Status.MESH_TOO_LARGE,
                () -> OfflineMesh.fromJson("{\"mesh_dim_names\":[\"a\",\"b\"],\"mesh_shape\":[65536,65536]}"));
    }

    @Test
    void specErrors() {
        assertRejected(Status.PARSE, () -> OfflineMesh.parse("dp"), "dp");
        assertRejected(Status.PARSE, () -> OfflineMesh.parse("dp=two"), "two");
        assertRejected(Status.DUPLICATE_NAME, () -> OfflineMesh.parse("dp=2,dp=2"), "dp");
        assertRejected(Status.BAD_SIZE, () -> OfflineMesh.parse("dp=0"));
        assertRejected(Status.PARSE, () -> OfflineMesh.parse("dp=2\0,tp=2"), "spec");
        // a name the text form cannot carry
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMesh.of(List.of("a,b"), 2).toSpec(), "a,b");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMesh.of(List.of("a=b"), 2).toSpec());
    }

    @Test
    void nullArgumentsNameTheParameter() {
        assertNpe("dimNames", () -> OfflineMesh.of(null, 2));
        assertNpe("dimNames[1]", () -> OfflineMesh.of(Arrays.asList("dp", null), 2, 2));
        assertNpe("shape", () -> OfflineMesh.of(List.of("dp"), (long[]) null));
        assertNpe("json", () -> OfflineMesh.fromJson(null));
        assertNpe("spec", () -> OfflineMesh.parse(null));
        OfflineMesh mesh = dpCpTp();
        assertNpe("dim", () -> mesh.size(null));
        assertNpe("dim", () -> mesh.get(null));
        assertNpe("dim", () -> mesh.indexOf(null));
        assertNpe("dim", () -> mesh.hasDim(null));
    }

    @Test
    void emptyMeshAndMultiAxisSelection() {
        assertEquals(OfflineMesh.empty(), OfflineMesh.of(List.of()));
        assertEquals(OfflineMesh.empty(), dpCpTp().get("zz"));
        assertEquals(1, OfflineMesh.empty().size());
        OfflineMesh mesh = OfflineMesh.parse("dp=2,cp=3,tp=4");
        assertEquals(OfflineMesh.parse("dp=2,cp=3"), mesh.get("cp", "dp")); // mesh order
        assertEquals(OfflineMesh.parse("tp=4"), mesh.get("tp", "pp"));      // absent skipped
        assertArrayEquals(new int[][] {{0, 4, 8, 12, 16, 20}, {1, 5, 9, 13, 17, 21},
            {2, 6, 10, 14, 18, 22}, {3, 7, 11, 15, 19, 23}}, mesh.groups("dp", "cp"));
    }

    @Test
    void closeReleasesTheNativeMesh() {
        OfflineMesh mesh = OfflineMesh.parse("dp=2,tp=4");
        OfflineMesh same = OfflineMesh.parse("dp=2,tp=4");
        try (OfflineMesh expert = mesh.expertMesh(4)) {
            assertArrayEquals(new int[][] {{0, 1, 2, 3}, {4, 5, 6, 7}}, expert.groups("ep"));
        }
        mesh.close();
        mesh.close(); // idempotent
        for (Runnable use : List.<Runnable>of(() -> mesh.groups("tp"), () -> mesh.coordinate(1),
                mesh::size, mesh::dimNames, mesh::toJson, () -> mesh.get("tp"), () -> mesh.validateAxes(1, 1, 1))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, use::run);
            assertEquals("mesh is closed", e.getMessage());
        }
        // value semantics survive close
        assertEquals(same, mesh);
        assertEquals(same.hashCode(), mesh.hashCode());
        assertEquals("OfflineMesh{mesh_dim_names=[dp, tp], mesh_shape=[2, 4]}", mesh.toString());
    }
}
