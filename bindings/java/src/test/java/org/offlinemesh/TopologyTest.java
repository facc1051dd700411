package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlinemesh.OfflineMeshTest.assertNpe;
import static org.offlinemesh.OfflineMeshTest.assertRejected;
import static org.offlinemesh.OfflineMeshTest.dpCpTp;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rank topology: the worked examples of the domain page and every error path. */
class TopologyTest {
    @Test
    void groupsOfTheDomainExample() {
        OfflineMesh mesh = dpCpTp();
        assertArrayEquals(new int[][] {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, mesh.groups("tp"));
        assertArrayEquals(new int[][] {{0, 2}, {1, 3}, {4, 6}, {5, 7}}, mesh.groups("cp"));
        assertArrayEquals(new int[][] {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, mesh.groups("dp"));
        assertArrayEquals(new int[][] {{0, 2, 4, 6}, {1, 3, 5, 7}}, mesh.groups("dp", "cp"));
    }

    @Test
    void axisSetsIgnoreOrderAndTakeNames() {
        OfflineMesh mesh = dpCpTp();
        int[][] expected = {{0, 2, 4, 6}, {1, 3, 5, 7}};
        assertArrayEquals(expected, mesh.groups("cp", "dp"));
        assertArrayEquals(new int[][] {{0, 1, 2, 3, 4, 5, 6, 7}}, mesh.groups("tp", "cp", "dp"));
        assertArrayEquals(new int[] {0, 2}, mesh.axisIndices("tp", "dp"));
        // names, not comma lists: a name holding ',' is an axis like any other
        OfflineMesh odd = OfflineMesh.of(List.of("a,b", " c"), 2, 3);
        assertArrayEquals(new int[][] {{0, 3}, {1, 4}, {2, 5}}, odd.groups("a,b"));
        assertArrayEquals(new int[] {0, 1, 2}, odd.groupOf(1, " c"));
        assertRejected(Status.UNKNOWN_AXIS, () -> mesh.groups("dp,cp"), "dp,cp");
    }

    @Test
    void emptyAxisSetGivesSingleRankGroups() {
        OfflineMesh mesh = OfflineMesh.of(List.of("dp", "tp"), 2, 2);
        assertArrayEquals(new int[][] {{0}, {1}, {2}, {3}}, mesh.groups());
        assertEquals(4, mesh.groupCount());
        assertEquals(1, mesh.groupSize());
        assertArrayEquals(new int[] {3}, mesh.groupOf(3));
        assertEquals(3, mesh.groupIndex(3));
    }

    @Test
    void emptyMeshTopology() {
        OfflineMesh empty = OfflineMesh.empty();
        assertArrayEquals(new int[0], empty.coordinate(0));
        assertEquals(0, empty.rank());
        assertArrayEquals(new int[][] {{0}}, empty.groups());
        assertRejected(Status.OUT_OF_RANGE, () -> empty.coordinate(1));
    }

    @Test
    void shapeOfGroups() {
        OfflineMesh mesh = OfflineMesh.of(List.of("dp", "cp", "tp"), 2, 3, 4);
        assertEquals(6, mesh.groupCount("tp"));
        assertEquals(4, mesh.groupSize("tp"));
        assertEquals(2, mesh.groupCount("cp", "tp"));
        assertEquals(12, mesh.groupSize("cp", "tp"));
        assertEquals(1, mesh.groupCount("dp", "cp", "tp"));
        assertEquals(24, mesh.groupSize("dp", "cp", "tp"));
    }

    @Test
    void singleGroupsAndMembership() {
        OfflineMesh mesh = dpCpTp();
        assertArrayEquals(new int[] {1, 5}, mesh.group(1, "dp"));
        assertArrayEquals(new int[] {1, 3, 5, 7}, mesh.group(1, "dp", "cp"));
        assertEquals(3, mesh.groupIndex(5, "cp"));
        assertArrayEquals(new int[] {5, 7}, mesh.groupOf(5, "cp"));
        assertEquals(3, mesh.groupIndex(7, "dp"));
        assertArrayEquals(new int[] {3, 7}, mesh.groupOf(7, "dp"));
    }

    @Test
    void coordinatesAndRanks() {
        OfflineMesh mesh = OfflineMesh.of(List.of("dp", "cp", "tp"), 2, 3, 4);
        assertArrayEquals(new int[] {0, 0, 0}, mesh.coordinate(0));
        assertArrayEquals(new int[] {1, 2, 3}, mesh.coordinate(23));
        assertArrayEquals(new int[] {1, 0, 1}, mesh.coordinate(13));
        assertEquals(13, mesh.rank(1, 0, 1));
        for (int r = 0; r < mesh.size(); r++) {
            assertEquals(r, mesh.rank(mesh.coordinate(r)));
        }
    }

    @Test
    void locality() {
        OfflineMesh mesh = dpCpTp();
        assertEquals(new Locality(4, 4, 1), mesh.locality(2, "tp"));
        assertTrue(mesh.locality(2, "tp").allLocal());
        assertEquals(new Locality(4, 0, 2), mesh.locality(4, "dp"));
        assertFalse(mesh.locality(4, "dp").allLocal());
        assertEquals(new Locality(2, 0, 2), mesh.locality(4, "dp", "cp"));
        assertEquals(new Locality(4, 4, 1), mesh.locality(8, "dp"));
        // a partial last host: 3 ranks per host over 8 ranks
        assertEquals(new Locality(4, 3, 2), mesh.locality(3, "tp"));
        assertEquals(new Locality(8, 8, 1), mesh.locality(1));
    }

    @Test
    void topologyErrors() {
        OfflineMesh mesh = dpCpTp();
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.coordinate(8), "8");
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.coordinate(-1), "-1");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.rank(1, 1));
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.rank(1, 1, 1, 1));
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.rank(0, 2, 0), "cp");
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.rank(0, 0, -1), "tp");
        assertRejected(Status.UNKNOWN_AXIS, () -> mesh.groups("ep"), "ep");
        assertRejected(Status.DUPLICATE_NAME, () -> mesh.groups("tp", "tp"), "tp");
        assertRejected(Status.UNKNOWN_AXIS, () -> mesh.groups("tp", ""));
        assertRejected(Status.UNKNOWN_AXIS, () -> mesh.groupCount("TP"), "TP");
        assertRejected(Status.UNKNOWN_AXIS, () -> mesh.groupSize("x"), "x");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.groups("t\0p"), "axes[0]");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.groups("tp\uD800"), "axes[0]", "surrogate");
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.group(4, "tp"), "4");
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.group(-1, "tp"));
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.groupIndex(8, "tp"));
        assertRejected(Status.OUT_OF_RANGE, () -> mesh.groupOf(-2, "tp"));
        assertRejected(Status.UNKNOWN_AXIS, () -> mesh.groupOf(0, "pp"), "pp");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.locality(0, "tp"), "0");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.locality(-4, "tp"));
        assertRejected(Status.UNKNOWN_AXIS, () -> mesh.locality(2, "ep"), "ep");
    }

    @Test
    void everyAxisCanBeSelected() { // names, not 64-bit masks
        int n = 70;
        String[] names = new String[n];
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = "a" + i;
            sizes[i] = 1;
        }
        OfflineMesh mesh = OfflineMesh.of(List.of(names), sizes);
        assertEquals(1, mesh.groupCount("a63"));
        assertEquals(1, mesh.groupCount("a64", "a69"));
        assertArrayEquals(new int[] {0}, mesh.groupOf(0, "a69"));
        assertArrayEquals(new int[] {0, 69}, mesh.axisIndices("a69", "a0"));
    }

    @Test
    void nullArgumentsNameTheParameter() {
        OfflineMesh mesh = dpCpTp();
        assertNpe("axes", () -> mesh.groups((String[]) null));
        assertNpe("axes[1]", () -> mesh.groups("tp", null));
        assertNpe("axes", () -> mesh.groupCount((String[]) null));
        assertNpe("axes", () -> mesh.groupSize((String[]) null));
        assertNpe("axes[0]", () -> mesh.group(0, (String) null));
        assertNpe("axes", () -> mesh.groupIndex(0, (String[]) null));
        assertNpe("axes", () -> mesh.groupOf(0, (String[]) null));
        assertNpe("axes", () -> mesh.locality(2, (String[]) null));
        assertNpe("coordinate", () -> mesh.rank((int[]) null));
    }
}
