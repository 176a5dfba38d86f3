package dev.wordstats.service;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The word statistics service: counts words posted over HTTP in a {@code StripedCounts} whose
 * stripe locks are of the type chosen by {@code wordstats.lock.type}, and publishes the locks'
 * behaviour as Micrometer metrics.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class WordstatsApplication {

    public static void main(String[] args) {
        SpringApplication.run(WordstatsApplication.class, args);
    }
}
