package dev.wordstats.numa.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layering of the lock packages, read from their sources: what a source imports (static imports too) or
 * names in full in its code; comments (a Javadoc link) and string literals (the class names of
 * {@code LockEvent}'s stack filter) are not dependencies.
 * <ul>
 *   <li>Every lock package imports from the project only {@code topology} and the lock packages: the locks
 *       need a node locator and a carrier count, nothing of the packages that set NUMA up (no upward or
 *       sideways dependency inside the library).</li>
 *   <li>{@code lock.probe} (observation) imports no algorithm package ({@code lock.queue},
 *       {@code lock.jdk}): the algorithms report to it, it does not know them.</li>
 *   <li>{@code lock.queue} and {@code lock.jdk} do not import each other.</li>
 *   <li>In the API package, {@code lock}, only the factories {@code LockType} and {@code ReadWriteGuards}
 *       import the algorithm packages: the cycle between a factory and its implementations, as
 *       {@code java.util.concurrent} and its {@code locks} package have it; the rest of the API (the guard,
 *       the context, the settings) depends on no algorithm.</li>
 * </ul>
 * A lock package these rules do not name fails the test until it is given its rules here.
 */
class LockPackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/wordstats/numa/lock");

    private static final String PROJECT = "dev.wordstats.numa";
    private static final String API = PROJECT + ".lock";
    private static final String PROBE = API + ".probe";
    private static final String QUEUE = API + ".queue";
    private static final String JDK = API + ".jdk";
    private static final Set<String> PACKAGES = Set.of(API, PROBE, QUEUE, JDK);
    private static final Set<String> ALGORITHMS = Set.of(QUEUE, JDK);
    private static final Set<String> FACTORIES = Set.of("LockType.java", "ReadWriteGuards.java");

    /** A name of the project in code: its package (group 1, after {@code dev.wordstats.numa}), then a type or *. */
    private static final Pattern PROJECT_NAME =
            Pattern.compile("\\bdev\\.wordstats\\.numa((?:\\.[a-z]\\w*)+)\\.(?:[A-Z]|\\*)");

    /** What is not code: comments, text blocks, string and character literals. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])*'",
            Pattern.DOTALL);

    @Test
    void theLockPackagesKeepTheirLayering() {
        assertThat(SOURCES).as("run from the numa-locks module directory").isDirectory();
        assertThat(packages(SOURCES)).as("the lock packages").containsExactlyInAnyOrderElementsOf(PACKAGES);
        assertThat(sources(SOURCES)).as("lock sources found").hasSizeGreaterThan(30);
        assertThat(violations(SOURCES)).isEmpty();
    }

    @Test
    void aBrokenRuleIsFound(@TempDir Path root) throws IOException {
        write(root, "LockType.java", "package dev.wordstats.numa.lock;\nimport dev.wordstats.numa.lock.queue.A;\n");
        write(root, "Settings.java", "package dev.wordstats.numa.lock;\nimport dev.wordstats.numa.lock.queue.A;\n");
        write(root, "probe/Sink.java", """
                package dev.wordstats.numa.lock.probe;
                import dev.wordstats.numa.lock.LockType;
                import static dev.wordstats.numa.lock.jdk.B.probed;
                /** {@link dev.wordstats.numa.setup.NumaSetup} in a comment is no dependency. */
                class Sink {
                    String name = "dev.wordstats.numa.setup.NumaSetup"; // nor in a string
                }
                """);
        write(root, "queue/A.java", """
                package dev.wordstats.numa.lock.queue;
                import dev.wordstats.numa.topology.NodeLocator;
                import dev.wordstats.numa.lock.probe.*;
                class A {
                    Object b = dev.wordstats.numa.lock.jdk.B.probed();
                }
                """);
        write(root, "jdk/B.java", "package dev.wordstats.numa.lock.jdk;\nimport dev.wordstats.numa.setup.NumaSetup;\n");
        write(root, "other/C.java", "package dev.wordstats.numa.lock.other;\n");

        assertThat(violations(root))
                .containsExactlyInAnyOrder(
                        "Settings.java imports dev.wordstats.numa.lock.queue: in the API only LockType and"
                                + " ReadWriteGuards import an algorithm package",
                        "probe/Sink.java imports dev.wordstats.numa.lock.jdk: probe imports no algorithm package",
                        "queue/A.java imports dev.wordstats.numa.lock.jdk: queue and jdk do not import each other",
                        "jdk/B.java imports dev.wordstats.numa.setup: a lock package imports only topology and the"
                                + " lock packages",
                        "other/C.java: dev.wordstats.numa.lock.other is a lock package without rules here");
    }

    /** Every rule a source under {@code root} (the {@code lock} package's folder) breaks, one line each. */
    private static List<String> violations(Path root) {
        List<String> found = new ArrayList<>();
        for (Path source : sources(root)) {
            String name = root.relativize(source).toString().replace('\\', '/');
            String pkg = packageOf(root, source);
            if (!PACKAGES.contains(pkg)) {
                found.add(name + ": " + pkg + " is a lock package without rules here");
                continue;
            }
            for (String dependency : dependencies(read(source))) {
                String rule = broken(pkg, source.getFileName().toString(), dependency);
                if (rule != null) {
                    found.add(name + " imports " + dependency + ": " + rule);
                }
            }
        }
        return found;
    }

    /** The rule that {@code file} of {@code pkg} breaks by depending on {@code dependency}, or null. */
    private static String broken(String pkg, String file, String dependency) {
        if (!dependency.equals(PROJECT + ".topology") && !dependency.equals(API) && !dependency.startsWith(API + ".")) {
            return "a lock package imports only topology and the lock packages";
        }
        if (pkg.equals(PROBE) && ALGORITHMS.contains(dependency)) {
            return "probe imports no algorithm package";
        }
        if (pkg.equals(QUEUE) && dependency.equals(JDK) || pkg.equals(JDK) && dependency.equals(QUEUE)) {
            return "queue and jdk do not import each other";
        }
        if (pkg.equals(API) && ALGORITHMS.contains(dependency) && !FACTORIES.contains(file)) {
            return "in the API only LockType and ReadWriteGuards import an algorithm package";
        }
        return null;
    }

    /** The project packages {@code source} imports or names in its code, but its own. */
    private static Set<String> dependencies(String source) {
        String code = NOT_CODE.matcher(source).replaceAll(" ");
        Set<String> packages = new TreeSet<>();
        Matcher m = PROJECT_NAME.matcher(code);
        while (m.find()) {
            packages.add(PROJECT + m.group(1));
        }
        Matcher own = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE)
                .matcher(code);
        if (own.find()) {
            packages.remove(own.group(1));
        }
        return packages;
    }

    /** The package of {@code source}: {@code lock} and the folders from {@code root} down to it. */
    private static String packageOf(Path root, Path source) {
        Path dir = root.relativize(source.getParent());
        String sub = dir.toString().replace('\\', '/').replace('/', '.');
        return sub.isEmpty() ? API : API + "." + sub;
    }

    private static Set<String> packages(Path root) {
        Set<String> packages = new TreeSet<>();
        for (Path source : sources(root)) {
            packages.add(packageOf(root, source));
        }
        return packages;
    }

    /** The Java sources under {@code root}, package-infos left out. */
    private static List<Path> sources(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !f.getFileName().toString().equals("package-info.java"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path root, String name, String text) throws IOException {
        Path file = root.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
