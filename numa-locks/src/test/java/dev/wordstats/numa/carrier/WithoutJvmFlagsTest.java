package dev.wordstats.numa.carrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.os.ChildJvm;
import java.util.Map;
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
        ChildJvm child = ChildJvm.run(WithoutJvmFlagsMain.class, "--enable-native-access=ALL-UNNAMED");
        Map<String, String> out = child.values();
        String text = child.text();

        assertThat(out.get("carrierLocal")).as(text).isEqualTo("false");
        assertThat(out.get("nodeInRange")).as(text).isEqualTo("true");
        assertThat(out.get("pinningComplete")).as(text).isEqualTo("true");
        assertThat(out.get("pinning"))
                .as(text)
                .matches("pinned \\d+ carriers?: ForkJoinPool-\\d+-worker-\\d+->cpu\\d+.*");
    }
}
