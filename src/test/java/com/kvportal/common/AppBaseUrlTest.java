package com.kvportal.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rules on the base URL that the sandbox relies on: is it loopback, and does a URL lie under it. */
class AppBaseUrlTest {

    private static AppBaseUrl base(String configured) {
        return new AppBaseUrl(new AppProperties(configured, "localhost", 8080));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            # base URL (APP_BASE_URL)           | loopback
            ''                                  | true
            http://localhost:8080               | true
            http://LocalHost                    | true
            https://127.0.0.1:9000/portal       | true
            http://127.45.6.7                   | true
            http://[::1]:8080                   | true
            https://portal.example.com          | false
            http://localhost.example.com        | false
            http://127.0.0.1.nip.io             | false
            http://0.0.0.0:8080                 | false
            http://10.0.0.7:8080                | false
            http://[::]:8080                    | false
            """)
    void shouldCallOnlyLocalhostAndLoopbackAddressesLoopbackWithoutAskingDns(String configured, boolean loopback) {
        assertThat(base(configured).isLoopback()).isEqualTo(loopback);
    }

    @Test
    void shouldNotCallTheFallbackBaseUrlLoopbackWhenTheServerListensOnEveryAddress() {
        assertThat(new AppBaseUrl(new AppProperties("", "0.0.0.0", 8080)).isLoopback())
                .isFalse();
    }

    @ParameterizedTest(name = "{0} covers {1}: {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            # base URL                   | URL                                                                 | covered
            # only the same scheme, host, port and path prefix
            https://example.com/portal/  | https://example.com/portal                                          | true
            https://example.com/portal/  | https://example.com/portal/dashboard?x=1#top                        | true
            https://example.com/portal/  | HTTPS://EXAMPLE.COM:443/portal/billing                              | true
            https://example.com/portal/  | http://example.com/portal/dashboard                                 | false
            https://example.com/portal/  | https://example.com:8443/portal/dashboard                           | false
            https://example.com/portal/  | https://example.org/portal/dashboard                                | false
            https://example.com/portal/  | https://example.com/portalx                                         | false
            https://example.com/portal/  | https://example.com/other                                           | false
            https://example.com/portal/  | https://example.com/portal/../other                                 | false
            https://example.com/portal/  | https://example.com/portal/%2e%2e/other                             | false
            https://example.com/portal/  | https://example.com/portal/%2E%2E/other                             | false
            https://example.com/portal/  | https://example.com@evil.example/portal/                            | false
            https://example.com/portal/  | https://user@example.com/portal/                                    | false
            https://example.com/portal/  | https://example.com.evil.example/portal/                            | false
            https://example.com/portal/  | //example.com/portal/                                               | false
            https://example.com/portal/  | /portal/                                                            | false
            https://example.com/portal/  | https://example.com\\@evil.example/portal/                          | false
            https://example.com/portal/  | javascript:alert(1)                                                 | false
            # every path under a base URL without a path, and its default port
            http://localhost             | http://localhost/                                                   | true
            http://localhost             | http://localhost:80/api/v1/billing/checkout/success?session_id=cs_1 | true
            http://localhost             | http://localhost:8080/                                              | false
            http://localhost             | https://localhost/                                                  | false
            """)
    void shouldTakeOnlyUrlsWithTheSameSchemeHostPortAndPathPrefix(String configured, String url, boolean covered) {
        assertThat(base(configured).covers(url)).isEqualTo(covered);
    }
}
