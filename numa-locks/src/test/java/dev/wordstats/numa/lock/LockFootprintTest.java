package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.probe.LockProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * The bytes a lock of each type takes as built (before it is first contended), on one node and on two
 * simulated nodes: the objects a guard reaches that no other guard shares ({@link #bytes}).
 * numa-locks/README.md's table "Bytes per lock" gives them (numa-locks-lab/README.md's for the types in the
 * lab, whose run of this test reads that module's README); this test fails when a figure there is not what
 * JOL measures (on a 64-bit JVM with compressed references and 8-byte object alignment, the JDK's default
 * below 32 GiB of heap; elsewhere the figures differ and the check is skipped). The pom sets
 * {@code jol.magicFieldOffset}, so JOL can walk records, whichever test loads it first.
 */
class LockFootprintTest {

    private static final Path README = Path.of("README.md");
    private static final Pattern ROW =
            Pattern.compile("^\\| `([A-Z_]+)` \\| (\\d[\\d,]*) \\| (\\d[\\d,]*) \\|", Pattern.MULTILINE);

    /**
     * Bytes one more guard of {@code type} on {@code nodes} nodes adds: what a second guard built from the same
     * context reaches beyond what the first and the context reach, so nothing locks share (the context, a
     * default settings record, a constant) is counted.
     */
    static long bytes(LockType type, int nodes) {
        LockContext context = TestLocks.context(new ThreadIdNodes(nodes));
        Guard first = type.create(context, LockSettings.DEFAULTS, LockProbe.NONE);
        Guard second = type.create(context, LockSettings.DEFAULTS, LockProbe.NONE);
        return GraphLayout.parseInstance(context, first, second).totalSize()
                - GraphLayout.parseInstance(context, first).totalSize();
    }

    @Tag(TestLocks.EVERY_TYPE)
    @Test
    void theReadmeGivesTheBytesOfEveryLockTypeAsMeasured() throws IOException {
        assumeTrue(
                VM.current().addressSize() == 8 && VM.current().objectAlignment() == 8,
                "figures for a 64-bit JVM with 8-byte alignment");
        assumeTrue(VM.current().sizeOfField("java.lang.Object") == 4, "figures for compressed references");
        Map<String, long[]> measured = new LinkedHashMap<>();
        for (LockType type : TestLocks.types().toList()) {
            measured.put(type.name(), new long[] {bytes(type, 1), bytes(type, 2)});
        }
        StringBuilder table = new StringBuilder();
        measured.forEach((type, b) -> table.append(String.format("| `%s` | %,d | %,d |%n", type, b[0], b[1])));
        String readme = Files.readString(README);
        int at = readme.indexOf("## Bytes per lock");
        assertThat(at)
                .as("README section \"Bytes per lock\", measured:%n%s", table)
                .isNotNegative();
        Map<String, long[]> documented = new LinkedHashMap<>();
        Matcher row = ROW.matcher(readme.substring(at));
        while (row.find()) {
            documented.put(row.group(1), new long[] {number(row.group(2)), number(row.group(3))});
        }
        assertThat(documented.keySet())
                .as("the README's rows, measured:%n%s", table)
                .containsExactlyElementsOf(measured.keySet());
        measured.forEach((type, b) -> assertThat(documented.get(type))
                .as("%s, measured:%n%s", type, table)
                .containsExactly(b));
    }

    private static long number(String text) {
        return Long.parseLong(text.replace(",", ""));
    }
}
