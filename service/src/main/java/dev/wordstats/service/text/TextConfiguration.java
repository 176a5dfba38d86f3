package dev.wordstats.service.text;

import dev.wordstats.service.WordstatsProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one {@link Tokenizer}, limited by {@code wordstats.limits.max-word-length}. */
@Configuration(proxyBeanMethods = false)
class TextConfiguration {

    @Bean
    Tokenizer tokenizer(WordstatsProperties properties) {
        return new Tokenizer(properties.limits().maxWordLength());
    }
}
