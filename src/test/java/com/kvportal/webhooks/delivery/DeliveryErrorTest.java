package com.kvportal.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.webhooks.WebhookDeliveryTest;
import io.swagger.v3.oas.annotations.media.Schema;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Why an attempt got no answer, as the client tells it, against real sockets on 127.0.0.1 that misbehave in one way
 * each. (Timeouts, refused and closed connections are pinned end to end by {@link WebhookDeliveryTest}.)
 */
class DeliveryErrorTest {

    final WebhookClient client =
            new WebhookClient(new TargetPolicy(TargetPolicyTest.settings(true)), TargetPolicyTest.settings(true));

    @AfterEach
    void stopClient() {
        client.destroy();
    }

    @Test
    void shouldDocumentEveryCodeOfTheVocabularyAndNoOther() throws Exception {
        Schema schema = Delivery.class.getDeclaredField("lastError").getAnnotation(Schema.class);

        assertThat(schema.allowableValues())
                .containsExactly(Arrays.stream(DeliveryError.values())
                        .map(DeliveryError::code)
                        .toArray(String[]::new));
    }

    @Test
    void shouldTellAHostNameThatDoesNotResolve() {
        // .invalid never resolves (RFC 6761)
        assertFailed("https://hooks.example.invalid/in", DeliveryError.DNS);
    }

    @Test
    void shouldTellAnAnswerThatIsNotHttp() throws Exception {
        try (ServerSocket server = answering("SSH-2.0-OpenSSH_9.6\r\n\r\n")) {
            assertFailed(url("http", server), DeliveryError.INVALID_RESPONSE);
        }
    }

    @Test
    void shouldTellAFailedTlsHandshake() throws Exception {
        // a plain HTTP server behind an https:// URL: what comes back is no TLS
        try (ServerSocket server = answering("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")) {
            assertFailed(url("https", server), DeliveryError.TLS);
        }
    }

    @Test
    void shouldTellARefusedConnection() throws Exception {
        String url;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            url = url("http", closed);
        }

        WebhookClient.Outcome outcome = assertFailed(url, DeliveryError.CONNECTION_REFUSED);
        assertThat(outcome.detail()).contains("Connection refused");
    }

    /** Posts to {@code url} and asserts that the attempt failed with {@code error}, without an HTTP status. */
    private WebhookClient.Outcome assertFailed(String url, DeliveryError error) {
        WebhookClient.Outcome outcome = client.post(url, Map.of(), new byte[0]);
        assertThat(outcome.status()).isNull();
        assertThat(outcome.error()).isEqualTo(error);
        return outcome;
    }

    /** A server on 127.0.0.1 that writes {@code answer} to every connection, then closes it. */
    private static ServerSocket answering(String answer) throws IOException {
        ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    OutputStream out = socket.getOutputStream();
                    out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    Thread.sleep(200);
                } catch (IOException | InterruptedException closed) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        return server;
    }

    private static String url(String scheme, ServerSocket server) {
        return scheme + "://127.0.0.1:" + server.getLocalPort() + "/hooks";
    }
}
