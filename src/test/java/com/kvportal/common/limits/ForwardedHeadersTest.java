package com.kvportal.common.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpRequest;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.apache.catalina.util.NetMaskSet;
import org.apache.catalina.valves.RemoteIpValve;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code X-Forwarded-For} is believed from loopback only (unless {@code server.tomcat.remoteip.internal-proxies} says
 * otherwise): a request from 127.0.0.1 is the forwarded client's, as the limits and the audit log count it; one from
 * a private network (another host, a container) is its own.
 */
class ForwardedHeadersTest extends IntegrationTest {

    @Autowired
    WebServerApplicationContext context;

    @Test
    void shouldAttributeARequestFromLoopbackToTheForwardedClient() {
        Api api = api();
        Api.Response signup = api.sendRaw(
                "POST",
                "/api/v1/auth/signup",
                HttpRequest.BodyPublishers.ofString(Api.JSON.writeValueAsString(Map.of(
                        "email",
                        "forwarded-" + UUID.randomUUID() + "@example.com",
                        "password",
                        "correct horse battery"))),
                Map.of("Content-Type", "application/json", "X-Forwarded-For", "198.51.100.7, 203.0.113.77"));
        assertThat(signup.status()).isEqualTo(201);

        JsonNode event = api.get("/api/v1/audit-events").json().get("events").get(0);
        assertThat(event.get("action").asString()).isEqualTo("customer.signed_up");
        assertThat(event.get("ip").asString()).isEqualTo("203.0.113.77");
    }

    @Test
    void shouldTrustLoopbackOnlyAsAProxy() throws UnknownHostException {
        TomcatWebServer server = (TomcatWebServer) context.getWebServer();
        RemoteIpValve valve = Arrays.stream(
                        server.getTomcat().getEngine().getPipeline().getValves())
                .filter(RemoteIpValve.class::isInstance)
                .map(RemoteIpValve.class::cast)
                .findFirst()
                .orElseThrow();
        NetMaskSet proxies = NetMaskSet.parse(valve.getInternalProxies());

        for (String loopback : new String[] {"127.0.0.1", "127.8.9.10", "0:0:0:0:0:0:0:1"}) {
            assertThat(proxies.contains(InetAddress.getByName(loopback)))
                    .as(loopback)
                    .isTrue();
        }
        for (String other : new String[] {
            "10.0.0.1", "192.168.1.1", "172.16.0.1", "169.254.1.1", "100.64.0.1", "fd00:0:0:0:0:0:0:1", "203.0.113.1"
        }) {
            assertThat(proxies.contains(InetAddress.getByName(other))).as(other).isFalse();
        }
    }
}
