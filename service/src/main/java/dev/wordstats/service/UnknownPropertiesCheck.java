package dev.wordstats.service;

import java.lang.reflect.RecordComponent;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.stereotype.Component;

/**
 * Stops the start on a {@code wordstats.*} property that {@link WordstatsProperties} does not have
 * (a misspelt name would otherwise be ignored and its default used), naming it, where it was set,
 * and the nearest known property. It runs before any bean is built.
 *
 * <p>Configuration files, command-line arguments and test properties are checked whole. In the
 * process environment every {@code WORDSTATS_*} variable must be a known property, except the
 * variables of this project's own tools ({@link #TOOL_VARIABLES}: the credential the load tests
 * read, CI's and the fuzzer's switches, the compose and image settings), so {@code WORDSTATS_LOCK_TYP}
 * and {@code WORDSTATS_LOKC_TYPE} stop the start and {@code WORDSTATS_FUZZ_SEED} does not. The JVM's
 * system properties are shared with the build ({@code -Dwordstats.test.*}), so there only names
 * within a known group ({@code wordstats.lock.*}, {@code wordstats.store.*}, ...) are checked.
 *
 * <p>Spring Boot's own credential, {@code spring.security.user.*}, is checked in every source: a key
 * other than {@code name}, {@code password} and {@code roles} (e.g. {@code pasword}, which would
 * leave the generated password in place) stops the start.
 */
@Component
class UnknownPropertiesCheck implements BeanFactoryPostProcessor, Ordered {

    private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("wordstats");

    private static final ConfigurationPropertyName SECURITY_USER = ConfigurationPropertyName.of("spring.security.user");

    /** The keys of {@code spring.security.user} that Spring Boot binds. */
    static final Set<String> SECURITY_USER_KEYS = Set.of("name", "password", "roles");

    /**
     * {@code WORDSTATS_*} environment variables (and prefixes, ending in {@code _}) of the
     * project's tools, not of the service: allowed in the environment although no property.
     */
    static final List<String> TOOL_VARIABLES = List.of(
            "WORDSTATS_ADMIN_",
            "WORDSTATS_DOCKER_",
            "WORDSTATS_FUZZ_",
            "WORDSTATS_MIN_JAVA",
            "WORDSTATS_BASE_IMAGE",
            "WORDSTATS_PROMETHEUS_IMAGE",
            "WORDSTATS_PORT");

    /** Every property of {@link WordstatsProperties}, dashed ({@code wordstats.lock.reserve-after}). */
    static final Set<String> KNOWN = known("wordstats", WordstatsProperties.class);

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        check(beanFactory.getBean(ConfigurableEnvironment.class));
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** @throws StartupCheckException naming the first unknown property */
    static void check(ConfigurableEnvironment environment) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            checkSecurityUser(source, iterable);
            Object underlying = source.getUnderlyingSource();
            boolean processEnvironment =
                    isNamed(underlying, StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
            boolean systemProperties = isNamed(underlying, StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
            List<ConfigurationPropertyName> names =
                    iterable.stream().filter(ROOT::isAncestorOf).toList();
            for (ConfigurationPropertyName name : names) {
                String key = undashed(name.toString());
                if (KNOWN.stream().anyMatch(k -> undashed(k).equals(key))) {
                    continue;
                }
                if (systemProperties && !inKnownGroup(name)) {
                    continue;
                }
                if (processEnvironment && isToolVariable(name)) {
                    continue;
                }
                ConfigurationProperty property = source.getConfigurationProperty(name);
                Object origin = property != null && property.getOrigin() != null ? property.getOrigin() : source;
                throw new StartupCheckException(
                        "Unknown property " + name + " (set in " + origin + "); the nearest known property is "
                                + nearest(name.toString()) + ".",
                        "Correct or remove it. Every wordstats.* property is described in WordstatsProperties "
                                + "(and in an IDE, from META-INF/spring-configuration-metadata.json).");
            }
        }
    }

    /** The known property nearest to {@code name} in edit distance (dashes ignored). */
    static String nearest(String name) {
        String target = undashed(name);
        return KNOWN.stream()
                .min(Comparator.comparingInt((String k) -> distance(undashed(k), target))
                        .thenComparing(Comparator.naturalOrder()))
                .orElseThrow();
    }

    private static void checkSecurityUser(ConfigurationPropertySource source, IterableConfigurationPropertySource all) {
        List<ConfigurationPropertyName> names = all.stream()
                .filter(SECURITY_USER::isAncestorOf)
                .filter(n -> !SECURITY_USER_KEYS.contains(n.getElement(3, ConfigurationPropertyName.Form.UNIFORM)))
                .toList();
        for (ConfigurationPropertyName name : names) {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            Object origin = property != null && property.getOrigin() != null ? property.getOrigin() : source;
            throw new StartupCheckException(
                    "Unknown property " + name + " (set in " + origin + "); spring.security.user has only "
                            + "name, password and roles.",
                    "Correct or remove it: a misspelt key is ignored, and the service would start with the "
                            + "default user and a generated password.");
        }
    }

    private static boolean isToolVariable(ConfigurationPropertyName name) {
        String variable =
                name.toString().toUpperCase(Locale.ROOT).replace('.', '_').replace("-", "");
        return TOOL_VARIABLES.stream().anyMatch(t -> t.endsWith("_") ? variable.startsWith(t) : variable.equals(t));
    }

    private static boolean isNamed(Object underlying, String sourceName) {
        return underlying instanceof PropertySource<?> source
                && source.getName().equals(sourceName);
    }

    private static boolean inKnownGroup(ConfigurationPropertyName name) {
        if (name.getNumberOfElements() < 2) {
            return false;
        }
        String group = undashed("wordstats." + name.getElement(1, ConfigurationPropertyName.Form.UNIFORM) + ".");
        return KNOWN.stream().anyMatch(k -> undashed(k).startsWith(group));
    }

    private static String undashed(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }

    private static Set<String> known(String prefix, Class<?> type) {
        Set<String> names = new TreeSet<>();
        for (RecordComponent component : type.getRecordComponents()) {
            String name = prefix + "." + dashed(component.getName());
            Class<?> value = component.getType();
            if (value.isRecord() && value.getEnclosingClass() == WordstatsProperties.class) {
                names.addAll(known(name, value));
            } else {
                names.add(name);
            }
        }
        return names;
    }

    private static String dashed(String camel) {
        StringBuilder out = new StringBuilder();
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('-').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
