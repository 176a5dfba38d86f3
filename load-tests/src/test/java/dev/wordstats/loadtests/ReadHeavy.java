package dev.wordstats.loadtests;

/**
 * {@link MixedReadWrite} with most clients reading: 2 writers beside 62 readers by default, so most
 * stripe sections are reads (lookups and top lists), the regime where a reader-writer lock type
 * ({@code NUMA_RW}, {@code FAIR_REENTRANT_RW}, ...) lets the reads of a stripe run side by side.
 *
 * <pre>
 * ./mvnw -pl load-tests -am -Pload verify -DskipTests -Dsimulation=ReadHeavy
 * </pre>
 *
 * Parameters: as {@link MixedReadWrite}, with {@code users} (2 writers) and {@code readers} (62).
 */
public class ReadHeavy extends MixedReadWrite {

    public ReadHeavy() {
        super(2, 62);
    }
}
