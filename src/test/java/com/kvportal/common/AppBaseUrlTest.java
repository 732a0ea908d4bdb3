package com.kvportal.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rules on the base URL that the sandbox relies on: is it loopback, and does a URL lie under it. */
class AppBaseUrlTest {

    private static AppBaseUrl base(String configured) {
        return new AppBaseUrl(new AppProperties(configured, "localhost", 8080));
    }

    @Test
    void shouldCallOnlyLocalhostAndLoopbackAddressesLoopbackWithoutAskingDns() {
        assertThat(base("").isLoopback()).isTrue();
        assertThat(base("http://localhost:8080").isLoopback()).isTrue();
        assertThat(base("http://LocalHost").isLoopback()).isTrue();
        assertThat(base("https://127.0.0.1:9000/portal").isLoopback()).isTrue();
        assertThat(base("http://127.45.6.7").isLoopback()).isTrue();
        assertThat(base("http://[::1]:8080").isLoopback()).isTrue();

        assertThat(base("https://portal.example.com").isLoopback()).isFalse();
        assertThat(base("http://localhost.example.com").isLoopback()).isFalse();
        assertThat(base("http://127.0.0.1.nip.io").isLoopback()).isFalse();
        assertThat(base("http://0.0.0.0:8080").isLoopback()).isFalse();
        assertThat(base("http://10.0.0.7:8080").isLoopback()).isFalse();
        assertThat(base("http://[::]:8080").isLoopback()).isFalse();
        assertThat(new AppBaseUrl(new AppProperties("", "0.0.0.0", 8080)).isLoopback())
                .isFalse();
    }

    @Test
    void shouldTakeOnlyUrlsWithTheSameSchemeHostPortAndPathPrefix() {
        AppBaseUrl base = base("https://example.com/portal/");

        assertThat(base.covers("https://example.com/portal")).isTrue();
        assertThat(base.covers("https://example.com/portal/dashboard?x=1#top")).isTrue();
        assertThat(base.covers("HTTPS://EXAMPLE.COM:443/portal/billing")).isTrue();

        assertThat(base.covers("http://example.com/portal/dashboard")).isFalse();
        assertThat(base.covers("https://example.com:8443/portal/dashboard")).isFalse();
        assertThat(base.covers("https://example.org/portal/dashboard")).isFalse();
        assertThat(base.covers("https://example.com/portalx")).isFalse();
        assertThat(base.covers("https://example.com/other")).isFalse();
        assertThat(base.covers("https://example.com/portal/../other")).isFalse();
        assertThat(base.covers("https://example.com/portal/%2e%2e/other")).isFalse();
        assertThat(base.covers("https://example.com/portal/%2E%2E/other")).isFalse();
        assertThat(base.covers("https://example.com@evil.example/portal/")).isFalse();
        assertThat(base.covers("https://user@example.com/portal/")).isFalse();
        assertThat(base.covers("https://example.com.evil.example/portal/")).isFalse();
        assertThat(base.covers("//example.com/portal/")).isFalse();
        assertThat(base.covers("/portal/")).isFalse();
        assertThat(base.covers("https://example.com\\@evil.example/portal/")).isFalse();
        assertThat(base.covers("javascript:alert(1)")).isFalse();
    }

    @Test
    void shouldTakeEveryPathUnderABaseUrlWithoutAPathAndItsDefaultPort() {
        AppBaseUrl base = base("http://localhost");

        assertThat(base.covers("http://localhost/")).isTrue();
        assertThat(base.covers("http://localhost:80/api/v1/billing/checkout/success?session_id=cs_1"))
                .isTrue();
        assertThat(base.covers("http://localhost:8080/")).isFalse();
        assertThat(base.covers("https://localhost/")).isFalse();
    }
}
