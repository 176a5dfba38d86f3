/**
 * How this instance runs, said once: the start-up line and the {@code wordstats} entry of
 * {@code /actuator/info}. Reads {@code counts} and {@code numa}; nothing
 * depends on this package.
 */
@NullMarked
package dev.wordstats.service.system;

import org.jspecify.annotations.NullMarked;
