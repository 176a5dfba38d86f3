package dev.wordstats.loadtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoopbackTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1:8080",
                "http://localhost:8080/",
                "http://LOCALHOST",
                "http://127.1.2.3:9000",
                "http://[::1]:8080",
                "https://127.0.0.1:8443"
            })
    void acceptsLoopbackHosts(String url) {
        assertThat(Loopback.requireLoopback(url).toString()).isEqualTo(url);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://10.0.0.5:8080",
                "http://192.168.1.10",
                "http://172.16.0.1",
                "http://8.8.8.8",
                "http://example.com",
                "http://localhost.example.com",
                "http://0.0.0.0:8080",
                "http://[2001:db8::1]",
                "http://128.0.0.1"
            })
    void refusesEveryOtherHost(String url) {
        assertThatThrownBy(() -> Loopback.requireLoopback(url))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only to this machine");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://127.0.0.1", "127.0.0.1:8080", "http://127.0.0.1:80 80"})
    void refusesWhatIsNotAnHttpUrl(String url) {
        assertThatThrownBy(() -> Loopback.requireLoopback(url)).isInstanceOf(IllegalArgumentException.class);
    }
}
