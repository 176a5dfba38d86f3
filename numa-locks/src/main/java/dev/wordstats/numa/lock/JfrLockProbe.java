package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link LockProbe} that writes what one lock reports as JDK Flight Recorder events ({@link LockEvents}):
 * a {@value LockEvents#WAIT} for each acquisition that waited, a {@value LockEvents#RESERVATION}, a
 * {@value LockEvents#COMBINING_BATCH}, a {@value LockEvents#MODE_SWITCH}. It is the probe a lock gets when
 * its creator names none ({@link #byDefault}), so an application sees its locks in JFR without any
 * configuration.
 *
 * <p><b>Cost.</b> It does not {@link #hearsFastPath() hear the fast path}: a lock's acquisitions that do
 * not wait never call it, so they run exactly as without a probe. On the slow path, which waits anyway,
 * the lock first asks {@link #wantsWaitNow()} whether the wait event is enabled; only while a
 * recording enables it does the lock read the clock twice and call {@link #acquired}, which asks
 * the node locator and writes the event when the wait passes the threshold. For a
 * build without even that, {@code -D}{@value #ENABLED_PROPERTY}{@code =false} makes {@link #byDefault}
 * give {@link LockProbe#NONE} (read once, when this class loads).
 *
 * <p><b>Handoff.</b> Since it hears only acquisitions that waited, the {@code handoff} of a wait event
 * compares the waiter's node with the node of the previous acquisition that waited while the event was
 * enabled (under contention, when waits are recorded, nearly every acquisition waits); {@code unknown}
 * for the first. The node is kept in a plain field: {@code acquired} is called with the lock held, so
 * the lock orders the calls.
 *
 * <p>One probe per lock, as every probe: its lock id tells the lock's events apart from other locks'.
 */
public final class JfrLockProbe implements LockProbe {

    /** The system property that, set to {@code false}, turns the default JFR probe off: {@value}. */
    public static final String ENABLED_PROPERTY = "wordstats.lock.jfr";

    private static final boolean ON_BY_DEFAULT = !"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY));
    private static final AtomicLong IDS = new AtomicLong(); // ids handed out, one per probe

    private final String lockType;
    private final long lockId;
    private final NodeLocator nodes;
    private int lastNode = -1; // plain, holder only (written in acquired): node of the previous waiter, -1 at first

    /** A probe for one lock of type {@code type}, whose threads' nodes {@code nodes} tells. */
    public JfrLockProbe(LockType type, NodeLocator nodes) {
        this.lockType = type.name();
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.lockId = IDS.incrementAndGet();
    }

    /**
     * The probe of a lock built without one: a new {@code JfrLockProbe}, or {@link LockProbe#NONE} when
     * {@code -D}{@value #ENABLED_PROPERTY}{@code =false}.
     */
    public static LockProbe byDefault(LockType type, NodeLocator nodes) {
        return ON_BY_DEFAULT ? new JfrLockProbe(type, nodes) : LockProbe.NONE;
    }

    /** Whether {@link #byDefault} gives a JFR probe in this JVM ({@value #ENABLED_PROPERTY} not false). */
    public static boolean onByDefault() {
        return ON_BY_DEFAULT;
    }

    /** This probe's lock id, the {@code lockId} field of its events. */
    public long lockId() {
        return lockId;
    }

    /** False: only acquisitions that waited are written, so the fast path pays nothing for this probe. */
    @Override
    public boolean hearsFastPath() {
        return false;
    }

    /** Whether a recording has the wait event enabled now (lets a waiting acquisition skip the clock). */
    @Override
    public boolean wantsWaitNow() {
        return new LockWaitEvent().isEnabled();
    }

    @Override
    public void acquired(boolean waited, long waitNanos) {
        if (!waited) {
            return;
        }
        LockWaitEvent event = new LockWaitEvent();
        if (event.isEnabled()) {
            int node = nodes.currentNode();
            int last = lastNode;
            if (last != node) {
                lastNode = node; // written only when it changes: the lock's waiters do not pass the line around
            }
            event.waitTime = waitNanos;
            if (event.shouldCommit()) {
                event.lockType = lockType;
                event.lockId = lockId;
                event.node = node;
                event.handoff = last < 0 ? "unknown" : last == node ? "same_node" : "cross_node";
                event.commit();
            }
        }
    }

    @Override
    public void reserved(int node) {
        LockReservationEvent event = new LockReservationEvent();
        if (event.shouldCommit()) {
            event.lockType = lockType;
            event.lockId = lockId;
            event.node = node;
            event.commit();
        }
    }

    @Override
    public void combined(int size, long nanos) {
        CombiningBatchEvent event = new CombiningBatchEvent();
        if (event.shouldCommit()) {
            event.lockType = lockType;
            event.lockId = lockId;
            event.size = size;
            event.length = nanos;
            event.commit();
        }
    }

    @Override
    public void modeSwitched(boolean queued) {
        LockModeSwitchEvent event = new LockModeSwitchEvent();
        if (event.shouldCommit()) {
            event.lockType = lockType;
            event.lockId = lockId;
            event.mode = queued ? "queued" : "lean";
            event.commit();
        }
    }

    @Override
    public String toString() {
        return "JfrLockProbe[" + lockType + " #" + lockId + "]";
    }
}
