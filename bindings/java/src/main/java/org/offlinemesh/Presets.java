package org.offlinemesh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Framework presets: the views (named meshes over one rank space) and named
 * process groups that torchtitan, Megatron, DeepSpeed and hyper-parallel
 * build, from each framework's own parameters. Results are the JSON
 * document {@code offline-mesh views} prints. All methods are thread-safe.
 */
public final class Presets {
    private Presets() {
    }

    /**
     * The views of preset {@code name} ("torchtitan", "megatron",
     * "deepspeed", "hyper-parallel"): {@code {"views":{NAME:{"dim_names",
     * "shape","layout","groups","coords",...}}}} plus, for Megatron and
     * DeepSpeed, a top-level {@code "groups"} object with the named group
     * lists in the framework's order.
     *
     * @param params "KEY=VALUE" strings with the framework's own keys (e.g.
     *     "tensor_model_parallel_size=2"); absent keys take its defaults
     * @param worldSize the number of ranks; 0 takes the "world_size" parameter
     * @throws OfflineMeshException ({@link Status#INVALID_ARGUMENT}) for an
     *     unknown preset or key (naming the closest valid key), a badly typed
     *     value, or a broken rule of the framework with its message, e.g.
     *     "world_size (8) is not divisible by 3"
     */
    public static String views(String name, List<String> params, int worldSize) {
        byte[] preset = Text.cString(name, "name", Status.INVALID_ARGUMENT);
        byte[][] list = strings(params);
        return document(out -> OfflineMeshNative.omPresetNew(preset, list, worldSize, out));
    }

    /**
     * The views of the hyper-parallel preset whose parameters are the
     * accelerator.{tp,cp,pp,ep}_size and fsdp_config.{dp,edp}_shard_size
     * keys of the training YAML at {@code path}.
     *
     * @throws IOException when the file cannot be read
     * @throws OfflineMeshException as {@link #views}, and
     *     {@link Status#PARSE} for the YAML
     */
    public static String loadViews(Path path, int worldSize) throws IOException {
        Objects.requireNonNull(path, "path");
        if (path.getFileSystem() != FileSystems.getDefault()) {
            throw new OfflineMeshException(Status.INVALID_ARGUMENT,
                    "path " + path.toUri() + " is not on the default file system");
        }
        byte[] text = Text.cString(path.toString(), "path", Status.INVALID_ARGUMENT);
        try {
            return document(out -> OfflineMeshNative.omPresetLoadYaml(text, worldSize, out));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Every rule of the preset that can be evaluated, then the consistency
     * of its views: {@code {"ok":BOOL,"preset":NAME,"violations":[...]}}.
     * Broken rules are listed, not thrown.
     *
     * @throws OfflineMeshException for an unknown preset or key, or a badly
     *     typed value
     */
    public static String check(String name, List<String> params, int worldSize) {
        byte[] preset = Text.cString(name, "name", Status.INVALID_ARGUMENT);
        byte[][] list = strings(params);
        return Text.string(out -> OfflineMeshNative.omPresetCheck(preset, list, worldSize, out));
    }

    private static byte[][] strings(List<String> params) {
        Text.requireNoNulls(params, "params");
        byte[][] out = new byte[params.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = Text.cString(params.get(i), "params[" + i + "]", Status.INVALID_ARGUMENT);
        }
        return out;
    }

    /** Makes a preset with {@code constructor}, writes its document, frees it. */
    private static String document(Consumer<long[]> constructor) {
        NativeLibrary.load();
        long[] out = new long[1];
        constructor.accept(out);
        Preset h = new Preset(out[0], true);
        try {
            return Text.string(json -> OfflineMeshNative.omPresetToJson(h, json));
        } finally {
            h.delete();
        }
    }
}
