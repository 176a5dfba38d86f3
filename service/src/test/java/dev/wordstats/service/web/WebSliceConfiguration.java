package dev.wordstats.service.web;

import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.StoreSnapshots;
import dev.wordstats.service.counts.WordCounting;
import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.numa.NumaRuntime;
import dev.wordstats.service.text.Tokenizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The real beans behind the controllers (store, counting, body reading), so slice tests see real effects. */
@TestConfiguration(proxyBeanMethods = false)
@EnableConfigurationProperties(WordstatsProperties.class)
@Import({
    NumaRuntime.class,
    WordStore.class,
    StoreSnapshots.class,
    WordCounting.class,
    RequestBodies.class,
    OpenApiConfiguration.class
})
class WebSliceConfiguration {

    @Bean
    Tokenizer tokenizer(WordstatsProperties properties) {
        return new Tokenizer(properties.limits().maxWordLength());
    }
}
