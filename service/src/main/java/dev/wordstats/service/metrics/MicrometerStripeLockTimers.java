package dev.wordstats.service.metrics;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.service.counts.StripeLockTimers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/** The stripe locks' two timers, {@code access=read} and {@code access=write} (see {@link MicrometerLockTimer}). */
final class MicrometerStripeLockTimers implements StripeLockTimers, MeterBinder {

    private final MicrometerLockTimer reads; // final
    private final MicrometerLockTimer writes; // final
    private final boolean readWrite; // final: whether the lock type has read sections of its own

    MicrometerStripeLockTimers(LockType lockType, int sampleEvery) {
        this.reads = new MicrometerLockTimer(lockType, "read", sampleEvery);
        this.writes = new MicrometerLockTimer(lockType, "write", sampleEvery);
        this.readWrite = lockType.isReadWrite();
    }

    @Override
    public LockTimer reads() {
        return reads;
    }

    @Override
    public LockTimer writes() {
        return writes;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        writes.bindTo(registry);
        if (readWrite) {
            reads.bindTo(registry); // an exclusive type has no read sections: no empty series for them
        }
    }
}
