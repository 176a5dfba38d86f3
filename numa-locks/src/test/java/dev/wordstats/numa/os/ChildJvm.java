package dev.wordstats.numa.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test class path in a child JVM (the JVM running the tests, without its
 * flags unless given) and reads what it prints as {@code key=value} lines. For tests whose subject
 * must not touch this JVM (pinning) or needs other JVM options (no JNA, no --add-opens).
 *
 * @param text   everything the child printed, stdout and stderr, for failure messages
 * @param values the first value printed for each key
 */
public record ChildJvm(String text, Map<String, String> values) {

    /** Runs {@code main} with those JVM options; fails unless it exits 0 within 45 s. */
    public static ChildJvm run(Class<?> main, String... jvmOptions) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(45, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM running " + main.getSimpleName() + " did not finish");
        }
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(text).isZero();
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return new ChildJvm(text, values);
    }
}
