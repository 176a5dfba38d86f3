/**
 * The word counts: {@link dev.wordstats.service.counts.WordStore} (a striped store guarded by locks of the
 * configured type, capped in distinct words) and {@link dev.wordstats.service.counts.WordCounting} (tokenize a
 * request, add all of its words or none). Depends on {@code text} and {@code numa}, never on {@code web}.
 */
@NullMarked
package dev.wordstats.service.counts;

import org.jspecify.annotations.NullMarked;
