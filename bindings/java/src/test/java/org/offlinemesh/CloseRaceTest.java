package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * close() racing with calls on other threads: a mesh, a hierarchy and a world are each closed
 * twice (two threads) while four others call them, the mesh also as an argument
 * (Hierarchy.locality, World.of's array). Every call gives the right answer or throws
 * IllegalStateException "... used after close()"; the JVM does not crash (freed memory read in
 * C); and no C object is left unfreed.
 */
class CloseRaceTest {
    private static final int ROUNDS = 200;

    @Test
    void closeRacesCalls() throws Exception {
        long before = OfflineMeshesJNI.liveHandles();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                OfflineMesh mesh = OfflineMesh.fromSpec("dp=2,cp=2,tp=2");
                Hierarchy hierarchy = Hierarchy.fromSpec("host=4");
                World world = World.of(8, new String[] {"base"}, new OfflineMesh[] {mesh});
                CountDownLatch start = new CountDownLatch(1);
                List<Callable<Void>> tasks = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    tasks.add(() -> {
                        start.await();
                        for (int i = 0; i < 20; i++) {
                            calls(mesh, hierarchy, world);
                        }
                        return null;
                    });
                }
                int spins = round % 8 * 300;
                for (AutoCloseable[] order : new AutoCloseable[][] {{mesh, hierarchy, world}, {world, hierarchy, mesh}}) {
                    tasks.add(() -> {
                        start.await();
                        for (int i = 0; i < spins; i++) {
                            Thread.onSpinWait();
                        }
                        for (AutoCloseable handle : order) {
                            handle.close();
                        }
                        return null;
                    });
                }
                List<Future<Void>> running = new ArrayList<>();
                for (Callable<Void> task : tasks) {
                    running.add(pool.submit(task));
                }
                start.countDown();
                for (Future<Void> task : running) {
                    task.get(); // rethrows a wrong answer
                }
                assertEquals("OfflineMesh{closed}", mesh.toString());
            }
        } finally {
            pool.shutdownNow();
        }
        // Each object was closed; the Cleaner may meanwhile free older ones (never more).
        assertTrue(OfflineMeshesJNI.liveHandles() <= before, "C objects left: " + OfflineMeshesJNI.liveHandles());
    }

    private static void calls(OfflineMesh mesh, Hierarchy hierarchy, World world) {
        either(() -> assertArrayEquals(new long[] {1, 0, 1}, mesh.coordinate(5)));
        either(() -> assertArrayEquals(new int[] {4, 5}, mesh.groupOf(5, "tp")));
        either(() -> {
            try (Locality locality = hierarchy.locality(mesh, "tp")) {
                assertEquals(4, locality.groups());
                assertEquals(4, locality.get(0, LocalityField.GROUPS_INSIDE));
            }
        });
        either(() -> assertEquals(4, hierarchy.ranksPerDomain(0)));
        either(() -> assertEquals("base", world.viewName(0)));
        either(() -> assertFalse(world.toJson().isEmpty()));
        either(() -> World.of(8, new String[] {"v"}, new OfflineMesh[] {mesh}).close());
    }

    /** The call's assertions hold, or it refused a closed handle. */
    private static void either(Runnable call) {
        try {
            call.run();
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().endsWith("used after close()"), e.getMessage());
        }
    }
}
