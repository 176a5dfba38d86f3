/**
 * The machine as this instance sees it: the NUMA topology (real or simulated), carrier pinning and the node
 * locator the locks ask ({@link dev.wordstats.service.numa.NumaRuntime}), and {@code /api/topology} that shows
 * them. Depends on the {@code numa-locks} library only.
 */
@NullMarked
package dev.wordstats.service.numa;

import org.jspecify.annotations.NullMarked;
