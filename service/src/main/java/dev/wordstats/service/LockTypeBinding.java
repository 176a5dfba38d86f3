package dev.wordstats.service;

import dev.wordstats.numa.lock.LockType;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;

/**
 * Binds {@code wordstats.lock.type} with {@link LockType#parse}, so a wrong value fails startup
 * with a reason that lists the allowed values ({@link dev.wordstats.numa.lock.LockType#allowedValues()}).
 */
@Configuration(proxyBeanMethods = false)
class LockTypeBinding {

    @Bean
    @ConfigurationPropertiesBinding
    static Converter<String, LockType> lockTypeConverter() {
        return new Converter<>() {
            @Override
            public LockType convert(String source) {
                return LockType.parse(source);
            }
        };
    }
}
