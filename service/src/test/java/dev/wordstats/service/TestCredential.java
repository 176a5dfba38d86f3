package dev.wordstats.service;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The credential the tests configure (src/test/resources/config/application.yml). */
public final class TestCredential {

    public static final String USER = "admin";
    public static final String PASSWORD = "test-secret";

    private TestCredential() {}

    /** The Authorization header value for {@code user:password}. */
    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The Authorization header value for the configured credential. */
    public static String basic() {
        return basic(USER, PASSWORD);
    }
}
