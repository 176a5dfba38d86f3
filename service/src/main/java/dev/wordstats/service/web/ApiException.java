package dev.wordstats.service.web;

/** A request the API refuses with a problem of {@link #type()}; thrown before anything is counted. */
final class ApiException extends RuntimeException {

    private final ProblemType type;

    ApiException(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    ProblemType type() {
        return type;
    }
}
