package dev.wordstats.numa.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** LinuxNative and Topology in a JVM where JNA cannot load: fallbacks, no class-loading failure. */
@Timeout(60)
class LinuxNativeFallbackTest {

    @Test
    void withoutJnaNativeSupportEverythingFallsBackCleanly() throws Exception {
        Map<String, String> out = runChildWithoutJna();

        assertThat(out.get("available")).isEqualTo("false");
        assertThat(out.get("reason")).isNotEmpty();
        assertThat(out.get("getcpu")).isEqualTo("CpuLocation[cpu=-1, node=0]");
        assertThat(out.get("currentCpu")).isEqualTo("-1");
        int processors = Integer.parseInt(out.get("processors"));
        java.util.BitSet all = new java.util.BitSet();
        all.set(0, processors);
        assertThat(out.get("affinity")).isEqualTo(all.toString());
        assertThat(out.get("setAffinity"))
                .startsWith("java.lang.UnsupportedOperationException: cannot set the CPU "
                        + "affinity: native calls are unavailable (");
        assertThat(out.get("topology")).contains(" CPU").contains("source: ");
    }

    private static Map<String, String> runChildWithoutJna() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Djna.nosys=true",
                "-Djna.noclasspath=true",
                "-Djna.nounpack=true",
                "-Djna.boot.library.path=/nonexistent",
                "-cp",
                System.getProperty("java.class.path"),
                NativeFallbackMain.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(45, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not finish");
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
        return values;
    }
}
