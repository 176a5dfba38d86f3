package dev.wordstats.service;

import dev.wordstats.numa.lock.LockType;
import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = "wordstats.lock.type=FAIR_REENTRANT")
class FairReentrantServiceIntegrationTest extends ServiceIntegrationTest {

    FairReentrantServiceIntegrationTest() {
        super(LockType.FAIR_REENTRANT);
    }
}
