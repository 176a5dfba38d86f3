package dev.wordstats.numa.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The real libc calls on the machine running the build. */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class LinuxNativeTest {

    @Test
    void isAvailableOnLinux() {
        assertThat(LinuxNative.unavailableReason()).isEmpty();
        assertThat(LinuxNative.available()).isTrue();
    }

    @Test
    void getcpuReturnsACpuOfTheAffinityMaskAndItsKernelNode() {
        BitSet allowed = LinuxNative.getAffinity();
        for (int i = 0; i < 100; i++) {
            CpuLocation where = LinuxNative.getcpu();

            assertThat(allowed.get(where.cpu()))
                    .as("cpu %d in %s", where.cpu(), allowed)
                    .isTrue();
            assertThat(Path.of("/sys/devices/system/cpu/cpu" + where.cpu() + "/node" + where.node()))
                    .as("cpu %d is on node %d", where.cpu(), where.node())
                    .exists();
            assertThat(allowed.get(LinuxNative.currentCpu())).isTrue();
        }
    }

    @Test
    void affinityMatchesTheProcessStatus() throws Exception {
        String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring("Cpus_allowed_list:".length()).strip())
                .findFirst()
                .orElseThrow();

        // a new platform thread inherits the process mask (the test runner's threads are unpinned too)
        assertThat(onNewPlatformThread(LinuxNative::getAffinity)).isEqualTo(parse(allowed));
    }

    @Test
    void setThenGetAffinityRoundTripsOnAPlatformThreadAndIsRestored() throws Exception {
        String result = onNewPlatformThread(() -> {
            BitSet original = LinuxNative.getAffinity();
            StringBuilder log = new StringBuilder();
            try {
                for (int cpu = original.nextSetBit(0); cpu >= 0; cpu = original.nextSetBit(cpu + 1)) {
                    BitSet one = new BitSet();
                    one.set(cpu);
                    LinuxNative.setAffinity(one);
                    log.append(cpu)
                            .append(':')
                            .append(LinuxNative.getAffinity().equals(one))
                            .append(LinuxNative.currentCpu() == cpu)
                            .append(' ');
                }
            } finally {
                LinuxNative.setAffinity(original);
            }
            log.append("restored:").append(LinuxNative.getAffinity().equals(original));
            return log.toString();
        });

        assertThat(result).doesNotContain("false").endsWith("restored:true");
        assertThat(result.split(" ")).hasSize(LinuxNative.getAffinity().cardinality() + 1);
    }

    @Test
    void kernelRefusalBecomesAnExceptionNamingTheCallAndErrno() throws Exception {
        BitSet offline = new BitSet();
        offline.set(4000);

        Throwable thrown = onNewPlatformThread(() -> {
            try {
                LinuxNative.setAffinity(offline);
                return null;
            } catch (NativeCallException e) {
                return e;
            }
        });

        assertThat(thrown)
                .isInstanceOf(NativeCallException.class)
                .hasMessageStartingWith("sched_setaffinity(0, 504, {4000}) failed: errno 22 (Invalid argument)");
        assertThat(((NativeCallException) thrown).errno()).isEqualTo(22);
        assertThat(((NativeCallException) thrown).call()).startsWith("sched_setaffinity(");
    }

    @Test
    void emptyMaskIsAProgrammerError() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LinuxNative.setAffinity(new BitSet()))
                .withMessageContaining("at least one CPU");
    }

    @Test
    void getcpuFromAVirtualThreadReportsItsCarriersCpu() throws Exception {
        BitSet allowed = LinuxNative.getAffinity();
        AtomicReference<CpuLocation> seen = new AtomicReference<>();
        Thread.ofVirtual().start(() -> seen.set(LinuxNative.getcpu())).join();

        assertThat(allowed.get(seen.get().cpu())).isTrue();
    }

    static BitSet parse(String list) {
        BitSet set = new BitSet();
        for (String part : list.split(",")) {
            String[] ends = part.split("-");
            set.set(Integer.parseInt(ends[0]), Integer.parseInt(ends[ends.length - 1]) + 1);
        }
        return set;
    }

    interface Task<T> {
        T call() throws Exception;
    }

    /** Runs on a fresh platform thread, so affinity changes never touch the test runner's threads. */
    static <T> T onNewPlatformThread(Task<T> task) throws Exception {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            try {
                result.set(task.call());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        thread.join();
        if (failure.get() instanceof Exception e) {
            throw e;
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return result.get();
    }
}
