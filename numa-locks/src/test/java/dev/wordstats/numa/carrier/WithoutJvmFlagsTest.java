package dev.wordstats.numa.carrier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The locator and the pinning in a child JVM without --add-exports/--add-opens: a per-thread cache
 * instead of the per-carrier one, carrier names from toString(), pinning still complete. A separate
 * process, so its pinning cannot disturb this JVM.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class WithoutJvmFlagsTest {

    @Test
    void withoutTheFlagsTheLocatorFallsBackToAPerThreadCacheAndPinningStillWorks() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(List.of(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WithoutJvmFlagsMain.class.getName()))
                .redirectErrorStream(true)
                .start();
        if (!process.waitFor(45, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not finish");
        }
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(text).isZero();
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
            }
        }

        assertThat(out.get("carrierLocal")).as(text).isEqualTo("false");
        assertThat(out.get("nodeInRange")).as(text).isEqualTo("true");
        assertThat(out.get("pinningComplete")).as(text).isEqualTo("true");
        assertThat(out.get("pinning"))
                .as(text)
                .matches("pinned \\d+ carriers?: ForkJoinPool-\\d+-worker-\\d+->cpu\\d+.*");
    }
}
