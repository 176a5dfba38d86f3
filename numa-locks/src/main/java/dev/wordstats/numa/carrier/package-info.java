/**
 * Virtual-thread carriers and NUMA: {@link dev.wordstats.numa.carrier.CarrierNodeLocator} tells the
 * node of the calling (virtual) thread from a per-carrier cache, and
 * {@link dev.wordstats.numa.carrier.CarrierPinning} pins each carrier of the default scheduler to
 * one CPU so that the cache is exact.
 *
 * <p>JVM flags: {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (the per-carrier
 * cache, {@code CarrierThreadLocal}), {@code --add-opens java.base/java.lang=ALL-UNNAMED} (carrier
 * names via {@code Thread.currentCarrierThread}, optional), {@code --enable-native-access=ALL-UNNAMED}
 * (JNA). Without them the code still works: a per-thread cache, names from {@code toString()}.
 *
 * <p>Types: {@code CarrierNodeLocator}; {@code CarrierPinning} and what it reports,
 * {@link dev.wordstats.numa.carrier.PinningReport} of {@link dev.wordstats.numa.carrier.CarrierPin}s;
 * {@code PinningTask} (package-private), the work each of its virtual threads does.
 */
package dev.wordstats.numa.carrier;
