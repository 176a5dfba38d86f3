package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The locks need a node locator and a carrier count, nothing of the packages that set NUMA up: the
 * {@code lock} package's sources import no project package but {@code topology} (no upward or
 * sideways dependency inside the library).
 */
class LockPackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/wordstats/numa/lock");
    private static final Pattern PROJECT_IMPORT =
            Pattern.compile("^import\\s+(?:static\\s+)?dev\\.wordstats\\.numa\\.(\\w+)\\.", Pattern.MULTILINE);

    @Test
    void theLockPackageImportsOnlyTheTopology() throws IOException {
        assertThat(SOURCES).as("run from the numa-locks module directory").isDirectory();
        List<String> offending = new ArrayList<>();
        int files = 0;
        try (Stream<Path> sources = Files.list(SOURCES)) {
            for (Path source :
                    sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                files++;
                Matcher m = PROJECT_IMPORT.matcher(Files.readString(source));
                while (m.find()) {
                    if (!m.group(1).equals("topology") && !m.group(1).equals("lock")) {
                        offending.add(source.getFileName() + " imports dev.wordstats.numa." + m.group(1));
                    }
                }
            }
        }
        assertThat(files).as("lock sources found").isGreaterThan(10);
        assertThat(offending).isEmpty();
    }
}
