package dev.wordstats.numa.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.os.NativeCallException;
import dev.wordstats.numa.os.SchedulingPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link UnblockerPriority}: the policy it picks, how it finds the unblocker, and on Linux what it does to
 * this JVM's unblocker under the default policy and under a real-time one.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnblockerPriorityTest {

    private static final SchedulingPolicy DEFAULT = new SchedulingPolicy(SchedulingPolicy.OTHER, 0);

    @Test
    void aboveARealTimePolicyIsTheSamePolicyOnePriorityHigherAndNothingElse() {
        assertThat(UnblockerPriority.above(new SchedulingPolicy(SchedulingPolicy.RR, 10)))
                .contains(new SchedulingPolicy(SchedulingPolicy.RR, 11));
        assertThat(UnblockerPriority.above(new SchedulingPolicy(SchedulingPolicy.FIFO, 1)))
                .contains(new SchedulingPolicy(SchedulingPolicy.FIFO, 2));
        assertThat(UnblockerPriority.above(DEFAULT))
                .as("time-sharing: nothing to be ahead of")
                .isEmpty();
        assertThat(UnblockerPriority.above(new SchedulingPolicy(3, 0)))
                .as("SCHED_BATCH")
                .isEmpty();
        assertThat(UnblockerPriority.above(new SchedulingPolicy(SchedulingPolicy.RR, 99)))
                .as("no priority above the top one")
                .isEmpty();
    }

    @Test
    void findsThreadsByTheFirst15BytesOfTheirNameAndSkipsOthers(@TempDir Path tasks) throws IOException {
        task(tasks, 4711, "VirtualThread-u\n");
        task(tasks, 12, "ForkJoinPool-1-w\n");
        task(tasks, 99, "VirtualThread-u\n");
        Files.createDirectories(tasks.resolve("300")); // a thread that ended before its comm was read
        assertThat(UnblockerPriority.COMM).isEqualTo("VirtualThread-u");
        assertThat(UnblockerPriority.tidsNamed(tasks, UnblockerPriority.COMM)).containsExactly(99, 4711);
        assertThat(UnblockerPriority.tidsNamed(tasks, "main")).isEmpty();
    }

    @Test
    void underTheDefaultPolicyTheUnblockerIsLeftAsIs() throws InterruptedException {
        assumeTrue(LinuxNative.available(), LinuxNative::unavailableReason);
        AtomicReference<String> said = new AtomicReference<>();
        List<Integer> wakers = wakers();
        List<SchedulingPolicy> before = policies(wakers);
        Thread caller = Thread.ofPlatform().start(() -> {
            LinuxNative.setSchedulingPolicy(0, DEFAULT); // as a JVM started without chrt
            said.set(UnblockerPriority.keepAheadOfCarriers());
        });
        caller.join();
        assertThat(said.get()).isEqualTo("left as is (this JVM runs SCHED_OTHER)");
        assertThat(policies(wakers)).isEqualTo(before);
    }

    @Test
    void underARealTimePolicyTheUnblockerGoesOnePriorityAbove() throws InterruptedException {
        assumeTrue(LinuxNative.available(), LinuxNative::unavailableReason);
        AtomicReference<String> said = new AtomicReference<>();
        AtomicReference<List<SchedulingPolicy>> raised = new AtomicReference<>();
        AtomicReference<String> refused = new AtomicReference<>();
        List<Integer> wakers = wakers();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                LinuxNative.setSchedulingPolicy(0, new SchedulingPolicy(SchedulingPolicy.RR, 1));
            } catch (NativeCallException e) { // EPERM: no right to a real-time policy here
                refused.set(e.getMessage());
                return;
            }
            try {
                said.set(UnblockerPriority.keepAheadOfCarriers());
                raised.set(policies(wakers));
            } finally {
                for (int tid : wakers) { // the other tests run under the default policy
                    LinuxNative.setSchedulingPolicy(tid, DEFAULT);
                }
                LinuxNative.setSchedulingPolicy(0, DEFAULT);
            }
        });
        caller.join();
        assumeTrue(refused.get() == null, () -> "real-time policies refused: " + refused.get());
        assertThat(raised.get()).containsOnly(new SchedulingPolicy(SchedulingPolicy.RR, 2));
        assertThat(said.get())
                .isEqualTo("VirtualThread-unblocker (and -unparker) " + wakers
                        + " at SCHED_RR 2, above the carriers' SCHED_RR 1");
        assertThat(policies(wakers)).as("restored").containsOnly(DEFAULT);
    }

    /**
     * This JVM's unblocker (started by the JDK when VirtualThread is initialized, named once it runs) and any
     * VirtualThread-unparker of a custom scheduler an earlier test used: one name to Linux.
     */
    private static List<Integer> wakers() throws InterruptedException {
        Thread.ofVirtual().unstarted(() -> {});
        if (CustomScheduler.available()) { // a timed park on a custom scheduler starts an unparker
            ExecutorService carrier = Executors.newSingleThreadExecutor();
            try {
                CustomScheduler.builder(carrier)
                        .start(() -> LockSupport.parkNanos(1_000_000L))
                        .join();
            } finally {
                carrier.shutdown();
            }
        }
        List<Integer> tids = UnblockerPriority.find(Path.of("/proc/self/task"));
        assertThat(tids)
                .as("the unblocker, and an unparker where custom schedulers work")
                .hasSizeGreaterThanOrEqualTo(CustomScheduler.available() ? 2 : 1);
        return tids;
    }

    private static List<SchedulingPolicy> policies(List<Integer> tids) {
        return tids.stream().map(LinuxNative::schedulingPolicy).toList();
    }

    private static void task(Path tasks, int tid, String comm) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.writeString(dir.resolve("comm"), comm);
    }
}
