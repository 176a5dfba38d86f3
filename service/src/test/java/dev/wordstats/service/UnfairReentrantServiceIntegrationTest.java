package dev.wordstats.service;

import dev.wordstats.numa.lock.LockType;
import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = "wordstats.lock.type=UNFAIR_REENTRANT")
class UnfairReentrantServiceIntegrationTest extends ServiceIntegrationTest {

    UnfairReentrantServiceIntegrationTest() {
        super(LockType.UNFAIR_REENTRANT);
    }
}
