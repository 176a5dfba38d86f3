package dev.wordstats.numa;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import dev.wordstats.numa.lock.LockType;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Use it in your application" section, as written: its Java example is compiled and run
 * by its own {@code javac} and {@code java} command lines (the jar names replaced by this build's
 * module and JNA jar) on the module path, and once more on the class path with the class-path flags of
 * the README's "JVM flags". Each run must print what the example promises and no JVM warning; a second
 * program run with the same flags shows each flag takes effect: the per-carrier node cache and the
 * per-node schedulers are reachable, a native call through JNA warns of nothing, and JFR records the
 * library's lock-wait event.
 */
class LibrarySnippetTest {

    private static final Path README = Path.of("README.md");
    private static final String SECTION = "## Use it in your application";
    /**
     * Reaches what each flag opens (the carrier-local cache, the JDK's virtual-thread builder, getcpu through
     * JNA) and records a lock-wait event of the library, which JFR must register from the module.
     */
    private static final String CHECK_SOURCE = """
            import dev.wordstats.numa.carrier.CarrierNodeLocator;
            import dev.wordstats.numa.lock.LockType;
            import dev.wordstats.numa.lock.probe.JfrLockProbe;
            import dev.wordstats.numa.lock.probe.LockEvents;
            import dev.wordstats.numa.scheduler.CustomScheduler;
            import dev.wordstats.numa.topology.Topology;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import jdk.jfr.Recording;
            import jdk.jfr.consumer.RecordingFile;

            public class FlagsCheck {
                public static void main(String[] args) throws Exception {
                    Topology topology = Topology.detect();
                    // two simulated nodes, so the locator asks getcpu through JNA (one node never does)
                    int simulated = Math.min(2, topology.cpuCount());
                    var nodes = CarrierNodeLocator.create(topology.withSimulatedNodes(simulated));
                    System.out.println("node=" + nodes.currentNode());
                    System.out.println("carrierLocal=" + nodes.carrierLocal());
                    System.out.println("customScheduler=" + CustomScheduler.available());
                    Path file = Files.createTempFile("locks", ".jfr");
                    try (Recording recording = new Recording(LockEvents.settings())) {
                        recording.start();
                        // as a lock reports a wait: its start, the acquisition, then the release
                        var probe = new JfrLockProbe(LockType.NUMA_HANDOFF, nodes);
                        probe.wantsWaitNow();
                        Thread.sleep(2);
                        probe.acquired(true, 2_000_000);
                        probe.released(true, 2_000_000, 0);
                        recording.stop();
                        recording.dump(file);
                    }
                    long waits = RecordingFile.readAllEvents(file).stream()
                            .filter(event -> event.getEventType().getName().equals(LockEvents.WAIT))
                            .count();
                    Files.delete(file);
                    System.out.println("lockWaitEvents=" + waits);
                }
            }
            """;

    private static String example;
    private static List<String> javac;
    private static List<String> java;
    private static String moduleClasses;
    private static String jnaJar;

    @TempDir
    Path dir;

    @BeforeAll
    static void readReadme() throws IOException, URISyntaxException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int start = readme.indexOf(SECTION);
        assertThat(start).as("README section " + SECTION).isNotNegative();
        String section = readme.substring(start, readme.indexOf("\n## ", start + SECTION.length()));
        example = fencedBlock(section, "java");
        List<String> commands = fencedBlock(section, "sh")
                .replace("\\\n", " ")
                .lines()
                .filter(line -> !line.isBlank())
                .toList();
        assertThat(commands).hasSize(2);
        javac = tokens(commands.get(0));
        java = tokens(commands.get(1));
        assertThat(javac.getFirst()).isEqualTo("javac");
        assertThat(java.getFirst()).isEqualTo("java");
        moduleClasses = pathOf(LockType.class);
        jnaJar = pathOf(Native.class);
    }

    @Test
    void exampleCompilesAndRunsOnTheModulePathWithTheReadmeFlags() throws Exception {
        compileExampleAndCheck();
        assertThat(run(java, "java")).isEqualTo("{word=10000}\n");
        assertFlagsTakeEffect(java);
    }

    @Test
    void exampleRunsOnTheClassPathWithTheClassPathFlags() throws Exception {
        compileExampleAndCheck();
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        List<String> flags = fencedBlock(readme.substring(readme.indexOf("## JVM flags")), "")
                .lines()
                .filter(line -> line.startsWith("--"))
                .map(line -> line.split("\\s+")[0])
                .toList();
        assertThat(flags)
                .containsExactlyInAnyOrder(
                        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                        "--add-opens=java.base/java.lang=ALL-UNNAMED",
                        "--enable-native-access=ALL-UNNAMED");
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(flags);
        command.addAll(List.of("-cp", String.join(File.pathSeparator, ".", moduleClasses, jnaJar), java.getLast()));
        assertThat(run(command, "java")).isEqualTo("{word=10000}\n");
        assertFlagsTakeEffect(command);
    }

    private void compileExampleAndCheck() throws IOException, InterruptedException {
        run(javac, "javac");
        Files.writeString(dir.resolve("FlagsCheck.java"), CHECK_SOURCE);
        List<String> compileCheck = new ArrayList<>(javac);
        compileCheck.set(compileCheck.size() - 1, "FlagsCheck.java");
        run(compileCheck, "javac");
    }

    private void assertFlagsTakeEffect(List<String> exampleCommand) throws IOException, InterruptedException {
        List<String> check = new ArrayList<>(exampleCommand);
        check.set(check.size() - 1, "FlagsCheck");
        assertThat(run(check, "java"))
                .contains("carrierLocal=true")
                .contains("customScheduler=true")
                .contains("lockWaitEvents=1");
    }

    /** Runs a README command line in {@link #dir}, its tool and jar names replaced; returns its output. */
    private String run(List<String> readmeCommand, String tool) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("Example.java"), example);
        List<String> command = new ArrayList<>();
        for (String token : readmeCommand) {
            command.add(token.replace("numa-locks.jar", moduleClasses).replace("jna.jar", jnaJar));
        }
        command.set(0, Path.of(System.getProperty("java.home"), "bin", tool).toString());
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not finish within 60 s: " + command);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("%s%n%s", command, output).isZero();
        assertThat(output).as("%s%n%s", command, output).doesNotContainIgnoringCase("warning");
        return output;
    }

    /** The first fenced block of {@code text} whose info string is {@code language}. */
    private static String fencedBlock(String text, String language) {
        Matcher block = Pattern.compile("```" + Pattern.quote(language) + "\\n(.*?)```", Pattern.DOTALL)
                .matcher(text);
        assertThat(block.find()).as("a ```%s block", language).isTrue();
        return block.group(1);
    }

    private static List<String> tokens(String line) {
        return Arrays.asList(line.trim().split("\\s+"));
    }

    private static String pathOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }
}
