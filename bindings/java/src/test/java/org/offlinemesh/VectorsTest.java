package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of the golden vectors (tests/vectors, a copy of the steering
 * team's shared/vectors: computed by running torch, torchtitan, Megatron and
 * DeepSpeed; the random chains of tests/torch_layout and configurations of
 * tests/frameworks, recorded from the same frameworks) through the Java API: layout operations on views, and each
 * preset through its document (groups and coordinates in the framework's
 * order, exactly), its named group lists, and its world's views.
 */
class VectorsTest {
    private static final Gson GSON = new Gson();

    static JsonArray cases(String stem) throws Exception {
        return casesOf("tests/vectors/" + stem + ".json");
    }

    static JsonArray casesOf(String path) throws Exception {
        Path file = BadInputsTest.repositoryRoot().resolve(path);
        return JsonParser.parseString(Files.readString(file)).getAsJsonObject().getAsJsonArray("cases");
    }

    static String[] strings(JsonElement array) {
        return GSON.fromJson(array, String[].class);
    }

    static long[] longs(JsonElement array) {
        return GSON.fromJson(array, long[].class);
    }

    static int[][] groups(JsonElement array) {
        return GSON.fromJson(array, int[][].class);
    }

    /** Groups as the library lists generic views: ascending by first member (members keep their order). */
    static int[][] ascending(int[][] groups) {
        return Arrays.stream(groups).sorted(Comparator.comparingInt(g -> g[0])).toArray(int[][]::new);
    }

    /** A view against its vector record: names, shape, modes, groups, coordinates of every rank. */
    static void compare(OfflineMesh view, JsonObject want, long worldSize, String label, boolean layout) {
        assertEquals(Arrays.asList(strings(want.get("dim_names"))), view.dimNames(), label);
        assertArrayEquals(longs(want.get("shape")), view.shape(), label);
        JsonArray modes = want.getAsJsonArray("layout");
        for (int axis = 0; layout && axis < modes.size(); axis++) {
            long[][] pairs = GSON.fromJson(modes.get(axis), long[][].class);
            assertArrayEquals(Arrays.stream(pairs).flatMapToLong(Arrays::stream).toArray(), view.modes(axis),
                    label + " layout of axis " + axis);
        }
        JsonObject groups = want.has("groups") ? want.getAsJsonObject("groups") : new JsonObject();
        for (Map.Entry<String, JsonElement> g : groups.entrySet()) {
            assertArrayEquals(ascending(groups(g.getValue())), view.groups(g.getKey()), label + " groups " + g.getKey());
        }
        JsonArray coords = want.getAsJsonArray("coords");
        for (int r = 0; r < worldSize; r++) {
            JsonElement c = coords.get(r);
            if (c.isJsonNull()) {
                assertFalse(view.holds(r), label + " rank " + r);
            } else {
                assertArrayEquals(longs(c), view.coordinate(r), label + " rank " + r);
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> layoutOperations() throws Exception {
        return layoutTests(cases("layout"), 14, "layout case ");
    }

    /** The random chains recorded from torch's DeviceMesh (tests/torch_layout). */
    @TestFactory
    Stream<DynamicTest> torchLayoutOperations() throws Exception {
        return layoutTests(casesOf("tests/torch_layout/layout.json"), 500, "torch layout case ");
    }

    static Stream<DynamicTest> layoutTests(JsonArray cases, int atLeast, String label) {
        assertTrue(cases.size() >= atLeast);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonObject c = cases.get(i).getAsJsonObject();
            tests.add(DynamicTest.dynamicTest(label + i, () -> layoutCase(c)));
        }
        return tests.stream();
    }

    static void layoutCase(JsonObject c) {
        JsonObject base = c.getAsJsonObject("base");
        OfflineMesh root = new OfflineMesh(strings(base.get("dim_names")), longs(base.get("shape")));
        assertEquals(c.get("world_size").getAsLong(), root.size());
        List<OfflineMesh> flats = new ArrayList<>();
        boolean accepted = c.has("library") && c.get("library").getAsString().startsWith("accepted");
        try {
            OfflineMesh current = root;
            for (JsonElement o : c.getAsJsonArray("ops")) {
                current = apply(root, current, flats, o.getAsJsonObject());
            }
            if (c.has("error") && !accepted) {
                throw new AssertionError("expected an error like " + c.get("error"));
            }
            if (!c.has("error")) {
                compare(current, c.getAsJsonObject("result"), root.size(), "layout " + c.get("ops"), true);
            }
        } catch (OfflineMeshException e) {
            if (!c.has("error") || accepted) {
                throw e;
            }
        }
    }

    static OfflineMesh apply(OfflineMesh root, OfflineMesh current, List<OfflineMesh> flats, JsonObject op) {
        switch (op.get("kind").getAsString()) {
            case "flatten": {
                String name = op.has("name") && !op.get("name").isJsonNull() ? op.get("name").getAsString() : null;
                OfflineMesh flat = current.flatten(strings(op.get("axes")), name);
                // The root knows a flattened view by a new name only (torch returns
                // mesh["x"] for one axis into its own name, and keeps the first).
                boolean known = current.indexOf(flat.name(0)) >= 0
                        || flats.stream().anyMatch(f -> f.name(0).equals(flat.name(0)));
                if (!known) {
                    flats.add(flat);
                }
                return flat;
            }
            case "unflatten":
                return current.unflatten(current.name(op.get("axis").getAsLong()), longs(op.get("sizes")),
                        strings(op.get("names")));
            case "slice":
                return current.slice(strings(op.get("axes")));
            default: { // slice_root: the root and every flattened view, as one world
                List<String> names = new ArrayList<>(List.of("root"));
                List<OfflineMesh> views = new ArrayList<>(List.of(root));
                for (OfflineMesh f : flats) {
                    names.add(f.name(0));
                    views.add(f);
                }
                try (World w = World.of(root.size(), names.toArray(new String[0]), views.toArray(new OfflineMesh[0]))) {
                    return w.slice(strings(op.get("axes")));
                }
            }
        }
    }

    static String[] params(JsonObject c) {
        return c.getAsJsonObject("params").entrySet().stream()
                .map(e -> e.getKey() + "=" + (e.getValue().isJsonPrimitive() && e.getValue().getAsJsonPrimitive().isString()
                        ? e.getValue().getAsString() : e.getValue().toString()))
                .toArray(String[]::new);
    }

    @TestFactory
    Stream<DynamicTest> presets() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        // the shared vectors, and the random configurations recorded from the frameworks
        for (String folder : new String[] {"tests/vectors/", "tests/frameworks/"}) {
            for (String[] p : new String[][] {{"torchtitan", "torchtitan"}, {"megatron", "megatron"},
                    {"deepspeed", "deepspeed"}, {"hyper_parallel", "hyper-parallel"}}) {
                JsonArray cases = casesOf(folder + p[0] + ".json");
                for (int i = 0; i < cases.size(); i++) {
                    JsonObject c = cases.get(i).getAsJsonObject();
                    tests.add(DynamicTest.dynamicTest(folder + p[0] + " case " + i, () -> presetCase(p[1], c)));
                }
            }
        }
        return tests.stream();
    }

    static void presetCase(String preset, JsonObject c) {
        long worldSize = c.get("world_size").getAsLong();
        if (!c.has("views")) { // the framework raised: so must the preset
            assertThrows(OfflineMeshException.class, () -> Preset.of(preset, params(c), worldSize).close(), c.toString());
            return;
        }
        try (Preset p = Preset.of(preset, params(c), worldSize); World w = p.world()) {
            JsonObject doc = JsonParser.parseString(p.toJson()).getAsJsonObject();
            for (Map.Entry<String, JsonElement> v : c.getAsJsonObject("views").entrySet()) {
                JsonObject want = v.getValue().getAsJsonObject();
                JsonObject got = doc.getAsJsonObject("views").getAsJsonObject(v.getKey());
                for (String key : new String[] {"dim_names", "shape", "layout", "groups", "coords", "instances"}) {
                    assertEquals(want.get(key), got.get(key), preset + " view " + v.getKey() + " " + key);
                }
                try (OfflineMesh view = w.view(v.getKey())) {
                    if (view.dimNames().equals(Arrays.asList(strings(want.get("dim_names"))))) {
                        // the world's view has the groups (as sets) and coordinates; its modes are
                        // compared through the document above (DeepSpeed's view is one of equal groups)
                        compare(view, want, worldSize, preset + " world view " + v.getKey(), false);
                    }
                }
            }
            // hyper-parallel's per-rank local ranks (absent for the other presets on both sides)
            assertEquals(c.get("local_ranks"), doc.get("local_ranks"), preset + " local_ranks");
            if (c.has("single_axis")) { // torchtitan's get_mesh keys: every field the library gives
                JsonObject got = JsonParser.parseString(p.singleAxesJson()).getAsJsonObject();
                assertEquals(c.get("one_dimensional_active"), got.get("one_dimensional_active"), preset);
                for (Map.Entry<String, JsonElement> axis : got.getAsJsonObject("single_axis").entrySet()) {
                    JsonObject want = c.getAsJsonObject("single_axis").getAsJsonObject(axis.getKey());
                    for (Map.Entry<String, JsonElement> field : axis.getValue().getAsJsonObject().entrySet()) {
                        assertEquals(want.get(field.getKey()), field.getValue(), preset + " " + axis.getKey() + " " + field.getKey());
                    }
                }
                assertEquals(c.getAsJsonObject("single_axis").keySet(), got.getAsJsonObject("single_axis").keySet());
            }
            if (c.has("groups")) {
                for (Map.Entry<String, JsonElement> g : c.getAsJsonObject("groups").entrySet()) {
                    assertArrayEquals(groups(g.getValue()), p.groupList(g.getKey()), preset + " group list " + g.getKey());
                }
            }
        }
    }
}
