package dev.wordstats.benchmarks.contention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class CarrierTimesTest {

    @TempDir
    Path tasks;

    private void thread(String tid, String comm, String schedstat) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        if (schedstat != null) {
            Files.writeString(dir.resolve("schedstat"), schedstat + "\n");
        }
    }

    @Test
    void sumsTheCarriersAndLeavesOtherThreadsOut() throws IOException {
        thread("100", "java", "9000000 5000 10");
        thread("101", "ForkJoinPool-1-", "3000000 200000 40"); // "ForkJoinPool-1-worker-1" as Linux keeps it
        thread("102", "ForkJoinPool-1-", "1000000 100000 30");
        thread("103", "wordstats-node1", "500000 0 2");
        thread("104", "C2 CompilerThre", "7000000 900000 5");
        thread("105", "ForkJoinPool.co", "1 1 1"); // the common pool: not a carrier

        List<Path> carriers = CarrierTimes.carrierTasks(tasks);
        CarrierTimes times = CarrierTimes.read(carriers);

        assertThat(carriers)
                .containsExactlyInAnyOrder(tasks.resolve("101"), tasks.resolve("102"), tasks.resolve("103"));
        assertThat(times).isEqualTo(new CarrierTimes(4_500_000, 300_000, 3));
        assertThat(times.available()).isTrue();
    }

    @Test
    void busyCpusAndPreemptedShareAreDeltasOverTheWallTime() {
        CarrierTimes start = new CarrierTimes(1_000_000, 10_000, 2);
        CarrierTimes end = new CarrierTimes(1_000_000 + 1_800_000, 10_000 + 40_000, 2);

        assertThat(end.busyCpusSince(start, 1_000_000)).isEqualTo(1.8);
        assertThat(end.waitingPctSince(start, 1_000_000)).isEqualTo(2.0); // 40 us of 2 x 1 ms
    }

    @Test
    void withoutSchedulerStatisticsEveryFigureIsNaN() throws IOException {
        thread("101", "ForkJoinPool-1-", null); // a kernel without schedstat files
        CarrierTimes missing = CarrierTimes.read(CarrierTimes.carrierTasks(tasks));
        CarrierTimes noDirectory = CarrierTimes.read(CarrierTimes.carrierTasks(tasks.resolve("absent")));
        CarrierTimes some = new CarrierTimes(1_000, 0, 1);

        assertThat(missing.available()).isFalse();
        assertThat(noDirectory.available()).isFalse();
        assertThat(some.busyCpusSince(missing, 1_000)).isNaN();
        assertThat(missing.waitingPctSince(some, 1_000)).isNaN();
        assertThat(some.busyCpusSince(some, 0)).isNaN();
    }

    @Test
    void aGarbledLineMakesTheReadingUnavailable() throws IOException {
        thread("101", "ForkJoinPool-1-", "12 x 3");

        assertThat(CarrierTimes.read(CarrierTimes.carrierTasks(tasks)).available())
                .isFalse();
    }

    /** On Linux, the carriers of virtual threads that burn CPU show up with their CPU time. */
    @Test
    void seesTheJdkSchedulersCarriersRunVirtualThreads() throws InterruptedException {
        assumeThat(Path.of("/proc/self/task")).isDirectory();
        assumeThat(Files.isReadable(Path.of("/proc/self/schedstat"))).isTrue();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            threads.add(Thread.ofVirtual().start(() -> {})); // the scheduler's carriers exist from here
        }
        for (Thread t : threads) {
            t.join();
        }
        List<Path> carriers = CarrierTimes.carrierTasks();
        CarrierTimes start = CarrierTimes.read(carriers);
        long begin = System.nanoTime();
        threads.clear();
        for (int i = 0; i < 4; i++) {
            threads.add(Thread.ofVirtual().start(CarrierTimesTest::burn));
        }
        for (Thread t : threads) {
            t.join();
        }
        CarrierTimes end = CarrierTimes.read(carriers);

        assertThat(start.available()).isTrue();
        assertThat(end.carriers()).isPositive();
        assertThat(end.onCpuNanos() - start.onCpuNanos()).isGreaterThanOrEqualTo(10_000_000L); // 4 x ~20 ms burnt
        assertThat(end.busyCpusSince(start, System.nanoTime() - begin)).isPositive();
        assertThat(end.waitingPctSince(start, System.nanoTime() - begin)).isBetween(0.0, 100.0);
    }

    private static void burn() {
        long until = System.nanoTime() + 20_000_000L;
        long x = 1;
        while (System.nanoTime() < until) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        if (x == 42) {
            System.out.print("");
        }
    }
}
