package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One mesh shared by many threads gives every thread the single-threaded answers. */
class ThreadSafetyTest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 300;

    @Test
    void sharedMeshAcrossThreads() throws Exception {
        OfflineMesh shared = OfflineMesh.fromSpec("dp=4,cp=2,tp=4,pp=2");
        String[][] axisSets = {{"tp"}, {"cp"}, {"dp"}, {"pp"}, {"dp", "cp"}, {"cp", "tp"}, {}};
        List<int[][]> expectedGroups = new ArrayList<>();
        for (String[] axes : axisSets) {
            expectedGroups.add(shared.groups(axes));
        }
        String expectedJson = shared.toJson();
        OfflineMesh expectedExpert = OfflineMesh.fromSpec("dp=4,cp=2,tp=4").resliceExperts(8, 0);

        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final long seed = t;
                Callable<Integer> task = () -> {
                    Random random = new Random(seed);
                    start.await();
                    int checks = 0;
                    for (int round = 0; round < ROUNDS; round++) {
                        int which = random.nextInt(axisSets.length);
                        assertArrayEquals(expectedGroups.get(which), shared.groups(axisSets[which]));
                        int rank = random.nextInt((int) shared.size());
                        assertEquals(rank, shared.rank(shared.coordinate(rank)));
                        int index = (int) shared.groupIndex(rank, axisSets[which]);
                        assertArrayEquals(expectedGroups.get(which)[index], shared.groupOf(rank, axisSets[which]));
                        assertEquals(expectedJson, shared.toJson());
                        assertEquals(shared, OfflineMesh.fromJson(expectedJson));
                        assertEquals(expectedExpert, OfflineMesh.fromSpec("dp=4,cp=2,tp=4").resliceExperts(8, 0));
                        checks += 6;
                    }
                    return checks;
                };
                results.add(pool.submit(task));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> result : results) {
                total += result.get(120, TimeUnit.SECONDS);
            }
            assertEquals(THREADS * ROUNDS * 6, total);
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    /** The other immutable handles docs/java.md calls thread-safe, with their error paths (each thread's message). */
    @Test
    void sharedHierarchyLocalityWorldAndPreset() throws Exception {
        try (Hierarchy h = Hierarchy.fromSpec("host=4,rack=8"); OfflineMesh m = OfflineMesh.fromSpec("dp=4,cp=2,tp=2");
                Locality l = h.locality(m, "cp", "tp"); Preset p = Preset.of("megatron",
                        new String[] {"tensor_model_parallel_size=2"}, 16); World w = p.world()) {
            Callable<String> task = () -> {
                StringBuilder s = new StringBuilder().append(l).append(h.check(m, "tp:host,dp:host"))
                        .append(w.toJson()).append(java.util.Arrays.deepToString(p.groupList(p.groupListName(0))));
                for (long level = -1; level <= 2; level++) {
                    try {
                        s.append(h.levelName(level)).append(h.domainOf(level, 9)).append(l.get(level, LocalityField.PPN_MAX));
                    } catch (OfflineMeshException e) {
                        s.append(e.getMessage());
                    }
                }
                return s.append(MeshTest.assertRejected(Status.UNKNOWN_VIEW, () -> w.view("v" + s.length()), "v")
                        .getMessage()).toString();
            };
            String expected = task.call();
            assertTrue(expected.contains("level -1 is outside the 2 levels of the hierarchy")
                    && expected.contains("no view 'v"), expected);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<String>> results = new ArrayList<>();
                for (int i = 0; i < THREADS * 50; i++) {
                    results.add(pool.submit(task));
                }
                for (Future<String> result : results) {
                    assertEquals(expected, result.get(120, TimeUnit.SECONDS));
                }
            } finally {
                pool.shutdownNow();
                assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void concurrentYamlParsingAndErrors() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final int tp = 1 << (t % 4);
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        ParallelDims d = ParallelDims.parse("accelerator: {tp_size: " + tp + "}", 64);
                        assertEquals(64 / tp, d.get(Dim.DP));
                        d.close();
                        OfflineMeshException e = MeshTest.assertRejected(Status.PARSE,
                                () -> ParallelDims.parse("accelerator: {tp_size: \"" + tp + "\"}", 64),
                                "tp_size");
                        assertTrue(e.getMessage().contains(String.valueOf(tp)));
                    }
                    return null;
                }));
            }
            for (Future<?> result : results) {
                result.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }
}
