package dev.wordstats.benchmarks.text;

import dev.wordstats.numa.lock.Guard;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * {@code SPIN_BOUND}: the cheapest lock a stripe can have, as a bound beside the lock types on striped
 * counting; never a lock to use. Test-and-test-and-set with an unbounded spin ({@code Thread.onSpinWait}),
 * freed by a release store; no owner, no reentrancy, no parking; the state word padded by 128 bytes
 * both sides. A virtual thread must never spin without bound, since carriers are few and not time-sliced:
 * this one is safe only here, because a stripe's critical section (one {@code HashMap.merge}) never
 * parks, so its owner is always mounted (a carrier the host stops makes the spinners wait out its
 * time slice). A lock type that needs more (an owner to ask whether it runs, a bounded spin, then a
 * park) measures what that costs as its distance below this bound; what the bound itself is below the
 * lock-free stores is what any lock costs on this workload (the stripe's lines move with it).
 */
final class SpinBound extends SpinBoundPad2 implements Guard {

    @Override
    public <T> T call(Supplier<T> criticalSection) {
        lock();
        try {
            return criticalSection.get();
        } finally {
            unlock();
        }
    }

    @Override
    public void run(Runnable criticalSection) {
        lock();
        try {
            criticalSection.run();
        } finally {
            unlock();
        }
    }

    @Override
    public String toString() {
        return "SpinBound[" + (isHeld() ? "held" : "free") + "]";
    }
}

/** 128 bytes before the state. */
abstract class SpinBoundPad1 {
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}

/** The state: 0 free, 1 held. */
abstract class SpinBoundState extends SpinBoundPad1 {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SpinBoundState.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int state; // CAS 0 -> 1 by the taker; release store 0 by the holder; read (opaque) by spinners

    final void lock() {
        while (!STATE.compareAndSet(this, 0, 1)) {
            while ((int) STATE.getOpaque(this) != 0) {
                Thread.onSpinWait();
            }
        }
    }

    final void unlock() {
        STATE.setRelease(this, 0);
    }

    final boolean isHeld() {
        return (int) STATE.getOpaque(this) != 0;
    }
}

/** 128 bytes after the state. */
abstract class SpinBoundPad2 extends SpinBoundState {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;
}
