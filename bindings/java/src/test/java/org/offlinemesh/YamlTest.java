package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlinemesh.OfflineMeshTest.assertNpe;
import static org.offlinemesh.OfflineMeshTest.assertRejected;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The YAML projection. Every call passes an explicit world size, so the
 * results do not depend on the environment (ProcessTest covers that).
 */
class YamlTest {
    static ParallelDims parse(String yaml, int worldSize) {
        return OfflineMeshes.parseParallelDims(yaml, worldSize);
    }

    @Test
    void dpIsDerivedFromTheWorldSize() {
        ParallelDims d = parse("accelerator:\n  tp_size: 2\n  cp_size: 2\n", 16);
        assertEquals(4, d.dpSize());
        assertEquals(2, d.tpSize());
        assertEquals(2, d.cpSize());
        assertEquals(OfflineMesh.parse("dp=4,cp=2,tp=2"), d.buildOfflineMesh());
        assertEquals(2, parse("accelerator:\n  tp_size: 2\n  pp_size: 2\n", 8).dpSize());
    }

    @Test
    void explicitDpMustMatchTheWorldSize() {
        ParallelDims d = parse("accelerator:\n  dp_size: 2\n  tp_size: 4\n", 8);
        assertEquals(2, d.dpSize());
        assertRejected(Status.INVALID_ARGUMENT, () -> parse("accelerator:\n  dp_size: 2\n  tp_size: 2\n", 8), "8");
        // a null dp_size is "not given": derived
        assertEquals(4, parse("accelerator:\n  dp_size: null\n  tp_size: 2\n", 8).dpSize());
        assertEquals(4, parse("accelerator:\n  dp_size: ~\n  tp_size: 2\n", 8).dpSize());
    }

    @Test
    void indivisibleWorldSizeNamesBothNumbers() {
        assertRejected(Status.INVALID_ARGUMENT, () -> parse("accelerator:\n  tp_size: 4\n", 6), "6", "4");
    }

    @Test
    void allFieldsAndFlags() {
        ParallelDims d = parse("accelerator:\n  tp_size: 2\n  cp_size: 1\n  ep_size: 4\n  pp_size: 2\n"
                + "  sequence_parallel: yes\n  loss_parallel: On\n", 16);
        assertEquals(ParallelDims.builder().dpSize(4).tpSize(2).cpSize(1).epSize(4).ppSize(2)
                .sequenceParallel(true).lossParallel(true).build(), d);
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})
    void yaml11TrueSpellings(String spelling) {
        assertTrue(parse("accelerator:\n  sequence_parallel: " + spelling + "\n", 1).sequenceParallel());
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})
    void yaml11FalseSpellings(String spelling) {
        assertFalse(parse("accelerator:\n  loss_parallel: " + spelling + "\n", 1).lossParallel());
    }

    @Test
    void realConfigFeatures() {
        String anchors = "base: &base\n  tp_size: 2\n  cp_size: 2\naccelerator:\n  <<: *base\n  pp_size: 2\n";
        assertEquals(ParallelDims.builder().dpSize(2).tpSize(2).cpSize(2).ppSize(2).build(), parse(anchors, 16));
        String alias = "sizes:\n  t: &t 4\naccelerator:\n  tp_size: *t\n";
        assertEquals(4, parse(alias, 8).tpSize());
        assertEquals(4, parse("accelerator: {tp_size: 4, sequence_parallel: true}\n", 8).tpSize());
        assertEquals(2, parse("# comment\naccelerator:   # here too\n  tp_size: 4 # four\n", 8).dpSize());
        assertEquals(2, parse("accelerator:\r\n  tp_size: 4\r\n", 8).dpSize());
        assertEquals(2, parse("name: \"modèle 张量 😀\"\naccelerator:\n  tp_size: 4\n", 8).dpSize());
        ParallelDims ignored = parse("model: {layers: 3}\naccelerator:\n  tp_size: 2\n  unknown_key: [1, 2]\n", 2);
        assertEquals(ParallelDims.builder().dpSize(1).tpSize(2).build(), ignored);
    }

    @Test
    void missingOrNullAcceleratorMeansDefaults() {
        assertEquals(ParallelDims.builder().dpSize(4).build(), parse("model: x\n", 4));
        assertEquals(ParallelDims.builder().dpSize(4).build(), parse("accelerator:\n", 4));
        assertEquals(ParallelDims.builder().dpSize(4).build(), parse("accelerator: null\n", 4));
        assertEquals(ParallelDims.builder().dpSize(1).build(), parse("", 1));
    }

    @Test
    void wrongTypesAreParseErrorsNamingTheKeyAndLine() {
        assertRejected(Status.PARSE, () -> parse("accelerator:\n  tp_size: \"2\"\n", 8), "tp_size", "line 2");
        assertRejected(Status.PARSE, () -> parse("accelerator:\n  tp_size: 2.0\n", 8), "tp_size");
        assertRejected(Status.PARSE, () -> parse("accelerator:\n  tp_size: true\n", 8), "tp_size");
        assertRejected(Status.PARSE, () -> parse("accelerator:\n\n  cp_size: [2]\n", 8), "cp_size", "line 3");
        assertRejected(Status.PARSE, () -> parse("accelerator:\n  sequence_parallel: 1\n", 8), "sequence_parallel");
        assertRejected(Status.PARSE, () -> parse("accelerator:\n  loss_parallel: \"yes\"\n", 8), "loss_parallel");
    }

    @Test
    void badNumbersNameTheKey() {
        assertRejected(Status.INVALID_ARGUMENT, () -> parse("accelerator:\n  tp_size: 0\n", 8), "tp_size");
        assertRejected(Status.INVALID_ARGUMENT, () -> parse("accelerator:\n  pp_size: -2\n", 8), "pp_size");
        assertRejected(Status.OUT_OF_RANGE, () -> parse("accelerator:\n  ep_size: 2147483648\n", 8), "ep_size");
        assertEquals(Integer.MAX_VALUE, parse("accelerator:\n  ep_size: 2147483647\n", 8).epSize());
    }

    @Test
    void malformedYaml() {
        assertRejected(Status.PARSE, () -> parse("accelerator: [\n", 8));
        assertRejected(Status.PARSE, () -> parse("accelerator:\n  tp_size: 2\n tp: : :\n", 8));
        assertRejected(Status.PARSE, () -> parse("accelerator: *missing\n", 8));
        assertRejected(Status.PARSE, () -> parse("name: \"\uD800\"\naccelerator: {}\n", 8), "yaml", "surrogate");
    }

    @Test
    void loadFromFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("train config.yaml");
        Files.writeString(file, "accelerator:\n  tp_size: 2\n  cp_size: 2\n", StandardCharsets.UTF_8);
        assertEquals(ParallelDims.builder().dpSize(2).tpSize(2).cpSize(2).build(),
                OfflineMeshes.loadParallelDims(file, 8));
        Path unicode = dir.resolve("konfig-ü-😀.yaml");
        Files.writeString(unicode, "accelerator: {tp_size: 8}\n", StandardCharsets.UTF_8);
        assertEquals(1, OfflineMeshes.loadParallelDims(unicode, 8).dpSize());
    }

    @Test
    void fileErrorsAreIoExceptions(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("missing.yaml");
        IOException e = assertThrows(IOException.class, () -> OfflineMeshes.loadParallelDims(missing, 8));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        IOException d = assertThrows(IOException.class, () -> OfflineMeshes.loadParallelDims(dir, 8));
        assertTrue(d.getMessage().contains(dir.toString()), d.getMessage());
    }

    @Test
    void contentErrorsInFilesStartWithThePath(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "accelerator:\n  tp_size: \"4\"\n", StandardCharsets.UTF_8);
        OfflineMeshException e = assertRejected(Status.PARSE, () -> {
            try {
                OfflineMeshes.loadParallelDims(file, 8);
            } catch (IOException io) {
                throw new AssertionError(io);
            }
        }, "tp_size");
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }

    @Test
    void pathsOutsideTheDefaultFileSystemAreRefused(@TempDir Path dir) throws IOException {
        Path zip = dir.resolve("configs.zip");
        try (FileSystem fs = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
            Path inside = fs.getPath("/c.yaml");
            Files.writeString(inside, "accelerator: {}\n");
            assertRejected(Status.INVALID_ARGUMENT, () -> {
                try {
                    OfflineMeshes.loadParallelDims(inside, 1);
                } catch (IOException io) {
                    throw new AssertionError(io);
                }
            }, "default file system");
        }
    }

    @Test
    void nullArgumentsNameTheParameter() {
        assertNpe("yaml", () -> OfflineMeshes.parseParallelDims(null, 8));
        assertNpe("yaml", () -> OfflineMeshes.parseParallelDims(null));
        assertNpe("path", () -> {
            try {
                OfflineMeshes.loadParallelDims(null, 8);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }
}
