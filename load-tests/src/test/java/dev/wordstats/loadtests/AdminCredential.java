package dev.wordstats.loadtests;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/**
 * The service's credential, which {@code DELETE /api/words} (the reset before each run) needs: the
 * service's {@code spring.security.user.name} / {@code spring.security.user.password}, given to the
 * simulations as the environment variables {@code WORDSTATS_ADMIN_USER} (default {@code admin})
 * and {@code WORDSTATS_ADMIN_PASSWORD}, or as {@code -DadminUser} / {@code -DadminPassword}. The
 * environment keeps the password out of the process list.
 */
public record AdminCredential(String user, String password) {

    static final String USER_ENV = "WORDSTATS_ADMIN_USER";
    static final String PASSWORD_ENV = "WORDSTATS_ADMIN_PASSWORD";

    /** The credential given to this process, or {@code null} password when none was given. */
    public static AdminCredential given() {
        String user = firstSet(System.getProperty("adminUser"), System.getenv(USER_ENV), "admin");
        String password = firstSet(System.getProperty("adminPassword"), System.getenv(PASSWORD_ENV), null);
        return new AdminCredential(user, password);
    }

    /**
     * For a service this process starts itself (the comparison runner): the given credential, else
     * a random password made for this run.
     */
    public static AdminCredential forOwnService() {
        AdminCredential given = given();
        return given.password() != null
                ? given
                : new AdminCredential(given.user(), UUID.randomUUID().toString());
    }

    /** The Authorization header value. */
    public String basicHeader() {
        if (password == null) {
            throw new IllegalStateException("DELETE /api/words needs the service's credential: set " + PASSWORD_ENV
                    + " (and " + USER_ENV + " unless it is admin) to the service's spring.security.user.password"
                    + " (and .name); a service started without one logs its generated password at start-up");
        }
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Passes this credential to a service process ({@code spring.security.user.*} from its environment). */
    public void toServiceEnvironment(java.util.Map<String, String> environment) {
        environment.put("SPRING_SECURITY_USER_NAME", user);
        environment.put("SPRING_SECURITY_USER_PASSWORD", password);
    }

    /** Passes this credential to a simulation process. */
    public void toSimulationEnvironment(java.util.Map<String, String> environment) {
        environment.put(USER_ENV, user);
        environment.put(PASSWORD_ENV, password);
    }

    private static String firstSet(String a, String b, String otherwise) {
        if (a != null && !a.isEmpty()) {
            return a;
        }
        return b != null && !b.isEmpty() ? b : otherwise;
    }
}
