package org.offlinemesh;

import java.util.OptionalInt;

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
                        System.out.println("version " + OfflineMeshes.libraryVersion());
                    } catch (UnsatisfiedLinkError e) {
                        System.out.println("attempt " + attempt + ": " + e.getMessage());
                    }
                }
                break;
            case "env":
                try {
                    OptionalInt ws = OfflineMeshes.worldSizeFromEnvironment();
                    System.out.println("world " + (ws.isPresent() ? ws.getAsInt() : "none"));
                } catch (OfflineMeshException e) {
                    System.out.println("world error " + e.status() + ": " + e.getMessage());
                }
                try {
                    System.out.println("dims " + OfflineMeshes.parseParallelDims(args[1]).toJson());
                } catch (OfflineMeshException e) {
                    System.out.println("dims error " + e.status() + ": " + e.getMessage());
                }
                break;
            default:
                throw new IllegalArgumentException(args[0]);
        }
    }
}
