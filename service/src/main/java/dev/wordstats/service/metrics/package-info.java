/**
 * Micrometer bindings: the lock and store statistics the code already keeps, read at scrape time, the
 * lock timers, and what each NUMA node did. Reads {@code counts} and {@code numa}; nothing in the service
 * depends on this package.
 */
@NullMarked
package dev.wordstats.service.metrics;

import org.jspecify.annotations.NullMarked;
