package dev.wordstats.benchmarks;

import java.util.List;

/**
 * The JVM flags every forked benchmark JVM gets through {@code @Fork(jvmArgsAppend = ...)}: the same
 * ones as the parent pom's {@code wordstats.jvm.flags} and the {@code benchmarks.jar} manifest.
 * numa-locks reads the carrier thread of a virtual thread ({@code jdk.internal.misc}), opens
 * {@code java.lang} for {@code Thread.currentCarrierThread()}, and calls libc through JNA.
 */
public final class BenchmarkJvm {

    public static final String ADD_EXPORTS = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    public static final String ADD_OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** A fixed heap, so GC sizing does not differ between forks. */
    public static final String HEAP = "-Xms1g";

    public static final String HEAP_MAX = "-Xmx1g";

    /**
     * The flags above, in the annotations' order: for a fork given extra arguments, since JMH's
     * {@code jvmArgsAppend} option replaces the annotation's list instead of adding to it (a fork
     * without them reads no virtual thread's mount state, so every spinner spins to its bound).
     */
    public static List<String> flags() {
        return List.of(ADD_EXPORTS, ADD_OPENS, NATIVE_ACCESS, HEAP, HEAP_MAX);
    }

    private BenchmarkJvm() {}
}
