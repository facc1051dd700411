// Which liboffline_mesh_jni.so the JVM loaded: prints the library version
// (or the loader's error) and the file the JNI library is mapped from, as
// /proc/self/maps shows it (tests/install/jar.sh).
import java.nio.file.Files;
import java.nio.file.Path;
import org.offlinemesh.OfflineMeshes;

public class WhichJni {
    public static void main(String[] args) throws Exception {
        try {
            System.out.println("version " + OfflineMeshes.versionString());
        } catch (LinkageError e) {
            System.out.println("error " + (e instanceof UnsatisfiedLinkError ? e : e.getCause()).getMessage());
            return;
        }
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            if (line.contains("offline_mesh_jni")) {
                System.out.println("mapped " + line.substring(line.indexOf('/')));
                return;
            }
        }
        System.out.println("mapped nothing");
    }
}
