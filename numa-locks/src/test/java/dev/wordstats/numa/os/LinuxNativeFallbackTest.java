package dev.wordstats.numa.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
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
        return ChildJvm.run(
                        NativeFallbackMain.class,
                        "-Djna.nosys=true",
                        "-Djna.noclasspath=true",
                        "-Djna.nounpack=true",
                        "-Djna.boot.library.path=/nonexistent")
                .values();
    }
}
