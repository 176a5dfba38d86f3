package dev.wordstats.service.metrics;

import dev.wordstats.service.WordstatsProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The lock timer, when {@code wordstats.lock.timing} is on (the default), and the {@code lock} tag
 * on every meter.
 */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    @ConditionalOnBooleanProperty(name = "wordstats.lock.timing", matchIfMissing = true)
    MicrometerStripeLockTimers lockTimer(WordstatsProperties properties) {
        return new MicrometerStripeLockTimers(
                properties.lock().type(), properties.lock().timingSampleEvery());
    }

    /**
     * The configured lock type as a common tag ({@code lock}) of every meter, HTTP and JVM ones
     * included, so that runs or instances with different locks never mix in one series. (Beside the
     * {@code application} tag that {@code management.metrics.tags} sets.)
     */
    @Bean
    MeterRegistryCustomizer<MeterRegistry> lockCommonTag(WordstatsProperties properties) {
        return registry ->
                registry.config().commonTags("lock", properties.lock().type().name());
    }
}
