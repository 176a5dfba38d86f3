package dev.wordstats.concurrency;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The bodies every jcstress actor of this module runs, written once: plain fields that only the
 * lock orders, touched under {@code lock} by an actor that first says which node it runs on
 * ({@link ActorNodes}). A lost update or a torn pair means two actors were inside at once, or an
 * unlock-lock handoff lost a write.
 */
final class Guarded {

    private final Lock lock;
    private int counter; // plain on purpose: only the lock orders its read-modify-write
    private int x; // plain: written and read only under the lock
    private int y; // plain: written and read only under the lock

    Guarded(Lock lock) {
        this.lock = lock;
    }

    /** On {@code node}: lock, increment the counter, unlock; {@code times} times. */
    void increment(int node, int times) {
        ActorNodes.runOn(node);
        for (int i = 0; i < times; i++) {
            lock.lock();
            try {
                counter++;
            } finally {
                lock.unlock();
            }
        }
    }

    /** On {@code node}: tryLock and increment if it succeeds; whether it did. */
    boolean tryIncrement(int node) {
        ActorNodes.runOn(node);
        if (!lock.tryLock()) {
            return false;
        }
        try {
            counter++;
        } finally {
            lock.unlock();
        }
        return true;
    }

    /** On {@code node}: timed tryLock and increment if it succeeds; whether it did. */
    boolean tryIncrement(int node, long timeout, TimeUnit unit) {
        ActorNodes.runOn(node);
        try {
            if (!lock.tryLock(timeout, unit)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            counter++;
        } finally {
            lock.unlock();
        }
        return true;
    }

    /** On {@code node}: write both fields of the pair under the lock. */
    void writePair(int node) {
        ActorNodes.runOn(node);
        lock.lock();
        try {
            x = 1;
            y = 1;
        } finally {
            lock.unlock();
        }
    }

    /** On {@code node}: read the pair under the lock, y first, into {@code r}. */
    void readPair(int node, II_Result r) {
        ActorNodes.runOn(node);
        lock.lock();
        try {
            r.r1 = y;
            r.r2 = x;
        } finally {
            lock.unlock();
        }
    }

    int counter() {
        return counter;
    }
}
