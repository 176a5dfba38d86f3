package dev.wordstats.service;

import dev.wordstats.numa.lock.LockType;
import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = "wordstats.lock.type=NUMA_MCS")
class NumaMcsServiceIntegrationTest extends ServiceIntegrationTest {

    NumaMcsServiceIntegrationTest() {
        super(LockType.NUMA_MCS);
    }
}
