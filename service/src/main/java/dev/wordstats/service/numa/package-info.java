/**
 * The machine as this instance sees it: the NUMA topology (real or simulated), carrier pinning, the
 * virtual-thread scheduler (default or per node) and the node locator the locks ask
 * ({@link dev.wordstats.service.numa.NumaRuntime}, a bean around the library's {@code NumaSetup}); in per-node
 * mode, Tomcat's executor that starts each request on a node; the per-node request count; and
 * {@code /api/topology} that shows them. Depends on the {@code numa-locks} library only.
 */
@NullMarked
package dev.wordstats.service.numa;

import org.jspecify.annotations.NullMarked;
