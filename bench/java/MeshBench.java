import org.offlinemesh.OfflineMesh;

/**
 * Per-call cost of the Java binding, printed as ns/call in the format of
 * bench/go (bench/go-java.sh runs both and prints the Java/Go ratios). The
 * mesh is built once and kept: each query is one native call on it. Every
 * result is consumed (a checksum printed at the end); no thresholds.
 *
 *   javac -cp offline-mesh-1.0.0.jar MeshBench.java
 *   java -cp offline-mesh-1.0.0.jar:. -Djava.library.path=BUILD/bindings/java MeshBench [ms]
 */
public final class MeshBench {
    private static long sink;
    private static int r;

    private MeshBench() {
    }

    /** Mean ns per call of f over about ms milliseconds, after a JIT warm-up. */
    private static double perOp(long ms, Runnable f) {
        for (int i = 0; i < 20_000; i++) {
            f.run();
        }
        for (long n = 1;; n *= 2) {
            long start = System.nanoTime();
            for (long i = 0; i < n; i++) {
                f.run();
            }
            long el = System.nanoTime() - start;
            if (el >= ms * 1_000_000L) {
                return (double) el / n;
            }
        }
    }

    public static void main(String[] args) {
        long ms = args.length > 0 ? Long.parseLong(args[0]) : 300;
        try (OfflineMesh m = OfflineMesh.parse("dp=16,cp=4,tp=8");
                OfflineMesh big = OfflineMesh.parse("dp=256,cp=64,tp=64")) {
            Object[][] calls = {
                {"coordinate(rank)", (Runnable) () -> sink += m.coordinate(r++ % 512)[0]},
                {"groupOf(rank, dp)", (Runnable) () -> sink += m.groupOf(r++ % 512, "dp")[0]},
                {"groupOf(rank, dp) 2^20 mesh", (Runnable) () -> sink += big.groupOf(r++ % 1048576, "dp")[0]},
                {"size(tp)", (Runnable) () -> sink += m.size("tp")},
            };
            for (Object[] c : calls) {
                double best = Double.MAX_VALUE; // best of five, as bench/go does
                for (int turn = 0; turn < 5; turn++) {
                    best = Math.min(best, perOp(ms / 5, (Runnable) c[1]));
                }
                System.out.printf("java %-30s %10.1f ns/call%n", c[0], best);
            }
        }
        System.out.println("checksum " + sink);
    }
}
