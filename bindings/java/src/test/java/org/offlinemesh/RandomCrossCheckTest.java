package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Cross-checks the library's topology against an independent pure-Java
 * computation straight from the definitions (row-major ranks; a group is
 * the ranks that agree on every axis outside the set) on random shapes.
 */
class RandomCrossCheckTest {
    private static final long SEED = 0x6f6d5f6a617661L;
    private static final String[] POOL = {"dp", "cp", "tp", "pp", "ep", "sp", "x", "y"};

    /** Reference model of a mesh, computed without the library. */
    static final class Reference {
        final int[] shape;
        final int size;

        Reference(long[] shape) {
            this.shape = java.util.Arrays.stream(shape).mapToInt(v -> (int) v).toArray();
            int s = 1;
            for (int d : this.shape) {
                s *= d;
            }
            this.size = s;
        }

        int[] coordinate(int rank) {
            int[] c = new int[shape.length];
            for (int i = shape.length - 1; i >= 0; i--) {
                c[i] = rank % shape[i];
                rank /= shape[i];
            }
            return c;
        }

        /** Row-major index of the rank's coordinates over the axes outside the set. */
        int outsideKey(int rank, boolean[] inSet) {
            int[] c = coordinate(rank);
            int key = 0;
            for (int i = 0; i < shape.length; i++) {
                if (!inSet[i]) {
                    key = key * shape[i] + c[i];
                }
            }
            return key;
        }

        int[][] groups(boolean[] inSet) {
            int count = 1;
            for (int i = 0; i < shape.length; i++) {
                if (!inSet[i]) {
                    count *= shape[i];
                }
            }
            List<List<Integer>> groups = new ArrayList<>();
            for (int g = 0; g < count; g++) {
                groups.add(new ArrayList<>());
            }
            for (int r = 0; r < size; r++) {
                groups.get(outsideKey(r, inSet)).add(r);
            }
            int[][] result = new int[count][];
            for (int g = 0; g < count; g++) {
                result[g] = groups.get(g).stream().mapToInt(Integer::intValue).toArray();
            }
            return result;
        }

        HostLocality locality(int[][] groups, int ranksPerHost) {
            int local = 0;
            int maxHosts = 0;
            for (int[] group : groups) {
                Set<Integer> hosts = new HashSet<>();
                for (int r : group) {
                    hosts.add(r / ranksPerHost);
                }
                if (hosts.size() == 1) {
                    local++;
                }
                maxHosts = Math.max(maxHosts, hosts.size());
            }
            return new HostLocality(groups.length, local, maxHosts);
        }
    }

    static OfflineMesh randomMesh(Random random, int maxDims, int maxSize) {
        List<String> pool = new ArrayList<>(List.of(POOL));
        Collections.shuffle(pool, random);
        int ndim = random.nextInt(maxDims + 1);
        long[] sizes = new long[ndim];
        for (int i = 0; i < ndim; i++) {
            sizes[i] = 1 + random.nextInt(maxSize);
        }
        return OfflineMesh.of(pool.subList(0, ndim), sizes);
    }

    @Test
    void groupsCoordinatesAndLocalityAgreeWithTheDefinition() {
        Random random = new Random(SEED);
        int checkedGroupings = 0;
        for (int iteration = 0; iteration < 150; iteration++) {
            OfflineMesh mesh = randomMesh(random, 5, 4);
            Reference ref = new Reference(mesh.shape());
            assertEquals(ref.size, mesh.size());

            for (int r = 0; r < mesh.size(); r++) {
                long[] c = java.util.Arrays.stream(ref.coordinate(r)).asLongStream().toArray();
                assertArrayEquals(c, mesh.coordinate(r), mesh + " rank " + r);
                assertEquals(r, mesh.rank(c));
            }

            int ndim = (int) mesh.ndim();
            for (int trial = 0; trial < 4; trial++) {
                boolean[] inSet = new boolean[ndim];
                List<String> axes = new ArrayList<>();
                for (int i = 0; i < ndim; i++) {
                    if (random.nextBoolean()) {
                        inSet[i] = true;
                        axes.add(mesh.dimNames().get(i));
                    }
                }
                Collections.shuffle(axes, random); // the order of the names must not matter
                String[] names = axes.toArray(new String[0]);
                int[][] expected = ref.groups(inSet);
                String what = mesh + " over " + axes;

                assertArrayEquals(expected, mesh.groups(names), what);
                assertEquals(expected.length, mesh.groupCount(names), what);
                assertEquals(expected[0].length, mesh.groupSize(names), what);
                int index = random.nextInt(expected.length);
                assertArrayEquals(expected[index], mesh.group(index, names), what);
                for (int r = 0; r < mesh.size(); r++) {
                    int key = ref.outsideKey(r, inSet);
                    assertEquals(key, mesh.groupIndex(r, names), what + " rank " + r);
                    assertArrayEquals(expected[key], mesh.groupOf(r, names), what + " rank " + r);
                }
                int perHost = 1 + random.nextInt(Math.max(1, (int) mesh.size()));
                assertEquals(ref.locality(expected, perHost), mesh.locality(perHost, names),
                        what + " with " + perHost + " ranks per host");
                checkedGroupings++;
            }
        }
        assertEquals(600, checkedGroupings);
    }

    @Test
    void expertLayoutAgreesWithTheDefinition() {
        Random random = new Random(SEED + 1);
        int checked = 0;
        while (checked < 100) {
            OfflineMesh mesh = randomMesh(random, 4, 4);
            int dense = 1;
            boolean ppAboveOne = false;
            for (int i = 0; i < mesh.ndim(); i++) {
                if (mesh.dimNames().get(i).equals("pp")) {
                    ppAboveOne = mesh.shape()[i] > 1;
                } else {
                    dense *= mesh.shape()[i];
                }
            }
            if (ppAboveOne) {
                MeshTest.assertRejected(Status.INVALID_ARGUMENT, () -> mesh.resliceExperts(1, 0), "pp");
                continue;
            }
            List<Integer> divisors = new ArrayList<>();
            for (int d = 1; d <= dense; d++) {
                if (dense % d == 0) {
                    divisors.add(d);
                }
            }
            int ep = divisors.get(random.nextInt(divisors.size()));
            OfflineMesh expert = mesh.resliceExperts(ep, ep * (1 + random.nextInt(4)));
            assertEquals(OfflineMesh.of(List.of("edp", "ep"), dense / ep, ep), expert, mesh + " ep " + ep);

            int[][] epGroups = expert.groups("ep");
            int[][] edpGroups = expert.groups("edp");
            assertEquals(dense / ep, epGroups.length);
            assertEquals(ep, edpGroups.length);
            for (int g = 0; g < epGroups.length; g++) {
                for (int j = 0; j < ep; j++) {
                    assertEquals(g * ep + j, epGroups[g][j], "EP groups are ep consecutive ranks");
                }
            }
            for (int g = 0; g < edpGroups.length; g++) {
                for (int j = 0; j < dense / ep; j++) {
                    assertEquals(g + j * ep, edpGroups[g][j], "EDP groups take every ep-th rank");
                }
            }
            checked++;
        }
    }
}
