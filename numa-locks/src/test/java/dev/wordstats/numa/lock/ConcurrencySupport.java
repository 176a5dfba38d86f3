package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;

/**
 * Bounds and helpers shared by the concurrency tests of the lock and counts packages, after
 * JCTools' {@code TestUtil}: every duration and thread count comes from a system property with a
 * small default, so {@code ./mvnw verify} stays short on a 2-core machine and a soak run is one
 * {@code -D} away, e.g. {@code -Dwordstats.test.durationMillis=10000 -Dwordstats.test.virtualThreads=500}.
 */
public final class ConcurrencySupport {

    /** How long each duration-bounded stress loop runs ({@code wordstats.test.durationMillis}, default 500). */
    public static final long DURATION_MILLIS = Long.getLong("wordstats.test.durationMillis", 500L);

    /** Platform threads per stress test ({@code wordstats.test.threads}, default {@code min(4, nCPU)}, at least 2). */
    public static final int PLATFORM_THREADS = Integer.getInteger(
            "wordstats.test.threads",
            Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors())));

    /** Virtual threads per stress test ({@code wordstats.test.virtualThreads}, default 32). */
    public static final int VIRTUAL_THREADS = Integer.getInteger("wordstats.test.virtualThreads", 32);

    /** Seed of every random choice ({@code wordstats.test.seed}); printed by the tests that use it. */
    public static final long SEED = Long.getLong("wordstats.test.seed", System.nanoTime());

    /** How long a step that should be prompt (a wake-up, an interrupt, a join) may take before the test fails. */
    public static final Duration PROMPT = Duration.ofSeconds(10);

    private ConcurrencySupport() {}

    /** The two kinds of threads every contract runs with. */
    public enum ThreadKind {
        VIRTUAL {
            @Override
            public Thread unstarted(String name, Runnable body) {
                return Thread.ofVirtual().name(name).unstarted(body);
            }

            @Override
            public int stressThreads() {
                return VIRTUAL_THREADS;
            }
        },
        PLATFORM {
            @Override
            public Thread unstarted(String name, Runnable body) {
                // Daemon, so a hung test thread cannot keep the forked test JVM alive.
                return Thread.ofPlatform().name(name).daemon(true).unstarted(body);
            }

            @Override
            public int stressThreads() {
                return PLATFORM_THREADS;
            }
        };

        public abstract Thread unstarted(String name, Runnable body);

        /** How many threads of this kind a stress test starts. */
        public abstract int stressThreads();
    }

    /** A test body that may throw. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Threads started by one test. {@link #joinAll(Duration)} fails the test with a dump of every
     * thread still running when the deadline passes, and rethrows the first failure of any thread.
     */
    public static final class Workers implements AutoCloseable {
        private final List<Thread> threads = new ArrayList<>();
        private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        private final Object context;

        /** {@code context} is printed with a hang report (e.g. the lock and the seed). */
        public Workers(Object context) {
            this.context = context;
        }

        public Thread start(ThreadKind kind, String name, Body body) {
            Thread thread = kind.unstarted(name, () -> {
                try {
                    body.run();
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
            synchronized (threads) {
                threads.add(thread);
            }
            thread.start();
            return thread;
        }

        /** Waits for every thread; fails with a thread dump if some are still alive after {@code timeout}. */
        public void joinAll(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            List<Thread> snapshot;
            synchronized (threads) {
                snapshot = List.copyOf(threads);
            }
            List<Thread> alive = new ArrayList<>();
            for (Thread thread : snapshot) {
                long left = deadline - System.nanoTime();
                // join's answer, not isAlive(): on JDK 25 join(Duration) returns true once the thread
                // is TERMINATED, a moment before isAlive() turns false
                if (!thread.join(Duration.ofNanos(Math.max(left, 0L)))) {
                    alive.add(thread);
                }
            }
            if (!alive.isEmpty()) {
                throw new AssertionError(alive.size() + " of " + snapshot.size() + " threads still running after "
                        + timeout + " (hang or lost wake-up); " + context + "\n" + dump(alive));
            }
            rethrowFailures();
        }

        /** Rethrows the first failure of any thread, with the others suppressed. */
        public void rethrowFailures() {
            Throwable first = failures.poll();
            if (first == null) {
                return;
            }
            for (Throwable t; (t = failures.poll()) != null; ) {
                first.addSuppressed(t);
            }
            if (first instanceof Error e) {
                throw e;
            }
            throw new AssertionError("a test thread failed; " + context, first);
        }

        /** Interrupts whatever is still running, so a failed test leaves nothing behind. */
        @Override
        public void close() {
            synchronized (threads) {
                threads.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
            }
        }
    }

    /** Name, state and stack of each thread. */
    public static String dump(List<Thread> threads) {
        StringBuilder out = new StringBuilder();
        for (Thread thread : threads) {
            out.append('"')
                    .append(thread.getName())
                    .append("\" ")
                    .append(thread.isVirtual() ? "virtual " : "platform ")
                    .append(thread.getState())
                    .append('\n');
            for (StackTraceElement frame : thread.getStackTrace()) {
                out.append("    at ").append(frame).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * Waits until {@code thread} is parked (WAITING or TIMED_WAITING), blocked on a monitor (BLOCKED,
     * as a thread waiting to enter {@code synchronized} is) or done; returns {@code false} if it is
     * still running after {@code max}.
     */
    public static boolean awaitParkedOrDone(Thread thread, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            Thread.State state = thread.getState();
            if (state == Thread.State.WAITING
                    || state == Thread.State.TIMED_WAITING
                    || state == Thread.State.BLOCKED
                    || state == Thread.State.TERMINATED) {
                return true;
            }
            Thread.sleep(1);
        }
        return false;
    }

    /**
     * Starts a thread of {@code kind} that takes {@code lock}, holds it until {@link Holder#release()}, then
     * unlocks.
     */
    public static Holder hold(Lock lock, ThreadKind kind, Workers workers) throws InterruptedException {
        Holder holder = new Holder();
        holder.thread = workers.start(kind, "holder", () -> {
            lock.lock();
            try {
                holder.acquired.countDown();
                holder.release.await();
            } finally {
                lock.unlock();
            }
        });
        if (!holder.acquired.await(PROMPT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("holder did not take a free lock");
        }
        return holder;
    }

    /** A thread holding a lock until released. */
    public static final class Holder {
        final CountDownLatch acquired = new CountDownLatch(1);
        public final CountDownLatch release = new CountDownLatch(1);
        public Thread thread;

        /** Lets the holder unlock and waits until it has. */
        public void release() throws InterruptedException {
            release.countDown();
            if (!thread.join(PROMPT)) { // join's answer, not isAlive() (see Workers.joinAll)
                throw new AssertionError("holder did not finish unlocking\n" + dump(List.of(thread)));
            }
        }
    }

    /**
     * A critical section that detects a broken lock: a non-atomic counter that loses updates and an
     * "inside" marker that sees another thread in the section.
     */
    public static final class CriticalSection {
        private final AtomicReference<Thread> inside = new AtomicReference<>();
        private final Queue<String> violations = new ConcurrentLinkedQueue<>();
        private long counter; // plain on purpose: only the lock orders its read-modify-write

        /** Runs the section once; {@code yieldInside} gives the scheduler a chance to interleave. */
        public void enter(boolean yieldInside) {
            Thread me = Thread.currentThread();
            Thread other = inside.getAndSet(me);
            if (other != null) {
                violations.add(me.getName() + " entered while " + other.getName() + " was inside");
            }
            long value = counter;
            if (yieldInside) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
            counter = value + 1;
            if (!inside.compareAndSet(me, null)) {
                violations.add(me.getName() + " left while " + inside.get() + " was marked inside");
            }
        }

        public long counter() {
            return counter;
        }

        public List<String> violations() {
            return List.copyOf(violations);
        }
    }

    /**
     * A locator that puts each thread on node {@code threadId % nodes}: simulated nodes for tests,
     * stable per thread, so handoffs between threads of different ids cross nodes.
     */
    public record ThreadIdNodes(int nodeCount) implements NodeLocator {
        public ThreadIdNodes {
            if (nodeCount < 1) {
                throw new IllegalArgumentException("nodeCount must be at least 1, was " + nodeCount);
            }
        }

        @Override
        public int currentNode() {
            return (int) (Thread.currentThread().threadId() % nodeCount);
        }
    }

    /** A locator whose node each thread sets itself, for exact same/cross-node handoff counts. */
    public static final class AssignedNodes implements NodeLocator {
        private final int nodeCount;
        private final ThreadLocal<Integer> node = ThreadLocal.withInitial(() -> 0);

        public AssignedNodes(int nodeCount) {
            this.nodeCount = nodeCount;
        }

        /** Puts the calling thread on {@code index}. */
        public void assign(int index) {
            if (index < 0 || index >= nodeCount) {
                throw new IllegalArgumentException("node " + index + " outside [0, " + nodeCount + ")");
            }
            node.set(index);
        }

        @Override
        public int nodeCount() {
            return nodeCount;
        }

        @Override
        public int currentNode() {
            return node.get();
        }
    }
}
