package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlinemesh.MeshTest.assertRejected;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hierarchies, per-level locality, placement rules, order advice, launch plans, worlds, presets. */
class PlanningTest {
    @Test
    void uniformHierarchyAndLocality() {
        try (Hierarchy h = Hierarchy.fromSpec("host=4,nvl=8");
                OfflineMesh m = OfflineMesh.fromSpec("dp=4,tp=4");
                Locality tp = m.locality(h, "tp");
                Locality dp = h.locality(m, "dp")) {
            assertEquals(2, h.levels());
            assertEquals("nvl", h.levelName(1));
            assertEquals(8, h.ranksPerDomain(1));
            assertEquals(0, h.ranks());
            assertEquals(1, h.levelIndex("nvl"));
            assertEquals(2, h.domainOf(1, 17));
            assertEquals("2", h.domainLabel(1, 2));
            assertEquals("[{\"name\":\"host\",\"ranks_per_domain\":4},{\"name\":\"nvl\",\"ranks_per_domain\":8}]", h.toJson());
            assertEquals("Hierarchy" + h.toJson(), h.toString());
            assertEquals(4, tp.groups());
            assertEquals(2, tp.levels());
            assertEquals(4, tp.get(0, LocalityField.GROUPS_INSIDE));
            assertEquals(-1, tp.get(0, LocalityField.FIRST_CROSSING));
            assertEquals(0, dp.get(0, LocalityField.GROUPS_INSIDE));
            assertEquals(4, dp.get(0, LocalityField.GROUPS_CROSSING));
            assertEquals(4, dp.get(0, LocalityField.MAX_DOMAINS));
            assertEquals(2, dp.get(1, LocalityField.MAX_DOMAINS));
            assertEquals(1, dp.get(0, LocalityField.PPN_MAX));
            assertEquals(2, dp.get(1, LocalityField.PPN_MIN));
            assertTrue(dp.toString().startsWith("Locality{groups=4, level 0={GROUPS_INSIDE=0, GROUPS_CROSSING=4,"), dp.toString());
            assertEquals("", h.check(m, "tp:host"));
            assertEquals("dp:nvl broken: dp group 0 (ranks 0, 4, 8, 12) crosses nvl domains: rank 8 is in nvl 1, "
                    + "rank 0 in nvl 0 (groups span up to 2 domains)\n", h.check(m, "tp:host,dp:nvl"));
            assertRejected(Status.INVALID_ARGUMENT, () -> h.levelIndex("rack"), "unknown level \"rack\" (levels: host, nvl)");
            assertRejected(Status.OUT_OF_RANGE, () -> h.domainOf(2, 0), "");
            assertRejected(Status.INVALID_ARGUMENT, () -> h.check(m, "tp:rack"), "rack");
            assertRejected(Status.UNKNOWN_AXIS, () -> h.locality(m, "ep"), "ep");
        }
        assertRejected(Status.INVALID_ARGUMENT, () -> Hierarchy.fromSpec("host=8,nvl=4"), "");
        assertRejected(Status.PARSE, () -> Hierarchy.fromSpec("host"), "host");
    }

    @Test
    void explicitHierarchies() {
        try (Hierarchy h = Hierarchy.fromHostfile("# two hosts\nn0 slots=2 rack=a\nn1 slots=2 rack=b\n")) {
            assertEquals(List.of("host", "rack"), List.of(h.levelName(0), h.levelName(1)));
            assertEquals(4, h.ranks());
            assertEquals("n1", h.domainLabel(0, h.domainOf(0, 3)));
        }
        try (Hierarchy h = Hierarchy.fromJson("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,\"host\":\"a\"},"
                + "{\"rank\":1,\"host\":\"a\"}]}")) {
            assertEquals(2, h.ranks());
            assertEquals(0, h.domainOf(0, 1));
        }
        assertRejected(Status.INVALID_ARGUMENT, () -> Hierarchy.fromHostfile("n0 slots=2\nn0 slots=2\n"), "n0");
        assertRejected(Status.INVALID_ARGUMENT, () -> Hierarchy.fromJson("{\"levels\":[\"host\"],\"ranks\":"
                + "[{\"rank\":1,\"host\":\"a\"}]}"), "");
    }

    @Test
    void launchPlansAndAdmission() {
        try (OfflineMesh m = OfflineMesh.fromSpec("dp=2,tp=4")) {
            JsonObject plan = JsonParser.parseString(m.launchPlan(2, 4, LaunchFormat.TORCHRUN, "10.0.0.1", 29400,
                    new String[] {"nodeB", "nodeA"})).getAsJsonObject();
            JsonObject node1 = plan.getAsJsonArray("nodes").get(1).getAsJsonObject();
            assertEquals("nodeA", node1.get("host").getAsString());
            JsonObject env = node1.getAsJsonArray("processes").get(2).getAsJsonObject().getAsJsonObject("env");
            assertEquals("6", env.get("RANK").getAsString());
            assertEquals("2", env.get("LOCAL_RANK").getAsString());
            assertEquals("1", env.get("GROUP_RANK").getAsString());
            assertEquals("8", env.get("WORLD_SIZE").getAsString());
            assertEquals("10.0.0.1", env.get("MASTER_ADDR").getAsString());
            assertEquals("29400", env.get("MASTER_PORT").getAsString());
            assertTrue(m.launchPlan(2, 4, LaunchFormat.SLURM, null, 0, null).contains("\"SLURM_PROCID\":\"5\""));
            assertTrue(m.launchPlan(2, 4, LaunchFormat.OPENMPI, null, 0, null).contains("rankfile"));
            assertEquals(LaunchFormat.SLURM, OfflineMeshes.launchFormatFromName("slurm"));
            assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMeshes.launchFormatFromName("pbs"), "pbs");
            assertRejected(Status.INVALID_ARGUMENT, () -> m.launchPlan(3, 4, LaunchFormat.TORCHRUN, null, 0, null), "");
            assertEquals("", m.launchCheck(null, 2, 4, "tp:host"));
            try (Hierarchy h = Hierarchy.fromSpec("host=2")) {
                String violations = m.launchCheck(h, 3, 2, "tp:host");
                assertEquals(2, violations.split("\n").length, violations); // every violation at once
            }
        }
    }

    @Test
    void orderAdviceAndCheck() {
        try (ParallelDims d = new ParallelDims().with(Dim.TP, 2).with(Dim.EP, 2).with(Dim.PP, 2).with(Dim.DP, 4);
                Hierarchy h = Hierarchy.fromSpec("host=4")) {
            JsonObject advice = JsonParser.parseString(d.orderAdvice(h, "tp:host", null, null)).getAsJsonObject();
            JsonObject best = advice.getAsJsonArray("orders").get(0).getAsJsonObject();
            assertEquals(0, best.getAsJsonArray("broken").size());
            assertTrue(best.get("megatron").getAsString().startsWith("tp-"), best.toString());
            assertEquals("", d.orderCheck(h, "tp-ep-dp-pp", "tp:host"));
            String broken = d.orderCheck(h, "dp-tp-ep-pp", "tp:host");
            assertTrue(broken.contains("tp:host broken"), broken);
            assertRejected(Status.INVALID_ARGUMENT, () -> d.orderAdvice(h, null, null, "tp>xx"), "xx");
        }
    }

    @Test
    void worldsOfViews() {
        try (OfflineMesh dense = OfflineMesh.fromSpec("dp=2,tp=4");
                OfflineMesh flat = dense.flatten(new String[] {"dp", "tp"}, "world");
                World w = World.of(8, new String[] {"dense", "flat"}, new OfflineMesh[] {dense, flat})) {
            assertEquals(8, w.size());
            assertEquals(2, w.viewCount());
            assertEquals("flat", w.viewName(1));
            assertEquals(1, w.viewIndex("flat"));
            assertEquals(-1, w.viewIndex("x"));
            assertEquals("dense", w.axisView("tp"));
            assertEquals(dense, w.view("dense"));
            assertEquals("World{size=8, views=[dense, flat]}", w.toString());
            try (World again = World.fromJson(w.toJson()); OfflineMesh s = w.slice("tp")) {
                assertEquals(w.toJson(), again.toJson());
                assertArrayEquals(new int[][] {{0, 1, 2, 3}, {4, 5, 6, 7}}, s.groups("tp"));
            }
            assertRejected(Status.UNKNOWN_VIEW, () -> w.view("sparse"), "sparse");
            assertRejected(Status.UNKNOWN_AXIS, () -> w.slice("ep"), "ep");
        }
        try (OfflineMesh a = OfflineMesh.fromSpec("dp=2,tp=2"); OfflineMesh b = OfflineMesh.fromSpec("tp=2,dp=2")) {
            assertRejected(Status.VIEW_CONFLICT, () -> World.of(4, new String[] {"a", "b"}, new OfflineMesh[] {a, b}),
                    "views 'a' and 'b' disagree on axis");
            assertRejected(Status.OUTSIDE_WORLD, () -> World.of(2, new String[] {"a"}, new OfflineMesh[] {a}), "");
            assertRejected(Status.DUPLICATE_NAME, () -> World.of(4, new String[] {"a", "a"}, new OfflineMesh[] {a, a}), "a");
        }
    }

    @Test
    void presets() {
        try (Preset p = Preset.of("megatron", new String[] {"tensor_model_parallel_size=2", "context_parallel_size=2"}, 8);
                World w = p.world()) {
            assertEquals("megatron", p.name());
            assertEquals(8, p.worldSize());
            assertEquals(List.of("dense", "expert"), List.of(p.viewName(0), p.viewName(1)));
            assertTrue(p.groupListCount() > 10);
            assertArrayEquals(new int[][] {{0, 2, 4, 6}, {1, 3, 5, 7}}, p.groupList("dp_cp"));
            assertEquals("Preset{megatron, world_size=8, views=[dense, expert]}", p.toString());
            assertEquals(List.of("pp", "expt_dp", "ep", "expt_tp"), w.view("expert").dimNames());
            assertTrue(p.toJson().startsWith("{\"groups\":{"), p.toJson().substring(0, 40));
            assertRejected(Status.INVALID_ARGUMENT, () -> p.groupList("nope"), "nope");
        }
        assertRejected(Status.INVALID_ARGUMENT, () -> Preset.of("megatron", new String[] {"tensor_model_parallel_size=3"}, 8),
                "world_size (8) is not divisible by 3");
        assertRejected(Status.INVALID_ARGUMENT, () -> Preset.of("nemo", new String[0], 8), "nemo");
        try (Preset titan = Preset.of("torchtitan", new String[] {"tp=2"}, 8)) {
            assertTrue(titan.singleAxesJson().contains("\"one_dimensional_active\":["), titan.singleAxesJson());
        }
        try (Preset megatron = Preset.of("megatron", new String[0], 8)) {
            assertRejected(Status.INVALID_ARGUMENT, megatron::singleAxesJson, "megatron");
        }
        JsonObject check = JsonParser.parseString(Preset.check("torchtitan", new String[] {"tp=3"}, 8)).getAsJsonObject();
        assertEquals(false, check.get("ok").getAsBoolean());
        assertTrue(check.getAsJsonArray("violations").size() > 0);
    }
}
