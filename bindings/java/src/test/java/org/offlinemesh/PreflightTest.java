package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.offlinemesh.OfflineMeshTest.assertRejected;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The planner's checks: axis validation, plan coordinates, the expert layout. */
class PreflightTest {
    @Test
    void validateAxesPasses() {
        OfflineMesh mesh = OfflineMesh.parse("dp=2,cp=2,tp=4");
        mesh.validateAxes(4, 2, 1);
        mesh.validateAxes(1, 1, 1);
        mesh.validateAxes(4, 1, 8); // ep is compared only when the mesh has an ep axis
        OfflineMesh.parse("dp=8").validateAxes(1, 1, 8);
    }

    @Test
    void validateAxesFailures() {
        OfflineMesh mesh = OfflineMesh.parse("dp=2,cp=2,tp=2");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.validateAxes(4, 1, 1), "tp", "4", "2");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.validateAxes(2, 4, 1), "cp", "4");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMesh.parse("dp=8").validateAxes(2, 1, 1), "tp");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMesh.parse("dp=4,ep=2").validateAxes(1, 1, 4), "ep");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.validateAxes(0, 1, 1));
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.validateAxes(1, -1, 1));
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.validateAxes(1, 1, 0));
        OfflineMesh.parse("dp=4,ep=2").validateAxes(1, 1, 2);
    }

    @Test
    void planDimNames() {
        OfflineMesh mesh = OfflineMesh.parse("dp=2,cp=2,ep=2,tp=2");
        assertEquals(List.of("cp", "ep", "tp"), mesh.planDimNames(2, 2, 2));
        assertEquals(List.of("tp"), mesh.planDimNames(2, 1, 1));
        assertEquals(List.of(), mesh.planDimNames(1, 1, 1));
        assertEquals(List.of("tp", "cp"), OfflineMesh.parse("tp=2,cp=2,dp=2").planDimNames(2, 2, 1),
                "mesh order, not argument order");
        assertEquals(List.of(), OfflineMesh.parse("dp=8").planDimNames(1, 1, 1), "dp is never a plan axis");
        assertThrows(UnsupportedOperationException.class, () -> mesh.planDimNames(2, 2, 2).add("x"));
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.planDimNames(0, 1, 1));
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.planDimNames(1, 1, -2));
    }

    @Test
    void expertLayoutOfTheDomainExample() {
        OfflineMesh expert = OfflineMesh.parse("dp=4,tp=2").expertMesh(4);
        assertEquals(OfflineMesh.of(List.of("edp", "ep"), 2, 4), expert);
        assertArrayEquals(new int[][] {{0, 1, 2, 3}, {4, 5, 6, 7}}, expert.groups("ep"));
        assertArrayEquals(new int[][] {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, expert.groups("edp"));
        assertEquals(OfflineMesh.of(List.of("edp", "ep"), 8, 1), OfflineMesh.parse("dp=4,tp=2").expertMesh(1, 64));
        // pp of size 1 is outside the dense region but allowed
        assertEquals(OfflineMesh.of(List.of("edp", "ep"), 4, 2), OfflineMesh.parse("dp=8,pp=1").expertMesh(2));
    }

    @Test
    void expertLayoutErrors() {
        OfflineMesh mesh = OfflineMesh.parse("dp=4,tp=2");
        assertRejected(Status.INVALID_ARGUMENT, () -> OfflineMesh.parse("dp=4,pp=2").expertMesh(2), "pp");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.expertMesh(3), "3", "8");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.expertMesh(16), "16");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.expertMesh(4, 6), "6", "4");
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.expertMesh(0));
        assertRejected(Status.INVALID_ARGUMENT, () -> mesh.expertMesh(2, -1));
    }
}
