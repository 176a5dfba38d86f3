package dev.wordstats.numa.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.setup.NumaSetup;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Node-affine virtual threads on two simulated nodes over this machine's CPUs: each check runs
 * inside the virtual thread, after every park, sleep or socket read, and looks at the carrier
 * (a {@code NodeCarrierThread} of the right node) and at the carrier's affinity
 * ({@code sched_getaffinity}: only the node's CPUs). Cycle counts are fixed; every wait is bounded.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class NodeSchedulersTest {

    private static final int CYCLES = Integer.getInteger("wordstats.test.schedulerCycles", 2_000);
    private static final long WAIT_SECONDS = 60;

    private NumaSetup numa;
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void twoSimulatedNodes() {
        assumeTrue(CustomScheduler.available(), "custom scheduler unavailable: " + CustomScheduler.unavailableReason());
        numa = NumaSetup.builder()
                .simulatedNodes(2)
                .scheduler(SchedulerMode.PER_NODE)
                .build();
        assertThat(numa.schedulers().perNode()).isTrue();
    }

    @AfterEach
    void close() {
        if (numa != null) {
            numa.close();
        }
    }

    /** Records a violation unless the calling virtual thread is on one of node {@code node}'s carriers. */
    private void checkOnNode(int node, String where) {
        Thread carrier = CustomScheduler.currentCarrier();
        if (!(carrier instanceof NodeCarrierThread c) || c.node != node || c.scheduler.owner != numa.schedulers()) {
            violations.add(where + ": carrier " + carrier + " is not one of node " + node + "'s");
            return;
        }
        if (!carrier.getName().startsWith("wordstats-node" + node + "-carrier-")) {
            violations.add(where + ": carrier name " + carrier.getName());
        }
        BitSet affinity = LinuxNative.getAffinity();
        BitSet outside = (BitSet) affinity.clone();
        outside.andNot(numa.schedulers().node(node).cpus());
        if (affinity.isEmpty() || !outside.isEmpty()) {
            violations.add(where + ": carrier affinity " + affinity + " is not within node " + node + "'s CPUs");
        }
        int seen = numa.locator().currentNode();
        if (seen != node) {
            violations.add(where + ": locator said node " + seen);
        }
    }

    private Thread startOn(int node, String name, ThrowingRunnable body) {
        return numa.schedulers().builder(node).name(name).start(() -> {
            try {
                body.run();
            } catch (Exception e) {
                violations.add(name + " failed: " + e);
            }
        });
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            assertThat(t.join(Duration.ofSeconds(WAIT_SECONDS)))
                    .as(t + " finished")
                    .isTrue();
        }
    }

    @Test
    void parkAndUnparkAcrossNodesNeverMovesAThread() throws Exception {
        SynchronousQueue<Integer> toOne = new SynchronousQueue<>();
        SynchronousQueue<Integer> toZero = new SynchronousQueue<>();
        AtomicInteger rounds = new AtomicInteger();
        Thread zero = startOn(0, "ping-node0", () -> {
            for (int i = 0; i < CYCLES; i++) {
                checkOnNode(0, "ping " + i);
                if (!toOne.offer(i, WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no partner");
                }
                toZero.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        });
        Thread one = startOn(1, "pong-node1", () -> {
            for (int i = 0; i < CYCLES; i++) {
                toOne.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                checkOnNode(1, "pong " + i);
                rounds.incrementAndGet();
                if (!toZero.offer(i, WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no partner");
                }
            }
        });
        joinAll(List.of(zero, one));
        assertThat(violations).isEmpty();
        assertThat(rounds).hasValue(CYCLES);
    }

    @Test
    void bareParkUnparkFromAPlatformThreadKeepsTheNode() throws Exception {
        AtomicInteger done = new AtomicInteger();
        Thread parked = startOn(1, "parker-node1", () -> {
            for (int i = 0; i < CYCLES; i++) {
                checkOnNode(1, "park " + i);
                LockSupport.park(); // spurious returns are fine: the check runs again
                done.incrementAndGet();
            }
        });
        Thread unparker = new Thread(() -> {
            while (parked.isAlive()) {
                LockSupport.unpark(parked);
                Thread.onSpinWait();
            }
        });
        unparker.start();
        joinAll(List.of(parked));
        unparker.join(Duration.ofSeconds(WAIT_SECONDS));
        assertThat(violations).isEmpty();
        assertThat(done).hasValue(CYCLES);
    }

    @Test
    void timedWaitsKeepTheNode() throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int node = 0; node < 2; node++) {
            int k = node;
            threads.add(startOn(k, "sleeper-node" + k, () -> {
                for (int i = 0; i < CYCLES; i++) {
                    checkOnNode(k, "sleep " + i);
                    Thread.sleep(Duration.ofNanos(10_000));
                    LockSupport.parkNanos(1_000);
                }
                checkOnNode(k, "after sleeping");
            }));
        }
        joinAll(threads);
        assertThat(violations).isEmpty();
    }

    @Test
    void blockingSocketReadsKeepTheNode() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            // the echo side runs on node 0, the reading client on node 1: each read parks the client
            Thread echo = startOn(0, "echo-node0", () -> {
                try (Socket socket = server.accept();
                        InputStream in = socket.getInputStream();
                        OutputStream out = socket.getOutputStream()) {
                    for (int i = 0; i < CYCLES; i++) {
                        int b = in.read();
                        checkOnNode(0, "echo read " + i);
                        out.write(b);
                        out.flush();
                    }
                }
            });
            Thread client = startOn(1, "client-node1", () -> {
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                    socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
                    socket.setTcpNoDelay(true);
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    for (int i = 0; i < CYCLES; i++) {
                        out.write(i & 0x7f);
                        out.flush();
                        int b = in.read();
                        if (b != (i & 0x7f)) {
                            throw new IllegalStateException("echo " + b + " for " + (i & 0x7f));
                        }
                        checkOnNode(1, "client read " + i);
                    }
                }
            });
            joinAll(List.of(echo, client));
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void carriersAreNamedAndPinnedToTheirNode() throws Exception {
        startOn(0, "a", () -> {}).join();
        startOn(1, "b", () -> {}).join();
        for (NodeScheduler node : numa.schedulers().nodes()) {
            assertThat(node.carriers()).isNotEmpty().allSatisfy(carrier -> {
                assertThat(carrier.name()).matches("wordstats-node" + node.node() + "-carrier-\\d+");
                assertThat(carrier.pinned()).as(carrier.toString()).isTrue();
                assertThat(carrier.cpus())
                        .isSubsetOf(node.cpus().stream().boxed().toList());
            });
        }
    }

    @Test
    void lookupOutsideTheSchedulersFallsBackToTheCarrierCache() throws Exception {
        int[] fromPlatform = {-1};
        Thread platform = new Thread(() -> fromPlatform[0] = numa.locator().currentNode());
        platform.start();
        platform.join();
        assertThat(fromPlatform[0]).isBetween(0, 1);
        int[] fromDefault = {-1};
        Thread.ofVirtual()
                .start(() -> fromDefault[0] = numa.locator().currentNode())
                .join();
        assertThat(fromDefault[0]).isBetween(0, 1);
    }

    @Test
    void roundRobinPlacementSpreadsThreadsEvenly() throws Exception {
        List<Thread> threads = new ArrayList<>();
        int[] seen = new int[2];
        for (int i = 0; i < 100; i++) {
            Thread t = numa.schedulers().placingFactory("placed-").newThread(() -> {
                int node = numa.locator().currentNode();
                synchronized (seen) {
                    seen[node]++;
                }
            });
            t.start();
            threads.add(t);
        }
        joinAll(threads);
        assertThat(seen).containsExactly(50, 50);
        assertThat(numa.schedulers().node(0).threadsStarted()).isEqualTo(50);
        assertThat(numa.schedulers().node(1).threadsStarted()).isEqualTo(50);
    }

    @Test
    void leastLoadedPlacementAvoidsTheBusyNode() throws Exception {
        try (NumaSetup leastLoaded = NumaSetup.builder()
                .simulatedNodes(2)
                .scheduler(SchedulerMode.PER_NODE)
                .placement(Placement.LEAST_LOADED)
                .build()) {
            NodeSchedulers schedulers = leastLoaded.schedulers();
            CountDownLatch release = new CountDownLatch(1);
            List<Thread> busy = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Thread t = schedulers.node(0).newThread(() -> awaitQuietly(release), "busy-");
                t.start();
                busy.add(t);
            }
            List<Integer> chosen = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                chosen.add(schedulers.nextNode());
            }
            release.countDown();
            joinAll(busy);
            assertThat(chosen).containsOnly(1);
        }
    }

    @Test
    void helpersStartedFromANodeStayOnIt() throws Exception {
        int[] helperNodes = {-1, -1, -1};
        Thread parent = startOn(1, "parent-node1", () -> {
            Thread helper = numa.schedulers().currentNodeFactory("helper-").newThread(() -> {
                checkOnNode(1, "helper");
                helperNodes[0] = numa.locator().currentNode();
            });
            helper.start();
            helper.join();
            Thread inherited = Thread.ofVirtual()
                    .start(() -> helperNodes[1] = numa.locator().currentNode());
            inherited.join();
            helperNodes[2] = numa.schedulers().node(1).threadsStarted() > 0 ? 1 : 0;
        });
        joinAll(List.of(parent));
        assertThat(violations).isEmpty();
        assertThat(helperNodes).containsExactly(1, 1, 1);
    }

    @Test
    void threadDumpsStillListTheVirtualThreads() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread waiting = startOn(1, "dump-me-on-node1", () -> release.await(WAIT_SECONDS, TimeUnit.SECONDS));
        Path dir = Files.createTempDirectory("thread-dump");
        Path file = dir.resolve("threads.json");
        try {
            // the same dump as `jcmd <pid> Thread.dump_to_file -format=json <file>`
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            assertThat(Files.readString(file)).contains("dump-me-on-node1");
        } finally {
            release.countDown();
            waiting.join(Duration.ofSeconds(WAIT_SECONDS));
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void closeStopsTheCarriers() throws Exception {
        startOn(0, "a", () -> {}).join();
        startOn(1, "b", () -> {}).join();
        List<Thread> carriers = numa.schedulers().carrierThreads();
        assertThat(carriers).hasSizeGreaterThanOrEqualTo(2);
        numa.close();
        for (Thread carrier : carriers) {
            // join's answer, not isAlive(): on JDK 25 it returns once the thread is TERMINATED, a
            // moment before isAlive() turns false
            assertThat(carrier.join(Duration.ofSeconds(WAIT_SECONDS)))
                    .as(carrier.getName())
                    .isTrue();
        }
        assertThat(numa.schedulers().carrierThreads()).isEmpty();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
