package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/** Placeholder while the algorithm is written: delegates to a ReentrantLock. */
public final class NumaMcsLock implements Lock {
    private final ReentrantLock lock = new ReentrantLock();

    public NumaMcsLock(NodeLocator nodes) {}

    @Override public void lock() { lock.lock(); }
    @Override public void lockInterruptibly() throws InterruptedException { lock.lockInterruptibly(); }
    @Override public boolean tryLock() { return lock.tryLock(); }
    @Override public boolean tryLock(long time, TimeUnit unit) throws InterruptedException { return lock.tryLock(time, unit); }
    @Override public void unlock() { lock.unlock(); }
    @Override public Condition newCondition() { throw new UnsupportedOperationException(); }
}
