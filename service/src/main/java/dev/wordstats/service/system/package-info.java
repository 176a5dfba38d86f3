/**
 * How this instance runs, said once: the start-up line. Reads {@code counts} and {@code numa}; nothing
 * depends on this package.
 */
@NullMarked
package dev.wordstats.service.system;

import org.jspecify.annotations.NullMarked;
