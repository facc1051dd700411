package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlinemesh.MeshTest.assertRejected;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ParallelDims: fields, YAML projection, the world-size step, meshes from dims. */
class DimsTest {
    @Test
    void fieldsFlagsAndValues() {
        try (ParallelDims d = new ParallelDims().with(Dim.TP, 2).with(Dim.CP, 2).with(Flag.SEQUENCE_PARALLEL, true)) {
            assertEquals(2, d.get(Dim.TP));
            assertEquals(1, d.get(Dim.DP));
            assertTrue(d.getFlag(Flag.SEQUENCE_PARALLEL));
            assertFalse(d.getFlag(Flag.LOSS_PARALLEL));
            assertEquals("ParallelDims{\"cp_size\":2,\"dp_size\":1,\"ep_size\":1,\"loss_parallel\":false,\"pp_size\":1,"
                    + "\"sequence_parallel\":true,\"tp_size\":2}", d.toString());
            try (ParallelDims copy = d.copy()) {
                assertEquals(d, copy);
                assertEquals(d.hashCode(), copy.hashCode());
                copy.set(Dim.TP, 4);
                assertNotEquals(d, copy);
            }
            assertEquals(OfflineMesh.fromSpec("dp=1,cp=2,tp=2"), d.buildOfflineMesh());
            assertEquals(OfflineMesh.fromSpec("cp=2,dp=1,tp=2"), d.buildRuntimeMesh("tp-dp-cp"));
            assertEquals(d.buildOfflineMesh(), OfflineMeshes.buildOfflineMesh(d));
            assertEquals(d.buildRuntimeMesh("pp,dp,cp,tp"), OfflineMeshes.buildRuntimeMesh(d, "pp,dp,cp,tp"));
            assertRejected(Status.INVALID_ARGUMENT, () -> d.set(Dim.TP, -1), "tp_size must be >= 0, got -1");
            assertRejected(Status.OUT_OF_RANGE, () -> d.set(Dim.DP, 1L << 31), "2147483648");
            assertRejected(Status.INVALID_ARGUMENT, () -> d.buildRuntimeMesh("tp-dp"), "cp");
        }
        assertEquals("pp,dp,ep,cp,tp", OfflineMeshes.axisOrderNormalize("tp-cp-ep-dp-pp"));
        assertEquals("pp,dp,ep,cp,tp", OfflineMeshes.orderNormalize("tp-cp-ep-dp-pp"));
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMeshes.axisOrderNormalize("tp,tp"), "tp");
        assertEquals("tp_size", OfflineMeshes.dimFieldName(Dim.TP));
        assertEquals("tp", OfflineMeshes.dimAxisName(Dim.TP));
        assertEquals("loss_parallel", OfflineMeshes.flagFieldName(Flag.LOSS_PARALLEL));
    }

    @Test
    void yamlProjectionIsPureThenTheWorldSizeStep() {
        String yaml = "accelerator:\n  tp_size: 2\n  cp_size: 2\n  ep_size: 4\n  sequence_parallel: on\n";
        try (ParallelDims d = ParallelDims.parseYaml(yaml)) {
            assertEquals(new WorldSize(0, WorldSizeSource.UNRESOLVED), d.worldSize());
            assertFalse(d.dpGiven());
            d.applyWorldSize(16, WorldSizeSource.EXPLICIT);
            assertEquals(4, d.get(Dim.DP));
            assertEquals(new WorldSize(16, WorldSizeSource.EXPLICIT), d.worldSize());
            assertEquals("16 (given explicitly)", d.worldSize().toString());
            assertTrue(d.getFlag(Flag.SEQUENCE_PARALLEL));
        }
        try (ParallelDims d = ParallelDims.parse(yaml, 8)) {
            assertEquals(2, d.get(Dim.DP));
        }
        try (ParallelDims d = ParallelDims.parse("accelerator: {dp_size: 2, tp_size: 4}", 8)) {
            assertTrue(d.dpGiven());
        }
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.parse(yaml, 6), "6");
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.parse(yaml, -8),
                "world size must be >= 1 (or 0 to discover it), got -8");
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.parse("accelerator: {dp_size: 3, tp_size: 2}", 8), "");
        assertRejected(Status.PARSE, () -> ParallelDims.parseYaml("accelerator:\n  tp_size: \"2\"\n"),
                "line 2: tp_size must be an integer, got string \"2\"");
        assertRejected(Status.PARSE, () -> ParallelDims.parseYaml("accelerator: [1"), "");
        assertEquals(new WorldSize(12, WorldSizeSource.EXPLICIT), OfflineMeshes.worldSizeResolve(12));
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMeshes.worldSizeResolve(-1), "-1");
        assertEquals("WORLD_SIZE", WorldSizeSource.FROM_WORLD_SIZE.variable());
        assertEquals(null, WorldSizeSource.EXPLICIT.variable());
    }

    @Test
    void readYamlFiles(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("train.yaml");
        Files.writeString(file, "defaults: &d {tp_size: 2}\naccelerator:\n  <<: *d\n  pp_size: 2\n");
        try (ParallelDims d = ParallelDims.read(file.toString(), 8)) {
            assertEquals(OfflineMesh.of(List.of("dp", "cp", "tp", "pp"), 2, 1, 2, 2), d.buildOfflineMesh());
        }
        try (ParallelDims d = ParallelDims.readYaml(file.toString())) {
            assertEquals(2, d.get(Dim.PP));
        }
        IOException e = assertThrows(IOException.class, () -> ParallelDims.read(dir.resolve("no.yaml").toString(), 8));
        assertTrue(e.getMessage().contains("no.yaml"), e.getMessage());
        assertThrows(IOException.class, () -> ParallelDims.readYaml(dir.toString()));
    }

    @Test
    void strictYamlInBothModes(@TempDir Path dir) throws IOException {
        String typo = "accelerator:\n  tp_size: 2\n  tpsize: 4\n";
        try (Diagnostics warnings = new Diagnostics();
                ParallelDims d = ParallelDims.parseYamlChecked(typo, false, warnings)) {
            assertEquals(2, d.get(Dim.TP), "lenient: the known keys still count");
            assertEquals(1, warnings.count());
            assertEquals(DiagnosticKind.UNKNOWN_KEY, warnings.kindOf(0));
            assertEquals(3, warnings.line(0));
            assertTrue(warnings.message(0).contains("did you mean \"tp_size\""), warnings.message(0));
            assertEquals("Diagnostics" + warnings.messages(), warnings.toString());
            assertRejected(Status.OUT_OF_RANGE, () -> warnings.message(1), "");
        }
        assertRejected(Status.PARSE, () -> ParallelDims.parseYamlChecked(typo, true, null), "tpsize");
        try (Diagnostics none = new Diagnostics(); ParallelDims d = ParallelDims.parseYamlChecked(
                "accelerator: {tp_size: 2}", true, none)) {
            assertEquals(0, none.count());
        }
        try (Diagnostics empty = new Diagnostics()) {
            ParallelDims.parseYamlChecked("", false, empty).close();
            assertEquals(DiagnosticKind.EMPTY_CONFIG, empty.kindOf(0));
            assertEquals(0, empty.line(0));
        }
        String twice = "accelerator:\n  tp_size: 4\n  tp_size: 2\n";
        try (Diagnostics repeated = new Diagnostics();
                ParallelDims d = ParallelDims.parseYamlChecked(twice, false, repeated)) {
            assertEquals(2, d.get(Dim.TP), "the last of a repeated key counts");
            assertEquals(1, repeated.count());
            assertEquals(DiagnosticKind.DUPLICATE_KEY, repeated.kindOf(0));
            assertEquals(5, DiagnosticKind.DUPLICATE_KEY.swigValue());
            assertEquals(3, repeated.line(0));
            assertTrue(repeated.message(0).contains(
                    "key \"tp_size\" appears again in accelerator (line 2's value 4 is replaced by 2)"),
                    repeated.message(0));
        }
        assertRejected(Status.PARSE, () -> ParallelDims.parseYamlChecked(twice, true, null),
                "appears again");
        Path file = dir.resolve("mesh.json");
        Files.writeString(file, "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[8]}\n");
        try (Diagnostics w = new Diagnostics(); ParallelDims d = ParallelDims.readYamlChecked(file.toString(), false, w)) {
            assertEquals(DiagnosticKind.MESH_JSON, w.kindOf(0));
            assertTrue(w.message(0).startsWith(file.toString()), w.message(0));
        }
        assertRejected(Status.PARSE, () -> ParallelDims.readYamlChecked(file.toString(), true, null), "mesh");
        assertThrows(IOException.class, () -> ParallelDims.readYamlChecked(dir.resolve("no").toString(), true, null));
    }

    @Test
    void closedDimsThrowIllegalState() {
        ParallelDims d = new ParallelDims();
        d.close();
        assertThrows(IllegalStateException.class, () -> d.get(Dim.TP));
        assertThrows(IllegalStateException.class, d::buildOfflineMesh);
        assertEquals("ParallelDims{closed}", d.toString());
        assertArrayEquals(new long[] {1, 0}, new long[] {OfflineMeshes.worldSizeResolve(1).size(), 0});
    }
}
