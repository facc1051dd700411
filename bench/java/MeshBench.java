import org.offlinemesh.OfflineMesh;

/**
 * Per-call cost of the Java binding, printed as ns/call in the format of
 * bench/go (bench/go-java.sh runs both and prints the Java/Go ratios). The
 * mesh is built once and kept: each query is one native call on it. Every
 * result is consumed (a checksum printed at the end); no thresholds.
 *
 *   javac -cp offline-mesh-1.3.0.jar MeshBench.java
 *   java -cp offline-mesh-1.3.0.jar:. -Djava.library.path=BUILD/bindings/java MeshBench [ms]
 */
public final class MeshBench {
    private static long sink;
    private static int r;

    private MeshBench() {
    }

    /** Mean ns per call of f over about ms milliseconds, after a JIT warm-up. */
    private static double perOp(long ms, Runnable f) {
        long warm = System.nanoTime();
        for (int i = 0; i < 20_000 && System.nanoTime() - warm < 500_000_000L; i++) {
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

    /** Best of five turns, as bench/go does. */
    private static double best(long ms, Runnable f) {
        double best = Double.MAX_VALUE;
        for (int turn = 0; turn < 5; turn++) {
            best = Math.min(best, perOp(ms / 5, f));
        }
        return best;
    }

    public static void main(String[] args) {
        long ms = args.length > 0 ? Long.parseLong(args[0]) : 300;
        try (OfflineMesh m = OfflineMesh.fromSpec("dp=16,cp=4,tp=8");
                OfflineMesh big = OfflineMesh.fromSpec("dp=256,cp=64,tp=64")) {
            Object[][] calls = {
                {"coordinate(rank)", (Runnable) () -> sink += m.coordinate(r++ % 512)[0]},
                {"groupOf(rank, dp)", (Runnable) () -> sink += m.groupOf(r++ % 512, "dp")[0]},
                {"groupOf(rank, dp) 2^20 mesh", (Runnable) () -> sink += big.groupOf(r++ % 1048576, "dp")[0]},
                {"size(tp)", (Runnable) () -> sink += m.size("tp")},
            };
            for (Object[] c : calls) {
                System.out.printf("java %-30s %10.1f ns/call%n", c[0], best(ms, (Runnable) c[1]));
            }
            // Bulk: every tp group of the 2^20-rank mesh (4 MiB of ints) into a new int[], against
            // the cheapest honest way to produce the same new int[]: clone() of a warm copy.
            String[] tp = {"tp"};
            long count = big.groupCount("tp");
            int[] warm = big.groupsNamed(tp, 0, count);
            double groups = best(ms, () -> sink += big.groupsNamed(tp, 0, count)[r++ & 1023]);
            double clone = best(ms, () -> sink += warm.clone()[r++ & 1023]);
            System.out.printf("java groups(tp) 2^20 ints %.0f us, clone of the same ints %.0f us: %.2fx%n",
                    groups / 1000, clone / 1000, groups / clone);
        }
        System.out.println("checksum " + sink);
    }
}
