package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Hostile arguments through the public Java API (the sweep of docs/java.md
 * "Hostile arguments"): indexes below 0 or past their count, longs past
 * 2^31 and 2^32 (never truncated), null enums and arrays, strings with NUL
 * characters, unpaired surrogates or a megabyte of text, closed handles.
 * Each row is one call and either the value it must return or the status
 * and message it must throw: OfflineMeshException, never 0 or null without
 * a word, never SWIG's message, never a wrapped 18446744073709551615.
 */
class HostileArgumentsTest {
    static final OfflineMesh MESH = OfflineMesh.fromSpec("dp=2,cp=2,tp=2");
    static final OfflineMesh VIEW = MESH.flatten(new String[] {"dp", "tp"}, "dp_tp");
    static final Hierarchy HIERARCHY = Hierarchy.fromSpec("host=4,rack=8");
    static final Locality LOCALITY = HIERARCHY.locality(MESH, "tp");
    static final Diagnostics DIAGNOSTICS = new Diagnostics();
    static final World WORLD = World.of(8, new String[] {"dense", "flat"}, new OfflineMesh[] {MESH, VIEW});
    static final Preset PRESET = Preset.of("megatron", new String[] {"tensor_model_parallel_size=2"}, 8);
    static final long[] BAD_INDEXES = {-1, -2, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32, (1L << 32) + 1};

    static {
        ParallelDims.parseYamlChecked("accelerator:\n  tpsize: 2\n", false, DIAGNOSTICS).close();
    }

    @AfterAll
    static void close() {
        for (AutoCloseable c : new AutoCloseable[] {MESH, VIEW, HIERARCHY, LOCALITY, DIAGNOSTICS, WORLD, PRESET}) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    interface Call {
        Object run() throws Exception;
    }

    /** A call and what it must give: a value, or an exception of this status whose message holds the fragment. */
    record Row(String name, Call call, Object value, Status status, String fragment) {
    }

    static Row ok(String name, Call call, Object value) {
        return new Row(name, call, value, null, null);
    }

    static Row no(String name, Call call, Status status, String fragment) {
        return new Row(name, call, null, status, fragment);
    }

    /** The getters by index and their counts: each refuses every bad index, as its status-returning siblings do. */
    static void indexRows(List<Row> rows) {
        record Indexed(String name, java.util.function.LongFunction<Object> call, long count, String counted, Object first) {
        }
        List<Indexed> getters = List.of(
                new Indexed("OfflineMesh.name", MESH::name, 3, "axis %d is outside the 3 axes of the mesh", "dp"),
                new Indexed("OfflineMesh.dimSize", MESH::dimSize, 3, "axis %d is outside the 3 axes of the mesh", 2L),
                new Indexed("OfflineMesh.modeCount", VIEW::modeCount, 1, "axis %d is outside the 1 axes of the mesh", 2L),
                new Indexed("OfflineMesh.modes", VIEW::modes, 1, "axis %d is outside the 1 axes of the mesh",
                        new long[] {2, 4, 2, 1}),
                new Indexed("Hierarchy.levelName", HIERARCHY::levelName, 2,
                        "level %d is outside the 2 levels of the hierarchy", "host"),
                new Indexed("Hierarchy.ranksPerDomain", HIERARCHY::ranksPerDomain, 2,
                        "level %d is outside the 2 levels of the hierarchy", 4L),
                new Indexed("Hierarchy.domainOf", level -> HIERARCHY.domainOf(level, 5), 2,
                        "level %d is outside the 2 levels of the hierarchy", 1L),
                new Indexed("Hierarchy.domainLabel", level -> HIERARCHY.domainLabel(level, 1), 2,
                        "level %d is outside the 2 levels of the hierarchy", "1"),
                new Indexed("Locality.get", level -> LOCALITY.get(level, LocalityField.GROUPS_INSIDE), 2,
                        "level %d is outside the 2 levels of the report", 4L),
                new Indexed("Diagnostics.kind", DIAGNOSTICS::kind, 1,
                        "diagnostic %d is outside the 1 diagnostics of the list", DiagnosticKind.UNKNOWN_KEY.swigValue()),
                new Indexed("Diagnostics.kindOf", DIAGNOSTICS::kindOf, 1,
                        "diagnostic %d is outside the 1 diagnostics of the list", DiagnosticKind.UNKNOWN_KEY),
                new Indexed("Diagnostics.line", DIAGNOSTICS::line, 1,
                        "diagnostic %d is outside the 1 diagnostics of the list", 2L),
                new Indexed("Diagnostics.message", DIAGNOSTICS::message, 1,
                        "diagnostic %d is outside the 1 diagnostics of the list",
                        "line 2: unknown key \"tpsize\" in accelerator (did you mean \"tp_size\"?)"),
                new Indexed("World.viewName", WORLD::viewName, 2, "view %d is outside the 2 views of the world", "dense"),
                new Indexed("Preset.viewName", PRESET::viewName, 2, "view %d is outside the 2 views of the preset", "dense"),
                new Indexed("Preset.groupListName", PRESET::groupListName, PRESET.groupListCount(),
                        "group list %d is outside the " + PRESET.groupListCount() + " group lists of the preset", "dp_cp"));
        for (Indexed g : getters) {
            rows.add(ok(g.name + "(0)", () -> g.call.apply(0), g.first));
            long[] bad = java.util.stream.LongStream.concat(java.util.stream.LongStream.of(g.count), java.util.Arrays
                    .stream(BAD_INDEXES)).toArray();
            for (long index : bad) {
                rows.add(no(g.name + "(" + index + ")", () -> g.call.apply(index), Status.OUT_OF_RANGE,
                        String.format(g.counted, index)));
            }
        }
    }

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        indexRows(rows);
        // null enums: refused by name, as the library refuses a NULL argument
        rows.add(no("launchPlan(format null)", () -> MESH.launchPlan(2, 4, null, null, 0, null),
                Status.INVALID_ARGUMENT, "format is null"));
        rows.add(no("ParallelDims.get(null)", () -> new ParallelDims().get(null), Status.INVALID_ARGUMENT, "dim is null"));
        rows.add(no("ParallelDims.with(null dim)", () -> new ParallelDims().with((Dim) null, 2),
                Status.INVALID_ARGUMENT, "dim is null"));
        rows.add(no("ParallelDims.setFlag(null)", () -> { new ParallelDims().setFlag(null, true); return null; },
                Status.INVALID_ARGUMENT, "flag is null"));
        rows.add(no("applyWorldSize(8, null)", () -> { new ParallelDims().applyWorldSize(8, null); return null; },
                Status.INVALID_ARGUMENT, "source is null"));
        rows.add(no("Locality.get(0, null)", () -> LOCALITY.get(0, null), Status.INVALID_ARGUMENT, "field is null"));
        rows.add(no("statusName(null)", () -> OfflineMeshes.statusName(null), Status.INVALID_ARGUMENT, "status is null"));
        rows.add(no("dimAxisName(null)", () -> OfflineMeshes.dimAxisName(null), Status.INVALID_ARGUMENT, "dim is null"));
        rows.add(ok("dimAxisName(TP)", () -> OfflineMeshes.dimAxisName(Dim.TP), "tp"));
        // null arrays and lists reach C as (NULL, 0), as every other array does
        rows.add(no("World.of(views null)", () -> World.of(8, new String[] {"dense"}, null),
                Status.LENGTH_MISMATCH, "1 view names but 0 views"));
        rows.add(no("OfflineMesh.of(null list)", () -> OfflineMesh.of(null, 2), Status.LENGTH_MISMATCH,
                "mesh_dim_names has 0 entries but mesh_shape has 1"));
        rows.add(no("World.of(views {null})", () -> World.of(8, new String[] {"dense"}, new OfflineMesh[] {null}),
                Status.INVALID_ARGUMENT, "view 0 is NULL"));
        rows.add(ok("groups((String[]) null): the empty set", () -> MESH.groups((String[]) null).length, 8));
        // strings C cannot take: refused naming the value (escaped, one line, at most 80 characters)
        rows.add(no("fromSpec(NUL)", () -> OfflineMesh.fromSpec("dp=2\0tp=2"), Status.INVALID_ARGUMENT,
                "\"dp=2\\x00tp=2\" contains a NUL character at index 4"));
        rows.add(no("slice(NUL name)", () -> MESH.slice("tp\0"), Status.INVALID_ARGUMENT,
                "\"tp\\x00\" contains a NUL character at index 2"));
        rows.add(no("size(lone high surrogate)", () -> MESH.size("t\uD800p"), Status.INVALID_ARGUMENT,
                "\"t\\uD800p\" has an unpaired surrogate U+D800 at index 1 (no UTF-8 form)"));
        rows.add(no("of(lone low surrogate after a pair)", () -> OfflineMesh.of(List.of("\uD834\uDD1E\uDD1E"), 2),
                Status.INVALID_ARGUMENT, "\"\uD834\uDD1E\\uDD1E\" has an unpaired surrogate U+DD1E at index 2"));
        rows.add(no("fromJson(surrogate)", () -> OfflineMesh.fromJson("{\"mesh_dim_names\":[\"\uDC00\"]}"),
                Status.INVALID_ARGUMENT, "has an unpaired surrogate U+DC00 at index 20"));
        String huge = "x".repeat(1 << 20);
        rows.add(no("get(1 MiB + NUL): one bounded line", () -> MESH.get(huge + "\n\0"), Status.INVALID_ARGUMENT,
                "\"" + "x".repeat(80) + "...\" contains a NUL character at index 1048577"));
        rows.add(ok("size(1 MiB name): absent", () -> MESH.size(huge), 1L));
        rows.add(ok("groupOf(7, surrogate pair name) on a mesh of it",
                () -> OfflineMesh.of(List.of("\uD834\uDD1E"), 2).groupOf(1, "\uD834\uDD1E"), new int[] {0, 1}));
        // longs past 2^31 and 2^32 reach C whole (a truncation to 32 bits would read 2)
        rows.add(no("rank(2^32+2, 0, 0)", () -> MESH.rank((1L << 32) + 2, 0, 0), Status.OUT_OF_RANGE,
                "coordinate 4294967298 is outside axis dp of size 2"));
        rows.add(no("coordinate(2^32+1)", () -> MESH.coordinate((1L << 32) + 1), Status.OUT_OF_RANGE,
                "rank 4294967297 is outside the mesh of 8 ranks"));
        rows.add(no("coordinate(Long.MIN_VALUE)", () -> MESH.coordinate(Long.MIN_VALUE), Status.OUT_OF_RANGE,
                "rank -9223372036854775808 is outside the mesh of 8 ranks"));
        rows.add(no("groupOf(-1, tp)", () -> MESH.groupOf(-1, "tp"), Status.OUT_OF_RANGE, "rank -1 is outside"));
        rows.add(no("group(2^32, tp)", () -> MESH.group(1L << 32, "tp"), Status.OUT_OF_RANGE,
                "1 groups from group 4294967296 are outside the 4 groups"));
        rows.add(no("new OfflineMesh(size 2^32+2)", () -> new OfflineMesh(new String[] {"a"}, new long[] {(1L << 32) + 2}),
                Status.MESH_TOO_LARGE, "size 4294967298"));
        rows.add(no("ParallelDims.set(TP, 2^32+2)", () -> new ParallelDims().with(Dim.TP, (1L << 32) + 2),
                Status.OUT_OF_RANGE, "tp_size must be at most 2147483647, got 4294967298"));
        rows.add(no("worldSizeResolve(2^31)", () -> OfflineMeshes.worldSizeResolve(1L << 31), Status.OUT_OF_RANGE,
                "world size 2147483648 exceeds 2147483647"));
        rows.add(no("worldSizeResolve(-8)", () -> OfflineMeshes.worldSizeResolve(-8), Status.INVALID_ARGUMENT,
                "world size must be >= 1 (or 0 to discover it), got -8"));
        rows.add(ok("worldSizeResolve(2^31-1)", () -> OfflineMeshes.worldSizeResolve(Integer.MAX_VALUE).size(),
                (long) Integer.MAX_VALUE));
        rows.add(no("groupShape(mask -1)", () -> MESH.groupShape(-1), Status.OUT_OF_RANGE,
                "axis mask 0xffffffffffffffff selects axis 63 but the mesh has 3 axes"));
        rows.add(no("view(offset 2^32)", () -> OfflineMesh.view(new String[] {"a"}, new long[] {2}, new long[] {1},
                1L << 32), Status.OUT_OF_RANGE, "view offset 4294967296 is outside 0..2^31-1"));
        rows.add(no("World.of(size 2^31)", () -> World.of(1L << 31, new String[] {"dense"}, new OfflineMesh[] {MESH}),
                Status.OUT_OF_RANGE, "world size 2147483648 is outside 1..2^31-1"));
        rows.add(no("Hierarchy.domainOf(0, -1)", () -> HIERARCHY.domainOf(0, -1), Status.OUT_OF_RANGE, "-1"));
        rows.add(ok("launchCheck(Long.MAX_VALUE nodes): the product is said, not wrapped",
                () -> MESH.launchCheck(null, Long.MAX_VALUE, 2, null),
                "world size 8 (the mesh) is not nnodes*nproc_per_node = 9223372036854775807*2, over 2^63-1\n"));
        rows.add(no("launchCheck(nproc 2^31)", () -> MESH.launchCheck(null, 1, 1L << 31, null), Status.INVALID_ARGUMENT,
                "nproc_per_node must be 1..2147483647, got 2147483648"));
        rows.add(no("launchPlan(Long.MAX_VALUE nodes)", () -> MESH.launchPlan(Long.MAX_VALUE, 2, LaunchFormat.SLURM,
                null, 0, null), Status.INVALID_ARGUMENT, "not nnodes*nproc_per_node = 9223372036854775807*2"));
        rows.add(no("resliceExperts(ep 2^32)", () -> MESH.resliceExperts(1L << 32, 0), Status.INVALID_ARGUMENT,
                "ep_size 4294967296 does not divide the dense region of 8 ranks"));
        rows.add(no("Preset.of(deepspeed, 2^31 ranks)", () -> Preset.of("deepspeed", new String[0], 1L << 31),
                Status.OUT_OF_RANGE, "world size 2147483648 is beyond 2^31-1"));
        rows.add(no("Preset.check(torchtitan, 2^62 ranks)", () -> Preset.check("torchtitan", null, 1L << 62),
                Status.OUT_OF_RANGE, "world size 4611686018427387904 is beyond 2^31-1"));
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> hostileArgumentTable() {
        return rows().stream().map(row -> DynamicTest.dynamicTest(row.name, () -> {
            if (row.status == null) {
                Object value = row.call.run();
                if (row.value instanceof long[] expected) {
                    assertArrayEquals(expected, (long[]) value);
                } else if (row.value instanceof int[] expected) {
                    assertArrayEquals(expected, (int[]) value);
                } else {
                    assertEquals(row.value, value);
                }
                return;
            }
            Object value;
            try {
                value = row.call.run();
            } catch (OfflineMeshException e) {
                assertEquals(row.status, e.status(), e.getMessage());
                assertTrue(e.getMessage().contains(row.fragment),
                        "\"" + BadInputsTest.abbreviate(e.getMessage()) + "\" lacks \"" + row.fragment + "\"");
                assertTrue(e.getMessage().length() <= 300 && !e.getMessage().contains("\n"),
                        "a message is one short line: " + BadInputsTest.abbreviate(e.getMessage()));
                return;
            } catch (Exception e) {
                throw new AssertionError("expected OfflineMeshException(" + row.status + "), got " + e, e);
            }
            fail("expected OfflineMeshException(" + row.status + "), the call returned " + Objects.toString(value));
        }));
    }

    /** Every handle refuses every method after close(), in the receiver or as an argument. */
    @Test
    void closedHandles() {
        OfflineMesh mesh = OfflineMesh.fromSpec("dp=2,tp=2");
        Hierarchy hierarchy = Hierarchy.fromSpec("host=2");
        Locality locality = hierarchy.locality(mesh, "tp");
        Diagnostics diagnostics = new Diagnostics();
        World world = World.of(4, new String[] {"m"}, new OfflineMesh[] {mesh});
        Preset preset = Preset.of("torchtitan", new String[] {"tp=2"}, 4);
        ParallelDims dims = new ParallelDims();
        for (AutoCloseable c : new AutoCloseable[] {mesh, hierarchy, locality, diagnostics, world, preset, dims}) {
            try {
                c.close();
                c.close(); // idempotent
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        List<org.junit.jupiter.api.function.Executable> calls = List.of(() -> mesh.name(0), () -> mesh.groups("tp"),
                () -> mesh.coordinate(0), () -> hierarchy.levelName(0), () -> locality.get(0, LocalityField.GROUPS_INSIDE),
                () -> diagnostics.kindOf(0), () -> world.viewName(0), () -> preset.viewName(0), () -> dims.get(Dim.TP),
                () -> world.view("m"), () -> preset.world(), () -> hierarchy.toJson());
        for (org.junit.jupiter.api.function.Executable call : calls) {
            assertEquals("used after close()", assertThrows(IllegalStateException.class, call).getMessage());
        }
        try (OfflineMesh open = OfflineMesh.fromSpec("dp=2,tp=2"); Hierarchy h = Hierarchy.fromSpec("host=2")) {
            assertEquals("OfflineMesh used after close()",
                    assertThrows(IllegalStateException.class, () -> h.locality(mesh, "tp")).getMessage());
            assertEquals("Hierarchy used after close()",
                    assertThrows(IllegalStateException.class, () -> open.locality(hierarchy, "tp")).getMessage());
            assertEquals("OfflineMesh used after close()", assertThrows(IllegalStateException.class,
                    () -> World.of(4, new String[] {"m"}, new OfflineMesh[] {mesh})).getMessage());
            assertEquals("Diagnostics used after close()", assertThrows(IllegalStateException.class,
                    () -> ParallelDims.parseYamlChecked("a: 1\n", false, diagnostics)).getMessage());
            assertEquals("[[0, 1], [2, 3]]", java.util.Arrays.deepToString(open.groups("tp")));
        }
        assertEquals("OfflineMesh{closed}", mesh.toString());
    }

    /** What a handle made from others keeps after they are closed: its own copy. */
    @Test
    void objectsOutliveTheirSources() {
        OfflineMesh base = OfflineMesh.fromSpec("dp=2,cp=2,tp=2");
        Hierarchy hierarchy = Hierarchy.fromSpec("host=4");
        try (OfflineMesh slice = base.slice("dp", "tp"); Locality locality = hierarchy.locality(base, "tp");
                World world = World.of(8, new String[] {"base"}, new OfflineMesh[] {base})) {
            base.close();
            hierarchy.close();
            assertEquals("[[0, 1], [2, 3], [4, 5], [6, 7]]", java.util.Arrays.deepToString(slice.groups("tp")));
            assertEquals(4, locality.get(0, LocalityField.GROUPS_INSIDE));
            try (OfflineMesh view = world.view("base")) {
                world.close();
                assertEquals(List.of("dp", "cp", "tp"), view.dimNames());
            }
        }
    }
}
