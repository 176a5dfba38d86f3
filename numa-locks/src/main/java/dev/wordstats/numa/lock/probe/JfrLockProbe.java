package dev.wordstats.numa.lock.probe;

import dev.wordstats.numa.lock.LockType;
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
 * <p><b>The wait event is the wait.</b> Every lock type asks {@link #wantsWaitNow()} on the waiting
 * thread at the start of a wait; while a recording enables the event, it begins there and waits in a
 * thread local of this probe. {@link #acquired} ends it (its duration: the wait) and fills it in;
 * {@link #released}, which the lock calls after the release of a wait ({@link #hearsReleaseAfterWait()}),
 * commits it, so nothing is written inside the critical section and JFR's own {@code threshold} filters
 * it by its duration. A wait that gives up (a timed-out or interrupted {@code tryLock}) leaves its begun
 * event behind, and the thread's next wait on the lock replaces it (or, with the event disabled, drops
 * it): it never lends its start to a later acquisition. For a combining type's caller whose section a
 * combiner ran, {@code acquired} runs on the combiner's thread, so the caller's event ends at its own
 * release: its duration is the caller's whole blocked call, and {@code waitTime} the wait up to the start
 * of its section. The stack trace leaves out the library's frames ({@link LockEvent}), so its top frame
 * is the code that called the lock.
 *
 * <p><b>Cost.</b> It does not {@link #hearsFastPath() hear the fast path}: a lock's acquisitions that do
 * not wait never call it, so they run exactly as without a probe (no clock, no thread local). On the
 * slow path, which waits anyway, the lock first asks {@link #wantsWaitNow()} whether the wait event is
 * enabled; only while a recording enables it does the lock read the clock and tell the probe of the
 * acquisition and of its release, and the probe asks the node locator. For a build without even that,
 * {@code -D}{@value #ENABLED_PROPERTY}{@code =false} makes {@link #byDefault} give {@link LockProbe#NONE}
 * (read once, when this class loads).
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
    private final ThreadLocal<LockWaitEvent> waiting = new ThreadLocal<>(); // per thread: its wait's event
    private boolean begunAny; // plain, any waiter: set once a wait event began (then a disabled wait clears its slot)
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

    /**
     * True: the lock calls {@link #released} after the release of each acquisition that waited, where the
     * wait event is committed, outside the critical section.
     */
    @Override
    public boolean hearsReleaseAfterWait() {
        return true;
    }

    /**
     * Whether a recording has the wait event enabled now (lets a waiting acquisition skip the clock); if it
     * has, the calling thread's wait event begins here: the lock asks at the start of the wait.
     */
    @Override
    public boolean wantsWaitNow() {
        LockWaitEvent event = new LockWaitEvent();
        if (!event.isEnabled()) {
            if (begunAny) {
                waiting.remove(); // a wait given up under an earlier recording must not lend its start to this one
            }
            return false;
        }
        if (!begunAny) {
            begunAny = true;
        }
        LockWaitEvent pending = waiting.get();
        if (pending != null && pending.lockType != null) {
            return true; // this thread holds the lock after a wait (a call inside its section): keep that wait
        }
        event.begin();
        waiting.set(event); // replaces the event of a wait that gave up (a tryLock's timeout, an interrupt)
        return true;
    }

    /** A wait is over: ends the calling thread's wait event (the duration) and fills it in, not yet committed. */
    @Override
    public void acquired(boolean waited, long waitNanos) {
        if (!waited) {
            return;
        }
        LockWaitEvent event = waiting.get();
        if (event == null || event.lockType != null) {
            return; // the wait began before a recording wanted it, or this thread's wait was already ended
        }
        event.end();
        int node = nodes.currentNode();
        int last = lastNode;
        if (last != node) {
            lastNode = node; // written only when it changes: the lock's waiters do not pass the line around
        }
        fill(event, waitNanos, node, last);
    }

    /** After the release of an acquisition that waited: commits its wait event, outside the critical section. */
    @Override
    public void released(boolean waited, long waitNanos, long holdNanos) {
        if (!waited) {
            return;
        }
        LockWaitEvent event = waiting.get();
        if (event == null) {
            return; // the wait began before a recording wanted it
        }
        waiting.remove();
        if (event.lockType == null) {
            // acquired ran on another thread (a combiner ran this caller's section): the caller's wait ends here
            event.end();
            int last = lastNode;
            fill(event, waitNanos, nodes.currentNode(), last); // lastNode is the holders' to write
        }
        if (event.shouldCommit()) { // JFR's threshold, on the duration
            event.commit();
        }
    }

    private void fill(LockWaitEvent event, long waitNanos, int node, int last) {
        event.waitTime = waitNanos;
        event.lockType = lockType;
        event.lockId = lockId;
        event.node = node;
        event.handoff = last < 0 ? "unknown" : last == node ? "same_node" : "cross_node";
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
