package dev.wordstats.service;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a {@link StartupCheckException} as Spring Boot reports a bad property value. */
class StartupCheckFailureAnalyzer extends AbstractFailureAnalyzer<StartupCheckException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StartupCheckException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
