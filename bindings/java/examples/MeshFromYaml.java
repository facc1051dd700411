// A program outside the library, compiled against the offline-mesh jar only:
// it reads a training YAML file and prints what the offline-mesh CLI would
// print for the same questions, one "CLI arguments|answer" line per case,
// so run-tests.sh can ask the CLI and compare.
//
//   javac -cp offline-mesh-1.3.0.jar MeshFromYaml.java
//   java -cp offline-mesh-1.3.0.jar:. -Djava.library.path=DIR MeshFromYaml CONFIG.yaml WORLD_SIZE ORDER
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.offlinemesh.OfflineMesh;
import org.offlinemesh.Dim;
import org.offlinemesh.OfflineMeshes;
import org.offlinemesh.ParallelDims;

public class MeshFromYaml {
    static String json(int[] ranks) {
        List<String> items = new ArrayList<>();
        for (int r : ranks) {
            items.add(Integer.toString(r));
        }
        return "[" + String.join(",", items) + "]";
    }

    static String json(int[][] groups) {
        List<String> items = new ArrayList<>();
        for (int[] g : groups) {
            items.add(json(g));
        }
        return "[" + String.join(",", items) + "]";
    }

    static String strings(List<String> names) {
        return names.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    public static void main(String[] args) throws Exception {
        String config = args[0];
        long worldSize = Long.parseLong(args[1]);
        String order = args[2];
        String source = config + " --world-size " + worldSize;

        ParallelDims dims = ParallelDims.read(config, worldSize);
        OfflineMesh mesh = dims.buildOfflineMesh();
        System.out.println("dims " + source + "|" + dims.toJson());
        System.out.println("mesh " + source + "|" + mesh.toJson());
        System.out.println("mesh " + source + " --order " + order + "|"
                + dims.buildRuntimeMesh(order).toJson());
        System.out.println("order " + order + "|"
                + strings(List.of(OfflineMeshes.axisOrderNormalize(order).split(","))));

        List<String> names = mesh.dimNames();
        for (int subset = 1; subset < (1 << names.size()); subset++) {
            List<String> axes = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                if ((subset & (1 << i)) != 0) {
                    axes.add(names.get(i));
                }
            }
            String list = String.join(",", axes);
            System.out.println("groups " + source + " --dims " + list + "|"
                    + json(mesh.groups(axes.toArray(new String[0]))));
        }
        for (int rank = 0; rank < mesh.size(); rank++) {
            long[] coord = mesh.coordinate(rank);
            TreeMap<String, Long> byName = new TreeMap<>();
            for (int i = 0; i < coord.length; i++) {
                byName.put(names.get(i), coord[i]);
            }
            String text = byName.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                    .collect(Collectors.joining(",", "{", "}"));
            System.out.println("coord " + source + " --rank " + rank + "|" + text);
        }
        if (mesh.size("pp") > 1) {
            return; // extended expert parallelism does not support pp > 1
        }
        OfflineMesh expert = mesh.resliceExperts(dims.get(Dim.EP), 0);
        System.out.println("experts " + source + " --ep " + dims.get(Dim.EP) + "|{\"edp\":"
                + expert.size("edp") + ",\"edp_groups\":" + json(expert.groups("edp"))
                + ",\"ep\":" + expert.size("ep") + ",\"ep_groups\":" + json(expert.groups("ep")) + "}");
    }
}
