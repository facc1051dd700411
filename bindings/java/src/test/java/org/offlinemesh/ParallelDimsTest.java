package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlinemesh.OfflineMeshTest.assertNpe;
import static org.offlinemesh.OfflineMeshTest.assertRejected;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ParallelDims values, the mesh building rules and runtime axis orders. */
class ParallelDimsTest {
    static OfflineMesh mesh(String spec) {
        return OfflineMesh.parse(spec);
    }

    @Test
    void defaults() {
        ParallelDims d = ParallelDims.defaults();
        assertEquals(1, d.dpSize());
        assertEquals(1, d.tpSize());
        assertEquals(1, d.cpSize());
        assertEquals(1, d.epSize());
        assertEquals(1, d.ppSize());
        assertFalse(d.sequenceParallel());
        assertFalse(d.lossParallel());
        assertEquals(d, ParallelDims.builder().build());
        assertEquals("{\"cp_size\":1,\"dp_size\":1,\"ep_size\":1,\"loss_parallel\":false,\"pp_size\":1,"
                + "\"sequence_parallel\":false,\"tp_size\":1}", d.toJson());
    }

    @Test
    void builderSetsEveryField() {
        ParallelDims d = ParallelDims.builder().dpSize(8).tpSize(4).cpSize(2).epSize(16).ppSize(3)
                .sequenceParallel(true).lossParallel(true).build();
        assertEquals(8, d.dpSize());
        assertEquals(4, d.tpSize());
        assertEquals(2, d.cpSize());
        assertEquals(16, d.epSize());
        assertEquals(3, d.ppSize());
        assertTrue(d.sequenceParallel());
        assertTrue(d.lossParallel());
        assertEquals("{\"cp_size\":2,\"dp_size\":8,\"ep_size\":16,\"loss_parallel\":true,\"pp_size\":3,"
                + "\"sequence_parallel\":true,\"tp_size\":4}", d.toJson());
        assertEquals("ParallelDims[dpSize=8, tpSize=4, cpSize=2, epSize=16, ppSize=3,"
                + " sequenceParallel=true, lossParallel=true]", d.toString());
    }

    @Test
    void valueSemantics() {
        ParallelDims a = ParallelDims.builder().tpSize(2).build();
        ParallelDims b = ParallelDims.defaults().toBuilder().tpSize(2).build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, ParallelDims.defaults());
        assertNotEquals(a, a.toBuilder().lossParallel(true).build());
        assertNotEquals(a, a.toBuilder().sequenceParallel(true).build());
        assertNotEquals(a, a.toBuilder().epSize(2).build());
        assertNotEquals(a, null);
        assertEquals(2, a.toBuilder().build().tpSize(), "toBuilder starts from the values");
        assertSame(ParallelDims.defaults(), ParallelDims.defaults());
    }

    @Test
    void negativeSizesAreRejectedByTheLibrary() {
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.builder().dpSize(-1).build(), "-1");
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.builder().tpSize(-2).build(), "-2");
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.builder().cpSize(-3).build(), "-3");
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.builder().epSize(-4).build(), "-4");
        assertRejected(Status.INVALID_ARGUMENT, () -> ParallelDims.builder().ppSize(-5).build(), "-5");
        assertEquals(0, ParallelDims.builder().dpSize(0).build().dpSize(), "0 means not declared");
    }

    @Test
    void meshRules() {
        assertEquals(mesh("dp=1,cp=1,tp=1"), OfflineMeshes.buildOfflineMesh(ParallelDims.defaults()));
        assertEquals(mesh("dp=2,cp=2,tp=2"),
                ParallelDims.builder().dpSize(2).cpSize(2).tpSize(2).build().buildOfflineMesh());
        // pp only when > 1, and last
        assertEquals(mesh("dp=2,cp=1,tp=4,pp=2"),
                ParallelDims.builder().dpSize(2).tpSize(4).ppSize(2).build().buildOfflineMesh());
        assertEquals(mesh("dp=2,cp=1,tp=4"),
                ParallelDims.builder().dpSize(2).tpSize(4).ppSize(1).build().buildOfflineMesh());
        // ep is never an axis
        OfflineMesh withEp = ParallelDims.builder().dpSize(4).epSize(4).build().buildOfflineMesh();
        assertEquals(mesh("dp=4,cp=1,tp=1"), withEp);
        assertFalse(withEp.hasDim("ep"));
        // 0 = not declared: dp/cp/tp left out, pp/ep behave as 1
        assertEquals(mesh("tp=8"), ParallelDims.builder().dpSize(0).cpSize(0).tpSize(8).ppSize(0).epSize(0)
                .build().buildOfflineMesh());
        assertEquals(OfflineMesh.empty(),
                ParallelDims.builder().dpSize(0).cpSize(0).tpSize(0).build().buildOfflineMesh());
    }

    @Test
    void meshTooLarge() {
        ParallelDims big = ParallelDims.builder().dpSize(65536).tpSize(65536).build();
        assertRejected(Status.MESH_TOO_LARGE, () -> OfflineMeshes.buildOfflineMesh(big));
    }

    @Test
    void runtimeOrders() {
        ParallelDims d = ParallelDims.builder().dpSize(2).cpSize(2).tpSize(2).ppSize(2).build();
        assertEquals(mesh("pp=2,dp=2,cp=2,tp=2"), OfflineMeshes.buildRuntimeMesh(d, "pp,dp,cp,tp"));
        assertEquals(mesh("pp=2,dp=2,cp=2,tp=2"), d.buildRuntimeMesh("tp-cp-ep-dp-pp"));
        assertEquals(mesh("pp=2,dp=2,tp=2,cp=2"), d.buildRuntimeMesh("cp-tp-dp-pp"));
        // pp at 1 is skipped; cp of size 1 that order omits stays outermost
        ParallelDims noPp = ParallelDims.builder().dpSize(4).tpSize(2).build();
        assertEquals(mesh("cp=1,tp=2,dp=4"), noPp.buildRuntimeMesh("tp,dp,pp"));
        assertEquals("pp,dp,ep,cp,tp", OfflineMeshes.normalizeOrder("tp-cp-ep-dp-pp"));
        assertEquals("pp,dp,cp,tp", OfflineMeshes.normalizeOrder("pp,dp,cp,tp"));
    }

    @Test
    void runtimeOrderErrors() {
        ParallelDims d = ParallelDims.builder().dpSize(2).tpSize(2).ppSize(2).build();
        assertRejected(Status.INVALID_ARGUMENT, () -> d.buildRuntimeMesh("pp,dp,xx,tp"), "xx");
        assertRejected(Status.INVALID_ARGUMENT, () -> d.buildRuntimeMesh("pp,dp,dp,tp"), "dp");
        assertRejected(Status.INVALID_ARGUMENT, () -> d.buildRuntimeMesh("pp,dp-tp"));
        assertRejected(Status.INVALID_ARGUMENT, () -> d.buildRuntimeMesh("pp,,dp,tp"));
        assertRejected(Status.INVALID_ARGUMENT, () -> d.buildRuntimeMesh("dp,tp"), "pp");
        assertRejected(Status.INVALID_ARGUMENT, () -> d.buildRuntimeMesh("pp,dp\0,tp"), "order");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMeshes.normalizeOrder("tp-zz"), "zz");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMeshes.normalizeOrder("tp-dp,pp"));
    }

    @Test
    void nullArgumentsNameTheParameter() {
        assertNpe("dims", () -> OfflineMeshes.buildOfflineMesh(null));
        assertNpe("dims", () -> OfflineMeshes.buildRuntimeMesh(null, "dp"));
        assertNpe("order", () -> OfflineMeshes.buildRuntimeMesh(ParallelDims.defaults(), null));
        assertNpe("order", () -> ParallelDims.defaults().buildRuntimeMesh(null));
        assertNpe("order", () -> OfflineMeshes.normalizeOrder(null));
    }

    @Test
    void versionAndStatus() {
        assertTrue(OfflineMeshes.libraryVersion().matches("\\d+\\.\\d+\\.\\d+"), OfflineMeshes.libraryVersion());
        String[] parts = OfflineMeshes.libraryVersion().split("\\.");
        assertEquals(Integer.parseInt(parts[0]) * 10000 + Integer.parseInt(parts[1]) * 100
                + Integer.parseInt(parts[2]), OfflineMeshes.libraryVersionNumber());
        for (Status s : Status.values()) {
            if (s != Status.UNKNOWN) {
                assertSame(s, Status.fromCode(s.code()));
                assertFalse(s.description().isEmpty());
                assertNotEquals("unknown status", s.description(), s.name());
            }
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
                List.of(Status.values()).subList(0, 13).stream().map(Status::code).toList());
        assertEquals("invalid argument", Status.INVALID_ARGUMENT.description());
        assertSame(Status.UNKNOWN, Status.fromCode(99));
        assertSame(Status.UNKNOWN, Status.fromCode(-1));
        assertEquals("unknown status", Status.UNKNOWN.description());
    }
}
