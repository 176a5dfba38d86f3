package dev.wordstats.numa.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The fallback path, in child JVMs: per-node mode asked for, the default scheduler given, the
 * reason in the one summary line, and virtual threads and the node lookup still working.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class SchedulerFallbackTest {

    @Test
    void withoutAddOpensPerNodeFallsBackToTheDefaultScheduler() throws Exception {
        Map<String, String> out = runChild(List.of("--enable-native-access=ALL-UNNAMED"));
        assertFellBack(out);
        assertThat(out.get("summary")).contains("--add-opens java.base/java.lang=ALL-UNNAMED");
    }

    @Test
    void disablingTheCustomSchedulerFallsBackEvenWithTheFlags() throws Exception {
        Map<String, String> out = runChild(List.of(
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-D" + CustomScheduler.DISABLE_PROPERTY + "=true"));
        assertFellBack(out);
        assertThat(out.get("summary")).contains(CustomScheduler.DISABLE_PROPERTY);
    }

    @Test
    void withTheFlagsPerNodeModeIsActive() throws Exception {
        Map<String, String> out =
                runChild(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"));
        assertThat(out.get("available")).isEqualTo("true");
        assertThat(out.get("active")).isEqualTo("per-node");
        assertThat(out.get("summary")).startsWith("per-node (round-robin placement");
        assertThat(out.get("ranVirtual")).isEqualTo("true");
        assertThat(Integer.parseInt(out.get("carriers"))).isPositive();
    }

    private static void assertFellBack(Map<String, String> out) {
        assertThat(out.get("available")).isEqualTo("false");
        assertThat(out.get("requested")).isEqualTo("per-node");
        assertThat(out.get("active")).isEqualTo("default");
        assertThat(out.get("summary")).startsWith("default (per-node unavailable: ");
        assertThat(out.get("ranVirtual")).isEqualTo("true");
        assertThat(out.get("nodeInRange")).isEqualTo("true");
        assertThat(out.get("carriers")).isEqualTo("0");
    }

    private static Map<String, String> runChild(List<String> flags) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(flags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FallbackMain.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not finish");
        }
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(text).isZero();
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.putIfAbsent(line.substring(0, eq), line.substring(eq + 1).strip());
            }
        }
        return out;
    }
}
