package dev.wordstats.numa.lock.combining;

import dev.wordstats.numa.lock.CombiningSettings;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A NUMA-aware combining lock: one {@link CombiningLock} queue per NUMA node, and a global lock that a
 * node's combiner holds while it runs critical sections. Threads publish their critical sections in
 * the queue of their own node, so a batch runs the critical sections of one node, and the data they
 * touch moves between nodes once per batch instead of once per critical section.
 *
 * <p>The {@link Guard} contract and the caveats of {@link CombiningLock} hold (a critical section may
 * run on another thread of the same node; FIFO within a node; a long critical section delays those
 * behind it and ends its batch). The node of a caller comes from the {@link NodeLocator}; a wrong
 * answer costs locality, never correctness. Create one with {@link LockType#NUMA_COMBINING}.
 */
public final class NumaCombiningLock extends NumaCombiningLockL1Pad implements Guard {

    /*
     * Overview
     *
     * H-Synch (Fatourou & Kallimanis, "Revisiting the Combining Synchronization Technique", PPoPP
     * 2012): one CC-Synch queue per NUMA node (here: per node of the NodeLocator, real or simulated),
     * and a global lock among the node combiners. The shape is that of hierarchical NUMA locks (lock
     * cohorting, Dice, Marathe & Shavit, PPoPP 2012; NUMA_MCS in this library), with delegation inside
     * a node instead of handoffs.
     *
     * Algorithm
     *  - call(): reentry first (owner == current thread: the thread now running critical sections;
     *    a combined critical section of another thread calling again is caught here too), else the
     *    caller goes to queues[nodes.currentNode()], a CombiningLock built with this lock as its
     *    Outer.
     *  - That queue works as CombiningLock does (fast path, publish and wait, combine a bounded FIFO
     *    batch, wake-up chain, hand the role on); in addition its combiner calls enter() before it
     *    runs any critical section (take the global lock, then owner = me) and exit() before it
     *    hands its role on or after it has freed its queue (owner = null, release the global lock).
     *  - The global lock is a fair ReentrantLock: among at most nodeCount() combiners, FIFO, parking
     *    (a combiner waiting for it is a virtual thread that gives its carrier back). Fair, because a
     *    node whose combiner released it hands its role to a successor that then asks again: a
     *    non-fair lock could let one node win every time.
     *
     * Invariants
     *  - Mutual exclusion: a critical section runs only on a node combiner between its enter() and
     *    exit(), that is while it holds the global lock; checked by
     *    NumaCombiningLockTest.mutualExclusionKeepsAPlainCounterExact (1 and 2 nodes) and jcstress
     *    NumaCombiningLockTests.CrossNodeExactlyOnce.
     *  - Happens-before from each critical section to the next: within a node as in CombiningLock;
     *    across nodes through the global lock's unlock/lock; checked by jcstress
     *    NumaCombiningLockTests.
     *  - owner is written only by the global lock's holder (after lock, before unlock), so it names
     *    the thread running critical sections or null; checked by
     *    NumaCombiningLockTest.aCombinedCriticalSectionOfAnotherThreadReentersInline.
     *  - Each published critical section runs once and its outcome reaches its caller: as in
     *    CombiningLock; checked by
     *    NumaCombiningLockTest.resultsAndExceptionsReachTheirOwnCallersAndTheBatchGoesOn and jcstress
     *    NumaCombiningLockTests.
     *
     * Progress and fairness
     *  FIFO within a node; between nodes the global lock is FIFO among node combiners, and each node
     *  holds it for one batch at most (combineLimit, combineTime), so no node waits for more than
     *  nodeCount() - 1 batches of other nodes. The park/unpark handshakes are CombiningLock's (queue)
     *  and AbstractQueuedSynchronizer's (global lock).
     *
     * Accepted races
     *  - Between a combiner freeing its queue (tail -> null) and releasing the global lock, a new
     *    caller of the same node may take the queue's fast path; it then waits for the global lock
     *    like any combiner. This order (queue first) keeps the global lock held over one CAS only.
     *  - The node index is read once per call; a virtual thread that migrates keeps the queue it
     *    joined.
     *
     * Probe: the node queues report to the lock's one probe, each from inside enter()/exit() (the
     * global lock held), so its acquired() calls are ordered across nodes as the lock's are; see
     * CombiningLock for what each call means. A node combiner that waits for the global lock (held by
     * another node's combiner) waited: with a probe, GlobalLock.enter reads global.isLocked() before
     * global.lock() (and the clock, if it was locked), and the queue reports a caller that found its
     * node's queue empty but the global lock held as waited true, its wait including that for the
     * global lock. This is a report, not a decision: never tryLock(), which barges on a fair lock. Two
     * accepted races, as SynchronizedGuard's: a global lock freed between the read and lock() is
     * reported as a wait, and one taken by another combiner between them (or free but about to pass to
     * a queued combiner) is reported as none. Without a probe enter() reads neither.
     *
     * Cost: an uncontended call takes the queue's fast path and the global lock, two CAS in and two
     * out (and a NodeLocator lookup), twice CombiningLock's atomic operations.
     *
     * Padding: owner is written by each combiner and read by every caller; it sits in its own
     * 128-byte-padded block (NumaCombiningLockL0Pad/L1Pad); each node queue is a padded CombiningLock.
     */

    private final NodeLocator nodes;
    private final CombiningLock[] queues;
    private final ReentrantLock global = new ReentrantLock(true);

    /**
     * A lock with one combining queue per node of {@code nodes} and the batch bounds of {@code settings},
     * reporting to {@code probe} ({@link LockProbe#NONE} for none; its node queues share it, and report
     * only while they hold the global lock, but for {@link LockProbe#released}).
     */
    public NumaCombiningLock(NodeLocator nodes, CombiningSettings settings, LockProbe probe) {
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(probe, "probe");
        int count = nodes.nodeCount();
        if (count < 1) {
            throw new IllegalArgumentException("nodeCount must be at least 1, was " + count);
        }
        CombiningLock.Outer outer = new GlobalLock(LockProbe.orNull(probe));
        this.queues = new CombiningLock[count];
        for (int i = 0; i < count; i++) {
            queues[i] = new CombiningLock(settings, probe, outer);
        }
    }

    /** A lock with one combining queue per node of {@code nodes}, the default settings and no probe. */
    public NumaCombiningLock(NodeLocator nodes) {
        this(nodes, CombiningSettings.DEFAULTS, LockProbe.NONE);
    }

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        if (owner == Thread.currentThread()) {
            return criticalSection.get(); // reentrant, or a combined critical section calling again
        }
        return queues[nodes.currentNode()].call(criticalSection);
    }

    /** The number of node queues. */
    public int queueCount() {
        return queues.length;
    }

    /** Whether some thread runs critical sections now (a snapshot). */
    public boolean isLocked() {
        return global.isLocked();
    }

    @Override
    public String toString() {
        Thread o = owner;
        return "NumaCombiningLock[" + (o == null ? "Unlocked" : "Locked by thread " + o.getName()) + ", queues="
                + queues.length + ", combineLimit=" + queues[0].combineLimit() + ", combineTime="
                + queues[0].combineTime() + "]";
    }

    /** The global lock among node combiners, and the owner it makes. */
    private final class GlobalLock implements CombiningLock.Outer {
        private final LockProbe probe; // the queues' probe, null without one: asked at the start of a wait here

        GlobalLock(LockProbe probe) {
            this.probe = probe;
        }

        @Override
        public long enter(Thread combiner, boolean measure, boolean beginsWait) {
            // a report, not a decision: isLocked() before lock() (see Probe in the Overview), never tryLock()
            long asked = 0L;
            if (measure && global.isLocked()) {
                if (beginsWait && probe != null) {
                    probe.wantsWaitNow(); // the start of this caller's wait (a probe may begin its record here)
                }
                asked = System.nanoTime() | 1L;
            }
            global.lock();
            owner = combiner;
            return asked;
        }

        @Override
        public void exit() {
            owner = null;
            global.unlock();
        }
    }
}

abstract class NumaCombiningLockL0Pad {
    byte p0000, p0001, p0002, p0003, p0004, p0005, p0006, p0007, p0008, p0009, p0010, p0011, p0012, p0013, p0014, p0015;
    byte p0016, p0017, p0018, p0019, p0020, p0021, p0022, p0023, p0024, p0025, p0026, p0027, p0028, p0029, p0030, p0031;
    byte p0032, p0033, p0034, p0035, p0036, p0037, p0038, p0039, p0040, p0041, p0042, p0043, p0044, p0045, p0046, p0047;
    byte p0048, p0049, p0050, p0051, p0052, p0053, p0054, p0055, p0056, p0057, p0058, p0059, p0060, p0061, p0062, p0063;
    byte p0064, p0065, p0066, p0067, p0068, p0069, p0070, p0071, p0072, p0073, p0074, p0075, p0076, p0077, p0078, p0079;
    byte p0080, p0081, p0082, p0083, p0084, p0085, p0086, p0087, p0088, p0089, p0090, p0091, p0092, p0093, p0094, p0095;
    byte p0096, p0097, p0098, p0099, p0100, p0101, p0102, p0103, p0104, p0105, p0106, p0107, p0108, p0109, p0110, p0111;
    byte p0112, p0113, p0114, p0115, p0116, p0117, p0118, p0119, p0120, p0121, p0122, p0123, p0124, p0125, p0126, p0127;
}

abstract class NumaCombiningLockFields extends NumaCombiningLockL0Pad {
    Thread owner; // plain, by the holder of the global lock: set after lock(), cleared before unlock()
}

abstract class NumaCombiningLockL1Pad extends NumaCombiningLockFields {
    byte p1000, p1001, p1002, p1003, p1004, p1005, p1006, p1007, p1008, p1009, p1010, p1011, p1012, p1013, p1014, p1015;
    byte p1016, p1017, p1018, p1019, p1020, p1021, p1022, p1023, p1024, p1025, p1026, p1027, p1028, p1029, p1030, p1031;
    byte p1032, p1033, p1034, p1035, p1036, p1037, p1038, p1039, p1040, p1041, p1042, p1043, p1044, p1045, p1046, p1047;
    byte p1048, p1049, p1050, p1051, p1052, p1053, p1054, p1055, p1056, p1057, p1058, p1059, p1060, p1061, p1062, p1063;
    byte p1064, p1065, p1066, p1067, p1068, p1069, p1070, p1071, p1072, p1073, p1074, p1075, p1076, p1077, p1078, p1079;
    byte p1080, p1081, p1082, p1083, p1084, p1085, p1086, p1087, p1088, p1089, p1090, p1091, p1092, p1093, p1094, p1095;
    byte p1096, p1097, p1098, p1099, p1100, p1101, p1102, p1103, p1104, p1105, p1106, p1107, p1108, p1109, p1110, p1111;
    byte p1112, p1113, p1114, p1115, p1116, p1117, p1118, p1119, p1120, p1121, p1122, p1123, p1124, p1125, p1126, p1127;
}
