package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Behaviour that depends on the process: the world size discovered from the
 * environment, and the message when the JNI library cannot be loaded. Each
 * case runs {@link Probe} in a fresh JVM.
 */
class ProcessTest {
    private static final String[] WORLD_VARS = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};

    static String classPath() throws Exception {
        String main = Path.of(OfflineMesh.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String test = Path.of(Probe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        return main + File.pathSeparator + test;
    }

    static List<String> run(List<String> jvmOptions, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath());
        command.add(Probe.class.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        for (String var : WORLD_VARS) {
            builder.environment().remove(var);
        }
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "probe timed out");
        assertEquals(0, process.exitValue(), output);
        return List.of(output.split("\n"));
    }

    static List<String> env(Map<String, String> env, String yaml) throws Exception {
        return env(env, yaml, 0);
    }

    static List<String> env(Map<String, String> env, String yaml, long worldSize) throws Exception {
        return run(List.of("-Djava.library.path=" + System.getProperty("java.library.path")), env, "env", yaml,
                Long.toString(worldSize));
    }

    @Test
    void worldSizeDiscoveryOrder() throws Exception {
        String yaml = "accelerator: {tp_size: 2}";
        List<String> none = env(Map.of(), yaml);
        assertEquals("world 1 DEFAULT", none.get(0));
        assertTrue(none.get(1).startsWith("dims error INVALID_ARGUMENT: ") // 1 % 2 != 0, and it says why
                && none.get(1).contains("the default: no --world-size and none of WORLD_SIZE"), none.get(1));

        assertEquals(List.of("world 8 FROM_WORLD_SIZE",
                "dims {\"cp_size\":1,\"dp_size\":4,\"ep_size\":1,\"loss_parallel\":false,\"pp_size\":1,"
                + "\"sequence_parallel\":false,\"tp_size\":2}"),
                env(Map.of("WORLD_SIZE", "8", "OMPI_COMM_WORLD_SIZE", "2", "PMI_SIZE", "4", "SLURM_NTASKS", "6"), yaml));
        assertEquals("world 4 FROM_OMPI_COMM_WORLD_SIZE", env(Map.of("OMPI_COMM_WORLD_SIZE", "4", "PMI_SIZE", "16", "SLURM_NTASKS", "6"), yaml).get(0));
        assertEquals("world 16 FROM_PMI_SIZE", env(Map.of("PMI_SIZE", "16", "SLURM_NTASKS", "6"), yaml).get(0));
        List<String> slurm = env(Map.of("SLURM_NTASKS", "6"), yaml);
        assertEquals("world 6 FROM_SLURM_NTASKS", slurm.get(0));
        assertTrue(slurm.get(1).contains("\"dp_size\":3"), slurm.get(1));
    }

    /** The C om_world_size_resolve rule: 0 = not given, negative = an error, never the environment. */
    @Test
    void negativeWorldSizeIsAnErrorNotTheEnvironment() throws Exception {
        List<String> lines = env(Map.of("WORLD_SIZE", "8"), "accelerator: {tp_size: 2}", -8);
        assertEquals("dims error INVALID_ARGUMENT: world size must be >= 1 (or 0 to discover it), got -8", lines.get(1));
        assertTrue(env(Map.of("WORLD_SIZE", "8"), "accelerator: {tp_size: 2}", 16).get(1).contains("\"dp_size\":8"));
    }

    @Test
    void badEnvironmentValuesNameTheVariable() throws Exception {
        List<String> text = env(Map.of("WORLD_SIZE", "eight"), "accelerator: {}");
        assertTrue(text.get(0).startsWith("world error INVALID_ARGUMENT: ") && text.get(0).contains("WORLD_SIZE"),
                text.get(0));
        assertTrue(text.get(1).startsWith("dims error INVALID_ARGUMENT: ") && text.get(1).contains("WORLD_SIZE"),
                text.get(1));
        String zero = env(Map.of("PMI_SIZE", "0"), "accelerator: {}").get(0);
        assertTrue(zero.startsWith("world error INVALID_ARGUMENT: ") && zero.contains("PMI_SIZE"), zero);
        String huge = env(Map.of("SLURM_NTASKS", "99999999999"), "accelerator: {}").get(0);
        assertTrue(huge.startsWith("world error OUT_OF_RANGE: ") && huge.contains("SLURM_NTASKS"), huge);
    }

    @Test
    void missingJniLibraryExplainsWhatToInstall() throws Exception {
        List<String> lines = run(List.of("-Djava.library.path=/nonexistent-om-dir"), Map.of(), "load");
        assertEquals(2, lines.size(), String.join("\n", lines));
        for (int attempt = 1; attempt <= 2; attempt++) {
            String line = lines.get(attempt - 1);
            assertTrue(line.startsWith("attempt " + attempt + ": ") && line.contains("offline-mesh: cannot load the JNI library "
                    + "liboffline_mesh_jni.so (java.library.path=/nonexistent-om-dir)"), line);
            assertTrue(line.contains("-Djava=enabled"), line);
            assertTrue(line.contains("-Djava.library.path=<folder holding liboffline_mesh_jni.so>"), line);
            assertTrue(line.contains("liboffline_mesh.so.1"), line);
        }
    }

    @Test
    void explicitLibraryPathProperty() throws Exception {
        String dir = System.getProperty("java.library.path");
        String lib = Path.of(dir, System.mapLibraryName(Native.NAME)).toAbsolutePath().toString();
        List<String> ok = run(List.of("-D" + Native.PATH_PROPERTY + "=" + lib,
                "-Djava.library.path=/nonexistent-om-dir"), Map.of(), "load");
        assertEquals(List.of("version " + OfflineMeshes.versionString(), "version " + OfflineMeshes.versionString()), ok);
        List<String> bad = run(List.of("-D" + Native.PATH_PROPERTY + "=/nonexistent-om-dir/x.so"), Map.of(), "load");
        assertTrue(bad.get(0).contains("offlinemesh.jni.path=/nonexistent-om-dir/x.so"), bad.get(0));
    }
}
