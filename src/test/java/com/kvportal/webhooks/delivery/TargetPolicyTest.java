package com.kvportal.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.webhooks.WebhookProperties;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.util.unit.DataSize;

/** Which addresses a delivery may reach (no SSRF), and the settings' defaults, which are those docs/webhooks.md states. */
class TargetPolicyTest {

    static final TargetPolicy STRICT = new TargetPolicy(settings(false));

    @Test
    void shouldTakeOnlyPublicAddressesCountingIpv6FormsOfIpv4AsWhatTheyMapTo() throws Exception {
        for (String address : List.of(
                "0.0.0.0",
                "0.1.2.3",
                "127.0.0.1",
                "127.255.255.254",
                "10.1.2.3",
                "172.16.0.1",
                "172.31.255.255",
                "192.168.0.1",
                "169.254.169.254",
                "100.64.0.1",
                "192.0.0.8",
                "198.18.0.1",
                "224.0.0.251",
                "239.255.255.250",
                "240.0.0.1",
                "255.255.255.255",
                "::",
                "::1",
                "fe80::1",
                "fec0::1",
                "fc00::1",
                "fd12:3456::1",
                "ff02::1",
                "::ffff:127.0.0.1",
                "::ffff:10.0.0.1",
                "::ffff:169.254.169.254",
                "::127.0.0.1",
                "64:ff9b::7f00:1",
                "64:ff9b::a9fe:a9fe",
                "2001:db8::1")) {
            assertThat(STRICT.allowed(InetAddress.getByName(address)))
                    .as(address)
                    .isFalse();
        }
        for (String address :
                List.of("93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8")) {
            assertThat(STRICT.allowed(InetAddress.getByName(address)))
                    .as(address)
                    .isTrue();
        }
        assertThat(new TargetPolicy(settings(true)).allowed(InetAddress.getByName("127.0.0.1")))
                .isTrue();
    }

    @Test
    void shouldCountTunnelAddressesAsTheIpv4AddressesTheyCarry() throws Exception {
        Map<String, Boolean> allowed = new LinkedHashMap<>();
        // 6to4: bits 16-47 are the IPv4 address
        allowed.put("2002:7f00:0001::", false); // 127.0.0.1
        allowed.put("2002:7f00:1::1", false); // 127.0.0.1
        allowed.put("2002:0a00:0001::", false); // 10.0.0.1
        allowed.put("2002:a9fe:a9fe::1", false); // 169.254.169.254
        allowed.put("2002:c0a8:0101:1::1", false); // 192.168.1.1
        allowed.put("2002:0808:0808::1", true); // 8.8.8.8
        // Teredo: bits 32-63 are the server's IPv4 address, the last 32 bits the client's, inverted
        allowed.put("2001:0:4136:e378:8000:63bf:80ff:fffe", false); // client 127.0.0.1
        allowed.put("2001:0:4136:e378:8000:63bf:f5ff:fffe", false); // client 10.0.0.1
        allowed.put("2001:0:4136:e378:8000:63bf:5601:5601", false); // client 169.254.169.254
        allowed.put("2001:0:a00:1:8000:63bf:f7f7:f7f7", false); // server 10.0.0.1, client 8.8.8.8
        allowed.put("2001:0:7f00:1:8000:63bf:f7f7:f7f7", false); // server 127.0.0.1, client 8.8.8.8
        allowed.put("2001:0:4136:e378:8000:63bf:f7f7:f7f7", true); // server 65.54.227.120, client 8.8.8.8
        // other /32s of 2001::/16 are not Teredo
        allowed.put("2001:4860:4860::8888", true);
        for (Map.Entry<String, Boolean> address : allowed.entrySet()) {
            assertThat(STRICT.allowed(InetAddress.getByName(address.getKey())))
                    .as(address.getKey())
                    .isEqualTo(address.getValue());
        }
    }

    @Test
    void shouldNeverConnectToANonPublicAddressAtSendTime() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"))) {
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket socket = server.accept()) {
                        accepted.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.start();
            WebhookClient client = new WebhookClient(STRICT, settings(false));
            int port = server.getLocalPort();

            // saved when the setting was on, or a name that resolves to loopback now (DNS rebinding)
            for (String url : List.of(
                    "https://127.0.0.1:" + port + "/hooks",
                    "https://localhost:" + port + "/hooks",
                    "https://[::ffff:127.0.0.1]:" + port + "/hooks",
                    "http://127.0.0.1:" + port + "/hooks")) {
                WebhookClient.Outcome outcome = client.post(url, Map.of(), new byte[0]);
                assertThat(outcome.status()).as(url).isNull();
                assertThat(outcome.error()).as(url).isEqualTo(DeliveryError.TARGET_REFUSED);
            }

            client.destroy();
            assertThat(accepted).hasValue(0);
        }
    }

    @Test
    void shouldDefaultToTheDocumentedTimeoutScheduleAndWindows() {
        WebhookProperties defaults =
                Binder.get(new StandardEnvironment()).bindOrCreate("kvportal.webhooks", WebhookProperties.class);

        assertThat(defaults.allowPrivateTargets()).isFalse();
        assertThat(defaults.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.retrySchedule())
                .containsExactly(
                        Duration.ofSeconds(5),
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(30),
                        Duration.ofHours(2),
                        Duration.ofHours(5),
                        Duration.ofHours(10),
                        Duration.ofHours(10));
        assertThat(defaults.disableAfter()).isEqualTo(Duration.ofDays(5));
        assertThat(defaults.secretOverlap()).isEqualTo(Duration.ofHours(24));
        assertThat(defaults.manualAttemptsPerMinute()).isEqualTo(10);
        assertThat(defaults.inFlightPerOrganization()).isLessThan(defaults.workers());
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(DeliveryWorker.nextAttempt(defaults.retrySchedule(), 1, now)).isEqualTo(now.plusSeconds(5));
        assertThat(DeliveryWorker.nextAttempt(defaults.retrySchedule(), 7, now))
                .isEqualTo(now.plus(Duration.ofHours(10)));
        assertThat(DeliveryWorker.nextAttempt(defaults.retrySchedule(), 8, now)).isNull();
    }

    static WebhookProperties settings(boolean allowPrivate) {
        return new WebhookProperties(
                allowPrivate,
                Duration.ofSeconds(2),
                List.of(Duration.ofSeconds(1)),
                Duration.ofDays(5),
                2,
                Duration.ofSeconds(1),
                DataSize.ofKilobytes(64),
                Duration.ofHours(24),
                Duration.ofDays(30),
                Duration.ofHours(1),
                Duration.ofMinutes(1),
                1,
                10);
    }
}
