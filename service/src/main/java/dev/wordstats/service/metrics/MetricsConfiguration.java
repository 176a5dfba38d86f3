package dev.wordstats.service.metrics;

import dev.wordstats.service.WordstatsProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The lock timer, when {@code wordstats.lock.timing} is on (the default). */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    @ConditionalOnBooleanProperty(name = "wordstats.lock.timing", matchIfMissing = true)
    MicrometerLockTimer lockTimer(WordstatsProperties properties) {
        return new MicrometerLockTimer(
                properties.lock().type(), properties.lock().timingSampleEvery());
    }
}
