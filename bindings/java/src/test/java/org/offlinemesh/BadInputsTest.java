package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared bad-input table (tests/hardening/bad_inputs.json, described in
 * docs/hardening.md) run through the public Java API: one dynamic test per
 * case. Each case must fail with the documented exception for its status
 * (OfflineMeshException with that status(), IOException for OM_ERR_IO) and a
 * message containing the case's fragment. A null argument reaches C as
 * NULL, so `null` cases run like the others (a null receiver cannot). Cases
 * setting environment variables run in a fresh JVM (Java cannot change its
 * own environment). Cases the API cannot express are skipped with a reason;
 * a last test prints the counts and requires at least 100 cases run.
 */
class BadInputsTest {
    static final int MIN_RUN = 100;
    private static final String[] WORLD_VARS = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};

    /** Thrown while preparing a call the Java API cannot express. */
    static final class Unexpressible extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unexpressible(String reason) {
            super(reason, null, false, false);
        }
    }

    /** A prepared call: must throw. */
    interface Call {
        void run() throws Exception;
    }

    private final Map<String, Integer> skipped = new TreeMap<>();
    private int ran;
    private int ranInChildJvm;

    static Path repositoryRoot() throws Exception {
        Path dir = Path.of(BadInputsTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("tests/hardening/bad_inputs.json"))) {
                return p;
            }
        }
        throw new IllegalStateException("no tests/hardening/bad_inputs.json above " + dir);
    }

    @TestFactory
    Stream<DynamicTest> badInputTable(@TempDir Path scratch) throws Exception {
        Path table = repositoryRoot().resolve("tests/hardening/bad_inputs.json");
        JsonArray cases;
        try (Reader reader = Files.newBufferedReader(table, StandardCharsets.UTF_8)) {
            cases = JsonParser.parseReader(reader).getAsJsonObject().getAsJsonArray("cases");
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonElement element : cases) {
            JsonObject c = element.getAsJsonObject();
            String id = c.get("id").getAsString();
            tests.add(DynamicTest.dynamicTest(id, () -> {
                try {
                    runCase(c, scratch);
                } catch (AssertionError e) {
                    throw new AssertionError(id + ": " + e.getMessage(), e);
                }
            }));
        }
        int total = tests.size();
        tests.add(DynamicTest.dynamicTest("summary (at least " + MIN_RUN + " cases run)", () -> {
            int skips = skipped.values().stream().mapToInt(Integer::intValue).sum();
            System.out.println("bad inputs (java): " + total + " cases, " + ran + " run (" + ranInChildJvm
                    + " in a child JVM for env), " + skips + " skipped " + skipped);
            assertEquals(total, ran + skips);
            assertTrue(ran >= MIN_RUN, "only " + ran + " of " + total + " cases ran");
        }));
        return tests.stream();
    }

    private void skip(String reason) {
        skipped.merge(reason, 1, Integer::sum);
        Assumptions.abort(reason);
    }

    private void runCase(JsonObject c, Path scratch) throws Exception {
        String id = c.get("id").getAsString();
        String callName = c.get("call").getAsString();
        JsonObject args = c.getAsJsonObject("args");
        String statusName = c.get("status").getAsString();
        int code = c.get("code").getAsInt();
        String fragment = c.get("message").getAsString();
        Set<String> needs = new java.util.HashSet<>();
        if (c.has("needs")) {
            c.getAsJsonArray("needs").forEach(n -> needs.add(n.getAsString()));
        }
        if (needs.contains("c_only")) {
            skip("c_only: NULL out-pointers or explicit lengths/buffers");
        }
        if (needs.contains("raw_enum")) {
            skip("raw_enum: Dim and Flag are Java enums, no out-of-range value");
        }
        if (c.has("env")) {
            try {
                runInChildJvm(id, callName, args, c.getAsJsonObject("env"), statusName, code, fragment);
            } catch (Unexpressible e) {
                skip(e.getMessage());
            }
            return;
        }
        Call call;
        try {
            call = prepare(id, callName, args, scratch);
        } catch (Unexpressible e) {
            skip(e.getMessage());
            return;
        }
        Throwable t = thrownBy(call);
        ran++;
        checkThrown(t, statusName, code, fragment);
    }

    private static Throwable thrownBy(Call call) {
        try {
            call.run();
        } catch (Throwable t) {
            return t;
        }
        return null;
    }

    static void checkThrown(Throwable t, String statusName, int code, String fragment) {
        if (t == null) {
            fail("the call succeeded; expected " + statusName);
        }
        if (statusName.equals("OM_ERR_IO")) {
            if (!(t instanceof IOException)) {
                fail("expected IOException, got " + t, t);
            }
        } else if (t instanceof OfflineMeshException) {
            Status s = ((OfflineMeshException) t).status();
            assertEquals(code, s.swigValue(), "status " + s + ": " + t.getMessage());
            assertEquals(statusName, "OM_ERR_" + s.name(), t.getMessage());
        } else {
            fail("expected OfflineMeshException(" + statusName + "), got " + t, t);
        }
        String message = t.getMessage();
        assertTrue(message != null && message.contains(fragment),
                "message \"" + abbreviate(message) + "\" lacks \"" + fragment + "\"");
    }

    static String abbreviate(String s) {
        return s == null || s.length() <= 400 ? s : s.substring(0, 400) + "...(" + s.length() + " chars)";
    }

    // ---- decoding the table's values ---------------------------------------

    /** Decodes a text value to bytes; null for JSON null or absent. */
    static byte[] bytes(JsonElement v) {
        if (v == null || v.isJsonNull()) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        decodeInto(v, out);
        return out.toByteArray();
    }

    private static void decodeInto(JsonElement v, ByteArrayOutputStream out) {
        if (v.isJsonPrimitive()) {
            out.writeBytes(v.getAsString().getBytes(StandardCharsets.UTF_8));
            return;
        }
        JsonObject o = v.getAsJsonObject();
        if (o.has("hex")) {
            String hex = o.get("hex").getAsString().replace(" ", "");
            for (int i = 0; i < hex.length(); i += 2) {
                out.write(Integer.parseInt(hex.substring(i, i + 2), 16));
            }
        } else if (o.has("repeat")) {
            byte[] unit = bytes(o.get("repeat"));
            long count = o.get("count").getAsLong();
            for (long i = 0; i < count; i++) {
                out.writeBytes(unit);
            }
        } else if (o.has("concat")) {
            for (JsonElement part : o.getAsJsonArray("concat")) {
                decodeInto(part, out);
            }
        } else {
            throw new IllegalArgumentException("bad text value " + v);
        }
    }

    /** A text value as a Java String; bytes that are not UTF-8 cannot be one. */
    static String text(JsonElement v) {
        byte[] b = bytes(v);
        if (b == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            throw new Unexpressible("bytes: not valid UTF-8, a Java String cannot carry it");
        }
    }

    static boolean isNull(JsonObject args, String key) {
        return !args.has(key) || args.get(key).isJsonNull();
    }

    static long longArg(JsonObject args, String key, long fallback) {
        return isNull(args, key) ? fallback : args.get(key).getAsLong();
    }

    /** The fixture mesh; a null mesh would be the receiver, which Java cannot call a method on. */
    static OfflineMesh mesh(JsonObject args) {
        if (isNull(args, "mesh")) {
            throw new Unexpressible("null receiver: the mesh/dims is the object the Java method is called on");
        }
        JsonElement v = args.get("mesh");
        if (v.isJsonPrimitive()) {
            return OfflineMesh.fromSpec(v.getAsString());
        }
        JsonObject fixture = v.getAsJsonObject();
        if (fixture.has("view")) {
            return OfflineMesh.viewFromJson(text(fixture.get("view")));
        }
        return OfflineMesh.fromJson(text(fixture.get("json")));
    }

    /** A mesh argument of a static call: null reaches C as NULL. */
    static OfflineMesh meshOrNull(JsonObject args) {
        return isNull(args, "mesh") ? null : mesh(args);
    }

    static ParallelDims dims(JsonObject args) {
        if (isNull(args, "dims")) {
            return null;
        }
        ParallelDims d = new ParallelDims();
        for (Map.Entry<String, JsonElement> e : args.getAsJsonObject("dims").entrySet()) {
            d.set(Dim.valueOf(e.getKey().toUpperCase(java.util.Locale.ROOT)), e.getValue().getAsLong());
        }
        return d;
    }

    static Path path(String id, JsonElement v, Path scratch) throws IOException {
        if (v != null && v.isJsonObject() && v.getAsJsonObject().has("fixture")) {
            JsonObject o = v.getAsJsonObject();
            switch (o.get("fixture").getAsString()) {
                case "missing":
                    return scratch.resolve("missing.yaml");
                case "directory":
                    return Files.createDirectories(scratch.resolve("a-directory.yaml"));
                case "not_a_dir":
                    Files.writeString(scratch.resolve("plain-file"), "accelerator: {}\n");
                    return scratch.resolve("plain-file").resolve("config.yaml");
                case "long_name":
                    return scratch.resolve("n".repeat(300));
                case "huge_sparse": {
                    Path p = scratch.resolve("huge.yaml");
                    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
                        f.setLength(64L * 1024 * 1024 + 1);
                    }
                    return p;
                }
                case "file": {
                    Path p = scratch.resolve(id + ".yaml");
                    Files.write(p, bytes(o.get("content")));
                    return p;
                }
                default:
                    throw new IllegalArgumentException("fixture " + o);
            }
        }
        String s = text(v);
        return s == null ? null : Path.of(s);
    }

    static String[] strings(JsonObject args, String key) {
        if (isNull(args, key)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        args.getAsJsonArray(key).forEach(n -> out.add(text(n)));
        return out.toArray(new String[0]);
    }

    static long[] longs(JsonObject args, String key) {
        if (isNull(args, key)) {
            return null;
        }
        JsonArray a = args.getAsJsonArray(key);
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).getAsLong();
        }
        return out;
    }

    // ---- the calls -----------------------------------------------------------

    /** Builds the fixtures and returns the call. Nulls reach C as NULL. */
    static Call prepare(String id, String callName, JsonObject args, Path scratch) throws IOException {
        switch (callName) {
            case "mesh_new":
            case "mesh_new_checked": {
                String[] names = strings(args, "names");
                long[] sizes = longs(args, "sizes");
                if (names == null || sizes == null) {
                    throw new Unexpressible("null array: Java passes it as (NULL, 0), an empty list");
                }
                return () -> new OfflineMesh(names, sizes);
            }
            case "mesh_from_json": {
                String json = text(args.get("text"));
                return () -> OfflineMesh.fromJson(json);
            }
            case "mesh_from_spec": {
                String spec = text(args.get("spec"));
                return () -> OfflineMesh.fromSpec(spec);
            }
            case "mesh_to_spec": {
                OfflineMesh m = mesh(args);
                return m::toSpec;
            }
            case "mesh_to_json": {
                OfflineMesh m = mesh(args);
                return m::toJson;
            }
            case "mesh_get": {
                OfflineMesh m = mesh(args);
                String name = text(args.get("name"));
                return () -> m.get(name);
            }
            case "dims_set": {
                if (isNull(args, "dims")) {
                    throw new Unexpressible("null receiver: the mesh/dims is the object the Java method is called on");
                }
                ParallelDims d = dims(args);
                Dim dim = Dim.valueOf(args.get("dim").getAsString().toUpperCase(java.util.Locale.ROOT));
                long value = longArg(args, "value", 0);
                return () -> d.set(dim, value);
            }
            case "dims_to_json": {
                if (isNull(args, "dims")) {
                    throw new Unexpressible("null receiver: the mesh/dims is the object the Java method is called on");
                }
                ParallelDims d = dims(args);
                return d::toJson;
            }
            case "build_offline_mesh": {
                ParallelDims d = dims(args);
                return () -> OfflineMeshes.buildOfflineMesh(d);
            }
            case "build_runtime_mesh": {
                ParallelDims d = dims(args);
                String order = text(args.get("order"));
                return () -> OfflineMeshes.buildRuntimeMesh(d, order);
            }
            case "order_normalize": {
                String order = text(args.get("order"));
                return () -> OfflineMeshes.orderNormalize(order);
            }
            case "dims_from_yaml": {
                // the 1.1 steps: the pure projection, then the world size (0 = not given)
                String yaml = text(args.get("text"));
                long worldSize = longArg(args, "world_size", 0);
                return () -> ParallelDims.parse(yaml, worldSize);
            }
            case "dims_load_yaml": {
                long worldSize = longArg(args, "world_size", 0);
                Path p = path(id, args.get("path"), scratch);
                return () -> ParallelDims.read(p == null ? null : p.toString(), worldSize);
            }
            case "mesh_axes": {
                OfflineMesh m = mesh(args);
                String names = text(args.get("names"));
                return () -> m.axes(names);
            }
            case "mesh_coordinate": {
                OfflineMesh m = mesh(args);
                long rank = longArg(args, "rank", 0);
                return () -> m.coordinateInto(rank, new long[(int) m.ndim()]);
            }
            case "mesh_rank": {
                OfflineMesh m = mesh(args);
                long[] coord = longs(args, "coord");
                return () -> m.rank(coord);
            }
            case "mesh_group_shape": {
                OfflineMesh m = mesh(args);
                long mask = longArg(args, "axes", 0);
                return () -> m.groupShape(mask);
            }
            case "mesh_groups": {
                OfflineMesh m = mesh(args);
                long mask = longArg(args, "axes", 0);
                long first = longArg(args, "first_group", 0);
                long count = longArg(args, "group_count", 1);
                return () -> m.groups(mask, first, count, new int[(int) m.size()]);
            }
            case "mesh_group_index": {
                OfflineMesh m = mesh(args);
                long mask = longArg(args, "axes", 0);
                long rank = longArg(args, "rank", 0);
                return () -> m.groupIndex(mask, rank);
            }
            case "mesh_group_of": {
                OfflineMesh m = mesh(args);
                long mask = longArg(args, "axes", 0);
                long rank = longArg(args, "rank", 0);
                return () -> m.groupOf(mask, rank, new int[(int) m.size()]);
            }
            case "mesh_locality": {
                OfflineMesh m = mesh(args);
                long mask = longArg(args, "axes", 0);
                long perHost = longArg(args, "ranks_per_host", 1);
                return () -> m.locality(mask, perHost);
            }
            case "validate_axes": {
                OfflineMesh m = meshOrNull(args);
                long tp = longArg(args, "tp", 1);
                long cp = longArg(args, "cp", 1);
                long ep = longArg(args, "ep", 1);
                return () -> OfflineMeshes.validateAxes(m, tp, cp, ep);
            }
            case "plan_dim_names": {
                OfflineMesh m = meshOrNull(args);
                long tp = longArg(args, "tp", 1);
                long cp = longArg(args, "cp", 1);
                long ep = longArg(args, "ep", 1);
                return () -> OfflineMeshes.planDimNames(m, tp, cp, ep);
            }
            case "expert_mesh": {
                OfflineMesh m = meshOrNull(args);
                long ep = longArg(args, "ep", 1);
                long experts = longArg(args, "num_experts", 0);
                return () -> OfflineMeshes.expertMesh(m, ep, experts);
            }
            case "view_from_json": {
                String json = text(args.get("text"));
                return () -> OfflineMesh.viewFromJson(json);
            }
            case "world_from_json": {
                String json = text(args.get("text"));
                return () -> World.fromJson(json);
            }
            case "view_slice": {
                OfflineMesh m = mesh(args);
                String[] axes = strings(args, "axes");
                return () -> m.slice(axes);
            }
            case "view_flatten": {
                OfflineMesh m = mesh(args);
                String[] axes = strings(args, "axes");
                String name = isNull(args, "name") ? null : text(args.get("name"));
                return () -> m.flatten(axes, name);
            }
            case "mesh_groups_named": {
                if (args.has("out_len")) {
                    throw new Unexpressible("c_only: an explicit buffer length (groupsNamed sizes its own)");
                }
                OfflineMesh m = mesh(args);
                String[] axes = strings(args, "axes");
                long first = longArg(args, "first_group", 0);
                long count = longArg(args, "group_count", 1);
                return () -> m.groupsNamed(axes, first, count);
            }
            case "hierarchy_from_spec": {
                String spec = text(args.get("spec"));
                return () -> Hierarchy.fromSpec(spec);
            }
            case "world_size_resolve": {
                long explicit = longArg(args, "explicit_size", 0);
                return () -> OfflineMeshes.worldSizeResolve(explicit);
            }
            case "preset_new": {
                String name = text(args.get("name"));
                String[] params = strings(args, "params");
                long worldSize = longArg(args, "world_size", 0);
                return () -> Preset.of(name, params, worldSize);
            }
            case "dims_copy":
                throw new Unexpressible("null receiver: the mesh/dims is the object the Java method is called on");
            default:
                throw new Unexpressible("call not exposed: " + callName);
        }
    }

    // ---- environment cases: a fresh JVM with the variables set ----------------

    private void runInChildJvm(String id, String callName, JsonObject args, JsonObject env,
            String statusName, int code, String fragment) throws Exception {
        Map<String, String> vars = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> e : env.entrySet()) {
            vars.put(e.getKey(), text(e.getValue())); // throws Unexpressible for non-UTF-8 bytes
        }
        List<String> childArgs = new ArrayList<>();
        if (callName.equals("world_size_from_env")
                || (callName.equals("world_size_resolve") && longArg(args, "explicit_size", 0) == 0)) {
            childArgs.add("world");
        } else if (callName.equals("dims_from_yaml")) {
            childArgs.add("yaml");
            childArgs.add(text(args.get("text")));
            childArgs.add(Long.toString(longArg(args, "world_size", 0)));
        } else {
            throw new Unexpressible("env: no child-JVM form for " + callName);
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Djava.library.path=" + System.getProperty("java.library.path"));
        command.add("-cp");
        command.add(ProcessTest.classPath() + File.pathSeparator + System.getProperty("java.class.path"));
        command.add(EnvChild.class.getName());
        command.addAll(childArgs);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        for (String var : WORLD_VARS) {
            builder.environment().remove(var);
        }
        builder.environment().putAll(vars);
        ran++;
        ranInChildJvm++;
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM timed out");
        assertEquals(0, process.exitValue(), output);
        // "threw <class> <status> <message>" or "returned <value>"
        String line = output.strip();
        if (!line.startsWith("threw ")) {
            fail(id + ": the call did not fail: " + line);
        }
        String[] parts = line.split(" ", 4);
        String message = parts.length > 3 ? parts[3] : "";
        if (!parts[1].equals(OfflineMeshException.class.getName())) {
            fail("expected OfflineMeshException(" + statusName + "), got " + line);
        }
        assertEquals(statusName, "OM_ERR_" + parts[2], line);
        assertEquals(code, Status.valueOf(parts[2]).swigValue(), line);
        assertTrue(message.contains(fragment), "message \"" + message + "\" lacks \"" + fragment + "\"");
    }

    /** Runs one environment case in a fresh JVM; prints one line. */
    public static final class EnvChild {
        private EnvChild() {
        }

        public static void main(String[] args) {
            PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
            try {
                Object result;
                if (args[0].equals("world")) {
                    result = OfflineMeshes.worldSizeResolve(0);
                } else {
                    result = ParallelDims.parse(args[1], Long.parseLong(args[2]));
                }
                out.println("returned " + result);
            } catch (OfflineMeshException e) {
                out.println("threw " + e.getClass().getName() + " " + e.status().name() + " " + e.getMessage());
            } catch (RuntimeException e) {
                out.println("threw " + e.getClass().getName() + " - " + e.getMessage());
            }
        }
    }
}
