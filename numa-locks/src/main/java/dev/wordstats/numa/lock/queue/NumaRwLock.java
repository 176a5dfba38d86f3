package dev.wordstats.numa.lock.queue;

import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * {@link LockType#NUMA_RW}: a NUMA-aware reader-writer guard. A reader announces itself on its node's
 * reader indicator (a counter on a cache line of its own), so readers of different nodes write no
 * common line; writers queue in a {@link NumaHandoffLock}; a writer lets readers in for a bounded time,
 * then closes the door to new ones (writer preference) and waits for those inside to leave. Waiting
 * readers and writers park; every spin is bounded.
 *
 * <p>It is also a {@link ReadWriteLock} ({@code guard instanceof ReadWriteLock rw}), as the JDK's
 * {@link java.util.concurrent.locks.ReentrantReadWriteLock} is: {@link #readLock()} and {@link #writeLock()}
 * are reentrant {@link Lock}s over the same holds as the guard's read and write sections, so a section
 * and a hold nest in each other. The holder of the write lock may take the read lock, and keeps it when
 * it releases the write lock first (a downgrade); a thread that holds only the read lock and asks for
 * the write lock gets {@link IllegalStateException} (no upgrade, as a section). {@code unlock()} by a
 * thread that does not hold the lock throws {@link IllegalMonitorStateException}. The write lock's
 * {@link java.util.concurrent.locks.Condition}s ({@code writeLock().newCondition()}) keep the JDK's
 * contract; an await releases the whole write lock, the writers' queue and the door, so readers get in
 * while a writer awaits, and takes it again before it returns or throws. The read lock has no
 * conditions ({@link UnsupportedOperationException}).
 */
public final class NumaRwLock extends ReadWriteGuard implements ReadWriteLock {

    /*
     * Overview
     *
     * Algorithm: the writer-preference reader-writer lock of Calciu, Dice, Lev, Luchangco, Marathe and
     * Shavit ("NUMA-aware reader-writer locks", PPoPP 2013, C-RW-WP): per-node reader indicators, a
     * NUMA-aware lock for writers (here NUMA_HANDOFF's queue, NumaHandoffLock, through its public API)
     * and a door that a writer closes before it enters. As in that paper's "neutral" variants, a writer
     * first waits a bounded time with the door open (DRAINING), so readers arriving behind a writer
     * still get in and a stream of writers does not shut readers out; after the bound (the queue
     * settings' reserveAfter, the same bound as NUMA_HANDOFF's reservation) it closes the door (CLOSED)
     * and waits only for the readers already inside. The bound counts from when the first writer of a
     * wait queued for the writers' lock (closeAt), not from when it got that lock: virtual threads are
     * not time-sliced, so a writer parked in the writers' queue, or woken and waiting for a carrier,
     * would otherwise wait for every reader that keeps entering an open door, which keeps the carriers
     * (results: 2026-12-08-read-write-stripe). So readers keep the bound, not a timer of the
     * writer's: a reader that finds closeAt passed does not enter, and closes the door of a DRAINING
     * writer for it; the draining writer parks without a timeout (a timed park's wake-up goes through
     * the scheduler's delay queue and may come late) and is woken by each leaving reader.
     *
     * Reader: if the door is CLOSED or closeAt has passed, wait until neither holds (mayEnter);
     * increment its node's indicator (getAndAdd, volatile); read the door (volatile): not CLOSED, it
     * is in; CLOSED, it leaves (decrement, wake the writer) and waits. The node is the one of the
     * caller at entry; the read side's token carries it to the release, so a thread that moves to
     * another node meanwhile decrements the right counter.
     *
     * Writer: take the writers' lock if it is free (then, if closeAt is 0, CAS it to now plus the
     * bound); else count itself queued, CAS closeAt likewise, and queue for the writers' lock; publish
     * itself (drainer, volatile) then DRAINING; count itself out of the queue if it was in it; wait for
     * every indicator to read zero or closeAt; write CLOSED (or find it written by a reader); wait for
     * every indicator to read zero; enter. Release: clear drainer and closeAt, give the writers still
     * queued a new bound from now (so readers woken now get in until it passes: the next writer waits
     * one bound, not every reader), write OPEN, unpark the readers that wait, release the
     * writers' lock (in that order: a next writer writes the door only after it holds the writers'
     * lock). A writer that gives up in the queue (the lock face's timed or interruptible wait) and was
     * the last one queued wakes the readers that wait; a reader that finds closeAt passed at an OPEN
     * door with no writer queued clears it (stale) and enters.
     *
     * Invariants
     *  - Writers exclude each other: only the holder of the writers' lock writes the door.
     *  - A reader and a writer are never both inside (Dekker): the reader writes its indicator then
     *    reads the door, the writer writes CLOSED then reads every indicator, all volatile accesses,
     *    which are sequentially consistent (JLS 17.4.4), so at least one sees the other's write.
     *    A reader that read DRAINING incremented before the writer wrote CLOSED, so the writer's last
     *    scan sees it.
     *    // checked by GuardContractTest (jcstress: concurrency-tests NumaRwLockTests, a writer racing a reader
     *    // on its node and on the other)
     *  - No lost wake-up of a writer: a reader decrements, then reads the door; a waiting writer has
     *    written drainer and then the door before it reads the indicators and parks. Either the
     *    writer sees the decrement, or the reader sees the door not OPEN and drainer set and unparks it
     *    (an unpark before the park makes the park return).
     *    // checked by GuardContractTest (jcstress: concurrency-tests NumaRwLockTests, its lost wake-up tests)
     *  - No lost wake-up of a reader: a reader adds itself to waiters, then reads the door; the writer
     *    writes OPEN, then empties waiters, unparking each. Either the reader sees the door open, or
     *    the writer finds it in waiters.
     *    // checked by GuardContractTest (readers and writers of the contract's loads all finish)
     *  - No writer starves under a stream of readers: from the bound on no reader enters, so its wait
     *    for readers is the bound plus the longest read section in progress at the bound.
     *    // checked by ReadWriteGuardContractTest (a writer among a stream of readers),
     *    // NumaRwLockTest.aReaderArrivingBehindAQueuedWriterPastTheBoundWaitsForItsWrite
     *  - No reader is kept out by a bound no writer will end: a reader obeys a passed closeAt at an
     *    OPEN door only while queued is non-zero (a writer queued, or holding the writers' lock before
     *    its DRAINING: beginDrain counts itself out after it); with none queued it clears the stale
     *    bound and enters. Every release clears closeAt and wakes the readers that wait, and so does
     *    the last writer to give up in the queue (its decrement comes before its wake-up, a parked
     *    reader's offer before its re-read of queued: either it reads 0 or it is woken). A writer that
     *    queues while a release clears closeAt is seen by it (queued is incremented before closeAt is
     *    read; the clear writes closeAt before it reads queued) and given a bound.
     *    // checked by jcstress NumaRwLockTests.NoLostWakeUpWritersAndReaders, GivingUpWriterLeavesNoBound
     *  - Readers of a node write only their node's indicator.
     *    // checked by NumaRwLockTest.readersOfEachNodeTouchOnlyTheirNodesIndicator
     *  - A write acquisition that gives up (lockInterruptibly interrupted, a timed tryLock past its
     *    deadline, in the writers' queue or while it waits for readers) holds nothing afterwards: it
     *    leaves the queue cleanly (NumaHandoffLock's own contract) or, past it, does the release
     *    (open), so the door is OPEN, waiting readers are woken and the next writer gets the queue.
     *    // checked by NumaRwReadWriteLockTest.interruptedWriterWaitingForAReaderLeavesTheDoorOpen,
     *    // NumaRwReadWriteLockTest.readHoldsOverlapAndExcludeTheWriteLock
     *  - A downgrade adds a reader beside its own writer: the write holder increments its node's
     *    indicator without reading the door (it holds the writers' lock, so no other writer scans),
     *    then releases as a writer; the next writer's scan sees the increment.
     *    // checked by NumaRwReadWriteLockTest.downgradeKeepsAReadHoldAndUpgradeIsRefused
     *  - An await on a write-lock Condition releases the whole write lock (the door and the writers'
     *    lock: the writer's release) and takes it again (the writer's acquisition) before it returns or
     *    throws; QueueCondition's waiter protocol makes a signal and the waiter's timeout or interrupt
     *    decide once, so no signal is lost, and a signalled writer returns holding the write lock apart
     *    from readers.
     *    // checked by NumaRwReadWriteLockTest.readersGetInWhileAWriterAwaitsOnACondition,
     *    // NumaRwReadWriteLockTest.signalledWriterHoldsTheWriteLockApartFromReaders,
     *    // NumaRwWriteLockContractTest (the Lock contract's condition cases),
     *    // RwConditionSignalRacesTimeoutTests.NumaRwWriteConditionSignalRacesTimeout
     *
     * Lock faces (ReadWriteGuard.ReadLock, WriteLock): the same sides, plus a wait that gives up.
     * A reader that waits interruptibly or until a deadline re-reads the door, spins a bounded number
     * of rounds, then publishes itself in waiters and parks (parkNanos when timed), as the
     * uninterruptible wait does. A writer that waits so queues through writers.lockInterruptibly() or
     * the timed tryLock, then drains as acquire() does: DRAINING until drained or the bound, then
     * CLOSED and a scan again (the Dekker pairing above needs the scan after CLOSED), giving up by
     * open() at an interrupt or the deadline. Reentrancy, the refusal of an upgrade and the write
     * hold's count are ReadWriteGuard's, shared by sections and the faces.
     *
     * Progress and fairness: writers in NumaHandoffLock's order (its reservation bounds a waiter's
     * overtaking). Readers and writers take turns: a release gives the writers still queued a bound
     * from the release, so readers get in for about one bound between two writers, and a writer waits
     * for the writers ahead of it and one bound of readers per writer (phase-fair in spirit, as in
     * Brandenburg and Anderson's phase-fair reader-writer locks, ECRTS 2009, with time in place of their
     * phases). Accepted: a reader woken at a release that has not incremented yet when the next writer
     * scans waits for that writer too, and a reader has no bound under writers that each find no
     * reader inside when they arrive.
     *
     * Accepted races: a clear and a re-set of closeAt may interleave with a reader's read of it, and a
     * reader may close the door of the next writer's drain with the bound of the one before (it read
     * closeAt, then that writer left and the next one began to drain): it closes a drain early, which
     * only shortens the readers' grace. A reader that waits may be in waiters more than once (it adds
     * itself each time it is about to park); a stale entry costs its thread one spurious unpark, which every park loop
     * tolerates. A leaving reader unparks the drainer on every departure while the door is not OPEN,
     * and may unpark a writer that has already entered (spurious).
     *
     * Padding: each indicator and the door sit between 128-byte pads (class chains, as the other locks
     * do); the writers' lock is padded by its own class chain.
     */

    static final int OPEN = 0; // no writer: readers enter
    static final int DRAINING = 1; // a writer waits for the readers inside, readers still enter
    static final int CLOSED = 2; // a writer waits for the readers inside or holds the lock: readers wait

    /** Rounds a waiting reader or writer re-reads before it parks. */
    static final int SPINS = 1 << 7;

    private static final VarHandle READERS;
    private static final VarHandle STATE;
    private static final VarHandle DRAINER;
    private static final VarHandle CLOSE_AT;
    private static final VarHandle QUEUED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            READERS = lookup.findVarHandle(NumaRwIndicatorFields.class, "readers", int.class);
            STATE = lookup.findVarHandle(NumaRwDoorFields.class, "state", int.class);
            DRAINER = lookup.findVarHandle(NumaRwDoorFields.class, "drainer", Thread.class);
            CLOSE_AT = lookup.findVarHandle(NumaRwDoorFields.class, "closeAt", long.class);
            QUEUED = lookup.findVarHandle(NumaRwDoorFields.class, "queued", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The shared state, built before the sides that use it. */
    private record Parts(
            NodeLocator nodes,
            NumaRwIndicator[] indicators,
            NumaRwDoor door,
            NumaHandoffLock writers,
            long graceNanos,
            ConcurrentLinkedQueue<Thread> waiters) {}

    private final Parts parts; // final
    private final ReadLock readLock; // final
    private final WriteLock writeLock; // final

    private NumaRwLock(Parts parts, LockProbe readProbe, LockProbe writeProbe) {
        super(new ReadSide(parts, readProbe), new WriteSide(parts, writeProbe));
        this.parts = parts;
        this.readLock = new ReadLock();
        this.writeLock = new WriteLock();
    }

    /** The read lock: read holds, overlapping each other, never a write hold. */
    @Override
    public ReadLock readLock() {
        return readLock;
    }

    /** The write lock: a write hold excludes every other hold; it has conditions. */
    @Override
    public WriteLock writeLock() {
        return writeLock;
    }

    /**
     * A new guard for the nodes of {@code context}, whose writers wait for readers with the door open
     * for {@code drainAfter} at most, reporting read sections to {@code readProbe} (thread-safe: read
     * sections overlap) and write sections to {@code writeProbe}.
     */
    public static NumaRwLock create(
            LockContext context, Duration drainAfter, LockProbe readProbe, LockProbe writeProbe) {
        Objects.requireNonNull(drainAfter, "drainAfter");
        NodeLocator nodes = context.nodes();
        NumaRwIndicator[] indicators = new NumaRwIndicator[nodes.nodeCount()];
        for (int i = 0; i < indicators.length; i++) {
            indicators[i] = new NumaRwIndicator();
        }
        NumaHandoffLock writers = new NumaHandoffLock(nodes, drainAfter, context.carriers(), LockProbe.NONE);
        Parts parts = new Parts(
                nodes, indicators, new NumaRwDoor(), writers, drainAfter.toNanos(), new ConcurrentLinkedQueue<>());
        return new NumaRwLock(parts, readProbe, writeProbe);
    }

    private static final class ReadSide extends Side {
        private final Parts parts; // final

        ReadSide(Parts parts, LockProbe probe) {
            super(probe);
            this.parts = parts;
        }

        @Override
        long acquire() {
            while (true) {
                awaitMayEnter(parts);
                long token = tryAcquire();
                if (token != 0L) {
                    return token;
                }
            }
        }

        @Override
        long tryAcquire() {
            NumaRwDoor door = parts.door();
            if (!mayEnter(door)) {
                return 0L;
            }
            int node = parts.nodes().currentNode();
            NumaRwIndicator indicator = parts.indicators()[node];
            READERS.getAndAdd(indicator, 1);
            if ((int) STATE.getVolatile(door) != CLOSED) {
                return node + 1L;
            }
            leave(parts, indicator);
            return 0L;
        }

        @Override
        long acquire(boolean timed, long deadline) throws InterruptedException {
            while (true) {
                if (!awaitMayEnter(parts, timed, deadline)) {
                    return 0L;
                }
                long token = tryAcquire();
                if (token != 0L) {
                    return token;
                }
            }
        }

        @Override
        long enterBesideWriter() {
            // The caller holds the writers' lock and the door: no writer scans now; the next one sees it.
            int node = parts.nodes().currentNode();
            READERS.getAndAdd(parts.indicators()[node], 1);
            return node + 1L;
        }

        @Override
        void release(long token) {
            leave(parts, parts.indicators()[(int) (token - 1L)]);
        }
    }

    private static void leave(Parts parts, NumaRwIndicator indicator) {
        READERS.getAndAdd(indicator, -1);
        NumaRwDoor door = parts.door();
        if ((int) STATE.getVolatile(door) != OPEN) {
            Thread drainer = (Thread) DRAINER.getVolatile(door);
            if (drainer != null) {
                LockSupport.unpark(drainer);
            }
        }
    }

    /**
     * Whether a reader may enter now: the door is not CLOSED and no writer has waited past the bound
     * ({@code closeAt}). A reader that finds a draining writer past it closes the door for it (the writer
     * keeps no timer); one that finds the door OPEN past it waits too, so that a writer queued behind the
     * door, perhaps parked and waiting for a carrier, gets one: virtual threads are not time-sliced, and
     * readers that kept entering would keep the carriers.
     */
    private static boolean mayEnter(NumaRwDoor door) {
        int state = (int) STATE.getVolatile(door);
        if (state == CLOSED) {
            return false;
        }
        long closeAt = (long) CLOSE_AT.getVolatile(door);
        if (closeAt == 0L || System.nanoTime() - closeAt < 0L) {
            return true;
        }
        if (state == DRAINING) {
            STATE.compareAndSet(door, DRAINING, CLOSED);
            return false;
        }
        if ((int) QUEUED.getVolatile(door) == 0) {
            // OPEN, and no writer queued: the writer of this bound gave up; the bound is stale
            CLOSE_AT.compareAndSet(door, closeAt, 0L);
            return true;
        }
        return false;
    }

    private static void awaitMayEnter(Parts parts) {
        NumaRwDoor door = parts.door();
        for (int i = 0; i < SPINS; i++) {
            if (mayEnter(door)) {
                return;
            }
            Thread.onSpinWait();
        }
        Thread me = Thread.currentThread();
        boolean interrupted = false;
        while (!mayEnter(door)) {
            parts.waiters().offer(me); // publish "waiting", re-check, then park
            if (!mayEnter(door)) {
                LockSupport.park(door);
                interrupted |= Thread.interrupted(); // else park would return at once, again and again
            }
        }
        if (interrupted) {
            me.interrupt(); // sections do not wait interruptibly: the status stays pending
        }
    }

    /**
     * As {@link #awaitMayEnter(Parts)}, giving up at an interrupt (throws) or, when {@code timed}, at
     * {@code deadline} (returns false).
     */
    private static boolean awaitMayEnter(Parts parts, boolean timed, long deadline) throws InterruptedException {
        NumaRwDoor door = parts.door();
        Thread me = Thread.currentThread();
        int spins = 0;
        while (!mayEnter(door)) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long left = timed ? deadline - System.nanoTime() : 1L;
            if (left <= 0L) {
                return false;
            }
            if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            parts.waiters().offer(me); // publish "waiting", re-check, then park
            if (!mayEnter(door)) {
                if (timed) {
                    LockSupport.parkNanos(door, left);
                } else {
                    LockSupport.park(door);
                }
            }
        }
        return true;
    }

    private static boolean drained(Parts parts) {
        for (NumaRwIndicator indicator : parts.indicators()) {
            if ((int) READERS.getVolatile(indicator) != 0) {
                return false;
            }
        }
        return true;
    }

    private static final class WriteSide extends Side {
        private final Parts parts; // final

        WriteSide(Parts parts, LockProbe probe) {
            super(probe);
            this.parts = parts;
        }

        @Override
        long acquire() {
            NumaHandoffLock writers = parts.writers();
            boolean queued = !writers.tryLock(); // free: no queue to count in, the bound begins at the drain
            if (queued) {
                queue(parts);
                writers.lock();
            }
            NumaRwDoor door = beginDrain(parts, queued);
            boolean interrupted = false;
            int spins = 0;
            while (!closedAndDrained(parts, door)) {
                if (spins < SPINS) {
                    spins++;
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(door); // a leaving reader unparks it
                    interrupted |= Thread.interrupted();
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt(); // sections do not wait interruptibly: the status stays pending
            }
            return 1L;
        }

        @Override
        long acquire(boolean timed, long deadline) throws InterruptedException {
            NumaHandoffLock writers = parts.writers();
            queue(parts);
            boolean locked = false;
            try {
                if (!timed) {
                    writers.lockInterruptibly();
                    locked = true;
                } else {
                    locked = writers.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
            } finally {
                if (!locked) {
                    leaveQueue(parts);
                }
            }
            if (!locked) {
                return 0L;
            }
            NumaRwDoor door = beginDrain(parts, true);
            int spins = 0;
            while (!closedAndDrained(parts, door)) {
                if (Thread.interrupted()) {
                    open(parts); // gives up: the readers that wait get in, the next writer gets the queue
                    throw new InterruptedException();
                }
                long left = timed ? deadline - System.nanoTime() : Long.MAX_VALUE;
                if (left <= 0L) {
                    open(parts);
                    return 0L;
                }
                if (spins < SPINS) {
                    spins++;
                    Thread.onSpinWait();
                } else if (timed) {
                    LockSupport.parkNanos(door, left); // a leaving reader unparks it; the caller's deadline
                } else {
                    LockSupport.park(door); // a leaving reader unparks it
                }
            }
            return 1L;
        }

        @Override
        long tryAcquire() {
            if (!parts.writers().tryLock()) {
                return 0L;
            }
            NumaRwDoor door = parts.door();
            DRAINER.setVolatile(door, Thread.currentThread());
            STATE.setVolatile(door, CLOSED);
            if (drained(parts)) {
                return 1L;
            }
            open(parts);
            return 0L;
        }

        @Override
        void release(long token) {
            open(parts);
        }
    }

    /**
     * A writer about to queue for the writers' lock counts itself queued and, if no writer waits yet, sets
     * the bound after which readers stop entering ({@code closeAt}).
     */
    private static void queue(Parts parts) {
        NumaRwDoor door = parts.door();
        QUEUED.getAndAdd(door, 1);
        if ((long) CLOSE_AT.getVolatile(door) == 0L) {
            CLOSE_AT.compareAndSet(door, 0L, boundFromNow(parts));
        }
    }

    /**
     * A queued writer that gave up (interrupted, or its deadline passed) before it got the writers' lock: the
     * last one to leave wakes the readers that wait, which find the door OPEN with no writer queued and clear
     * the bound it left (or find a holder of the writers' lock, whose release clears it).
     */
    private static void leaveQueue(Parts parts) {
        NumaRwDoor door = parts.door();
        if ((int) QUEUED.getAndAdd(door, -1) == 1) {
            // The last one queued: readers it kept out at an OPEN door find no writer queued and clear the
            // bound themselves (mayEnter); a holder of the writers' lock clears it at its release.
            wakeReaders(parts);
        }
    }

    /** After the bound was cleared: a writer that queued meanwhile gets a new one (it read it non-zero). */
    private static void rebound(Parts parts, NumaRwDoor door) {
        if ((int) QUEUED.getVolatile(door) > 0) {
            CLOSE_AT.compareAndSet(door, 0L, boundFromNow(parts));
        }
    }

    /** nanoTime plus the writers' bound, never 0 (0 means no writer waits). */
    private static long boundFromNow(Parts parts) {
        long at = System.nanoTime() + parts.graceNanos();
        return at == 0L ? 1L : at;
    }

    /**
     * The holder of the writers' lock opens its drain: it publishes itself, then DRAINING (so that a leaving
     * reader finds the writer to wake), then, if it got that lock through the queue ({@code queued}), no longer
     * counts as queued (so that an OPEN door with none queued has no writer coming). The bound is the one set
     * when the first writer of this wait queued, or at the release before: the time it waited in the queue
     * counts; a writer that took the lock at its first try sets one from now if none is set.
     */
    private static NumaRwDoor beginDrain(Parts parts, boolean queued) {
        NumaRwDoor door = parts.door();
        DRAINER.setVolatile(door, Thread.currentThread());
        if (!queued && (long) CLOSE_AT.getVolatile(door) == 0L) {
            CLOSE_AT.compareAndSet(door, 0L, boundFromNow(parts)); // (a writer queueing now may have set one)
        }
        STATE.setVolatile(door, DRAINING);
        if (queued) {
            QUEUED.getAndAdd(door, -1); // after DRAINING: an OPEN door with none queued has no writer coming
        }
        return door;
    }

    /**
     * One look of a draining writer: while the door is DRAINING it closes it once no reader is inside or the
     * bound has passed; true when the door is CLOSED and no reader is inside, scanned after the door was
     * read CLOSED (the Dekker pairing with a reader's increment and door read).
     */
    private static boolean closedAndDrained(Parts parts, NumaRwDoor door) {
        if ((int) STATE.getVolatile(door) == DRAINING) {
            long closeAt = (long) CLOSE_AT.getVolatile(door);
            if (!drained(parts) && closeAt != 0L && System.nanoTime() - closeAt < 0L) {
                return false; // readers inside, within the bound: the door stays open
            }
            STATE.setVolatile(door, CLOSED);
        }
        return drained(parts);
    }

    /** Opens the door, wakes the readers that wait, releases the writers' lock: the writer's release. */
    private static void open(Parts parts) {
        NumaRwDoor door = parts.door();
        DRAINER.setVolatile(door, null);
        CLOSE_AT.setVolatile(door, 0L);
        rebound(parts, door); // the next writer's wait begins now: readers get in until its bound
        STATE.setVolatile(door, OPEN); // after the new bound: no reader finds the door open without it
        wakeReaders(parts);
        parts.writers().unlock();
    }

    /** Unparks every reader that waits at the door. */
    private static void wakeReaders(Parts parts) {
        Thread waiter;
        while ((waiter = parts.waiters().poll()) != null) {
            LockSupport.unpark(waiter);
        }
    }

    @Override
    public String toString() {
        return "NumaRwLock@" + Integer.toHexString(System.identityHashCode(this)) + "[nodes="
                + parts.indicators().length + "]";
    }
}

/** A node's reader indicator, between pads. */
final class NumaRwIndicator extends NumaRwIndicatorL2Pad {}

abstract class NumaRwIndicatorL1Pad {
    byte p1000, p1001, p1002, p1003, p1004, p1005, p1006, p1007, p1008, p1009, p1010, p1011, p1012, p1013, p1014, p1015;
    byte p1016, p1017, p1018, p1019, p1020, p1021, p1022, p1023, p1024, p1025, p1026, p1027, p1028, p1029, p1030, p1031;
    byte p1032, p1033, p1034, p1035, p1036, p1037, p1038, p1039, p1040, p1041, p1042, p1043, p1044, p1045, p1046, p1047;
    byte p1048, p1049, p1050, p1051, p1052, p1053, p1054, p1055, p1056, p1057, p1058, p1059, p1060, p1061, p1062, p1063;
    byte p1064, p1065, p1066, p1067, p1068, p1069, p1070, p1071, p1072, p1073, p1074, p1075, p1076, p1077, p1078, p1079;
    byte p1080, p1081, p1082, p1083, p1084, p1085, p1086, p1087, p1088, p1089, p1090, p1091, p1092, p1093, p1094, p1095;
    byte p1096, p1097, p1098, p1099, p1100, p1101, p1102, p1103, p1104, p1105, p1106, p1107, p1108, p1109, p1110, p1111;
    byte p1112, p1113, p1114, p1115, p1116, p1117, p1118, p1119, p1120, p1121, p1122, p1123, p1124, p1125, p1126, p1127;
}

abstract class NumaRwIndicatorFields extends NumaRwIndicatorL1Pad {
    int readers; // getAndAdd by the readers of one node (plus one each, minus one each); read volatile by writers
}

abstract class NumaRwIndicatorL2Pad extends NumaRwIndicatorFields {
    byte p2000, p2001, p2002, p2003, p2004, p2005, p2006, p2007, p2008, p2009, p2010, p2011, p2012, p2013, p2014, p2015;
    byte p2016, p2017, p2018, p2019, p2020, p2021, p2022, p2023, p2024, p2025, p2026, p2027, p2028, p2029, p2030, p2031;
    byte p2032, p2033, p2034, p2035, p2036, p2037, p2038, p2039, p2040, p2041, p2042, p2043, p2044, p2045, p2046, p2047;
    byte p2048, p2049, p2050, p2051, p2052, p2053, p2054, p2055, p2056, p2057, p2058, p2059, p2060, p2061, p2062, p2063;
    byte p2064, p2065, p2066, p2067, p2068, p2069, p2070, p2071, p2072, p2073, p2074, p2075, p2076, p2077, p2078, p2079;
    byte p2080, p2081, p2082, p2083, p2084, p2085, p2086, p2087, p2088, p2089, p2090, p2091, p2092, p2093, p2094, p2095;
    byte p2096, p2097, p2098, p2099, p2100, p2101, p2102, p2103, p2104, p2105, p2106, p2107, p2108, p2109, p2110, p2111;
    byte p2112, p2113, p2114, p2115, p2116, p2117, p2118, p2119, p2120, p2121, p2122, p2123, p2124, p2125, p2126, p2127;
}

/** The writers' door, between pads. */
final class NumaRwDoor extends NumaRwDoorL2Pad {}

abstract class NumaRwDoorL1Pad {
    byte p3000, p3001, p3002, p3003, p3004, p3005, p3006, p3007, p3008, p3009, p3010, p3011, p3012, p3013, p3014, p3015;
    byte p3016, p3017, p3018, p3019, p3020, p3021, p3022, p3023, p3024, p3025, p3026, p3027, p3028, p3029, p3030, p3031;
    byte p3032, p3033, p3034, p3035, p3036, p3037, p3038, p3039, p3040, p3041, p3042, p3043, p3044, p3045, p3046, p3047;
    byte p3048, p3049, p3050, p3051, p3052, p3053, p3054, p3055, p3056, p3057, p3058, p3059, p3060, p3061, p3062, p3063;
    byte p3064, p3065, p3066, p3067, p3068, p3069, p3070, p3071, p3072, p3073, p3074, p3075, p3076, p3077, p3078, p3079;
    byte p3080, p3081, p3082, p3083, p3084, p3085, p3086, p3087, p3088, p3089, p3090, p3091, p3092, p3093, p3094, p3095;
    byte p3096, p3097, p3098, p3099, p3100, p3101, p3102, p3103, p3104, p3105, p3106, p3107, p3108, p3109, p3110, p3111;
    byte p3112, p3113, p3114, p3115, p3116, p3117, p3118, p3119, p3120, p3121, p3122, p3123, p3124, p3125, p3126, p3127;
}

abstract class NumaRwDoorFields extends NumaRwDoorL1Pad {
    int state; // OPEN, DRAINING, CLOSED: written volatile by the holder of the writers' lock; read volatile by all
    Thread drainer; // written volatile by the holder of the writers' lock (null at its release); read by readers
    long closeAt; // nanoTime after which readers stop entering, 0 while no writer waits: CAS from 0 by a queueing
    // writer (or by the writer that releases or leaves the queue, for those still queued), set 0 (volatile) by the
    // writers' lock holder at its release or by the last writer to leave the queue; read volatile by readers
    int queued; // writers queued for the writers' lock: getAndAdd by each writer (+1 before it queues, -1 once it
    // holds the writers' lock or gives up); read volatile at a release
}

abstract class NumaRwDoorL2Pad extends NumaRwDoorFields {
    byte p4000, p4001, p4002, p4003, p4004, p4005, p4006, p4007, p4008, p4009, p4010, p4011, p4012, p4013, p4014, p4015;
    byte p4016, p4017, p4018, p4019, p4020, p4021, p4022, p4023, p4024, p4025, p4026, p4027, p4028, p4029, p4030, p4031;
    byte p4032, p4033, p4034, p4035, p4036, p4037, p4038, p4039, p4040, p4041, p4042, p4043, p4044, p4045, p4046, p4047;
    byte p4048, p4049, p4050, p4051, p4052, p4053, p4054, p4055, p4056, p4057, p4058, p4059, p4060, p4061, p4062, p4063;
    byte p4064, p4065, p4066, p4067, p4068, p4069, p4070, p4071, p4072, p4073, p4074, p4075, p4076, p4077, p4078, p4079;
    byte p4080, p4081, p4082, p4083, p4084, p4085, p4086, p4087, p4088, p4089, p4090, p4091, p4092, p4093, p4094, p4095;
    byte p4096, p4097, p4098, p4099, p4100, p4101, p4102, p4103, p4104, p4105, p4106, p4107, p4108, p4109, p4110, p4111;
    byte p4112, p4113, p4114, p4115, p4116, p4117, p4118, p4119, p4120, p4121, p4122, p4123, p4124, p4125, p4126, p4127;
}
