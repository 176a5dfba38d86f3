package dev.wordstats.service;

import dev.wordstats.numa.scheduler.SchedulerMode;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;

/**
 * Binds {@code wordstats.numa.scheduler} with {@link SchedulerMode#parse}, so a wrong value fails
 * startup with a reason naming the two allowed values ({@code default}, {@code per-node}).
 */
@Configuration(proxyBeanMethods = false)
class SchedulerModeBinding {

    @Bean
    @ConfigurationPropertiesBinding
    static Converter<String, SchedulerMode> schedulerModeConverter() {
        return new Converter<>() {
            @Override
            public SchedulerMode convert(String source) {
                return SchedulerMode.parse(source);
            }
        };
    }
}
