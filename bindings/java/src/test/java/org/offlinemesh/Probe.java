package org.offlinemesh;

/**
 * A tiny program that ProcessTest runs in a fresh JVM, with an environment
 * or a library path of its choosing. Prints one line per step.
 */
public final class Probe {
    private Probe() {
    }

    public static void main(String[] args) {
        switch (args[0]) {
            case "load":
                // twice: the second failure must carry the same explanation
                for (int attempt = 1; attempt <= 2; attempt++) {
                    try {
                        System.out.println("version " + OfflineMeshes.versionString());
                    } catch (LinkageError e) { // later calls: NoClassDefFoundError, caused by the first
                        Throwable first = e instanceof UnsatisfiedLinkError ? e : e.getCause();
                        System.out.println("attempt " + attempt + ": " + first.getMessage());
                    }
                }
                break;
            case "env":
                try {
                    WorldSize ws = OfflineMeshes.worldSizeResolve(0);
                    System.out.println("world " + ws.size() + " " + ws.source().name());
                } catch (OfflineMeshException e) {
                    System.out.println("world error " + e.status() + ": " + e.getMessage());
                }
                try {
                    System.out.println("dims " + ParallelDims.parse(args[1], Long.parseLong(args[2])).toJson());
                } catch (OfflineMeshException e) {
                    System.out.println("dims error " + e.status() + ": " + e.getMessage());
                }
                break;
            default:
                throw new IllegalArgumentException(args[0]);
        }
    }
}
