/**
 * Counts per key behind striped locks: {@link dev.wordstats.numa.counts.StripedCounts}, N plain hash
 * maps, each guarded by a {@link dev.wordstats.numa.lock.Guard} of one
 * {@link dev.wordstats.numa.lock.LockType}, read under read sections and written under write sections.
 *
 * <p>Types: {@code StripedCounts}.
 */
package dev.wordstats.numa.counts;
