package com.kvportal.webhooks.delivery;

import com.kvportal.common.scheduling.BackgroundThreads;
import com.kvportal.webhooks.WebhookProperties;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * One POST of a delivery, over HTTP/1.1 on a socket of its own, made so that none of the usual clients' conveniences
 * can turn into an attack or an unlogged attempt:
 *
 * <ul>
 *   <li>the host is resolved once, every address it resolves to is checked ({@link TargetPolicy}), and the socket
 *       connects to that checked address; TLS then names the host (SNI) and checks its certificate against it, and
 *       {@code Host} names it too. A DNS answer that changes between check and connect (rebinding) cannot redirect
 *       the request;
 *   <li>no retry, no redirect followed (a 3xx is an answer that is not 2xx), no connection reuse;
 *   <li>{@code timeout} bounds the whole attempt (a deadline closes the socket, whatever the receiver trickles);
 *   <li>at most {@code response-body-cap} of the answer's body is read, then the connection is closed.
 * </ul>
 */
@Component
public class WebhookClient implements DisposableBean {

    private static final int MAX_HEAD_BYTES = 16 * 1024;
    private static final Pattern STATUS_LINE = Pattern.compile("^HTTP/1\\.[01] (\\d{3})(?: .*)?$");

    /**
     * What an attempt came to: the answer's status, or when none came, why ({@code error}, and the exception's own
     * words in {@code detail}, for the log only).
     */
    public record Outcome(
            @Nullable Integer status, long durationMs, @Nullable DeliveryError error, @Nullable String detail) {
        boolean delivered() {
            return status != null && status >= 200 && status < 300;
        }
    }

    /** A failure whose reason is known where it is thrown. */
    private static final class Failure extends IOException {
        private final DeliveryError error;

        Failure(DeliveryError error, String message) {
            super(message);
            this.error = error;
        }
    }

    private final TargetPolicy policy;
    private final Duration timeout;
    private final long bodyCap;
    private final ScheduledExecutorService deadlines =
            Executors.newSingleThreadScheduledExecutor(BackgroundThreads.named("webhook-deadlines"));

    WebhookClient(TargetPolicy policy, WebhookProperties properties) {
        this.policy = policy;
        this.timeout = properties.timeout();
        this.bodyCap = properties.responseBodyCap().toBytes();
    }

    Outcome post(String url, Map<String, String> headers, byte[] body) {
        long started = System.nanoTime();
        try {
            Integer status = exchange(URI.create(url), headers, body, started);
            return new Outcome(status, elapsedMs(started), null, null);
        } catch (IOException | RuntimeException | NoSuchAlgorithmException e) {
            String why = e.getClass().getSimpleName() + ": " + e.getMessage();
            DeliveryError error = reason(e, remainingMs(started) <= 0);
            return new Outcome(null, elapsedMs(started), error, why.replaceAll("\\s+", " "));
        }
    }

    /**
     * Why an attempt failed: past the deadline, whatever broke (the deadline closes the socket) is a timeout; else
     * what the exception's type tells.
     */
    private static DeliveryError reason(Exception e, boolean pastDeadline) {
        if (e instanceof Failure failure) {
            return failure.error;
        }
        if (pastDeadline || e instanceof SocketTimeoutException) {
            return DeliveryError.TIMEOUT;
        }
        if (e instanceof UnknownHostException) {
            return DeliveryError.DNS;
        }
        if (e instanceof ConnectException && String.valueOf(e.getMessage()).contains("refused")) {
            return DeliveryError.CONNECTION_REFUSED;
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException) {
            return DeliveryError.UNREACHABLE;
        }
        if (e instanceof SSLException) {
            return DeliveryError.TLS;
        }
        return e instanceof SocketException ? DeliveryError.CONNECTION_CLOSED : DeliveryError.NETWORK;
    }

    private Integer exchange(URI uri, Map<String, String> headers, byte[] body, long started)
            throws IOException, NoSuchAlgorithmException {
        Optional<String> refused = policy.formRefusal(uri);
        if (refused.isPresent()) {
            throw new Failure(DeliveryError.TARGET_REFUSED, "URL " + refused.get());
        }
        boolean tls = uri.getScheme().equalsIgnoreCase("https");
        String host = TargetPolicy.host(uri);
        int port = uri.getPort() == -1 ? (tls ? 443 : 80) : uri.getPort();
        InetAddress[] resolved = InetAddress.getAllByName(host);
        for (InetAddress address : resolved) {
            if (!policy.allowed(address)) {
                throw new Failure(
                        DeliveryError.TARGET_REFUSED,
                        host + " resolves to " + address.getHostAddress() + ", which is not a public address");
            }
        }
        InetAddress target = resolved[0];
        Socket plain = new Socket();
        ScheduledFuture<?> deadline =
                deadlines.schedule(() -> closeQuietly(plain), remainingMs(started), TimeUnit.MILLISECONDS);
        try (plain) {
            plain.connect(new InetSocketAddress(target, port), (int) Math.max(1, remainingMs(started)));
            if (!policy.allowed(plain.getInetAddress())) {
                throw new Failure(DeliveryError.TARGET_REFUSED, "connected to a non-public address");
            }
            Socket socket = tls ? secure(plain, host, port) : plain;
            socket.setSoTimeout((int) Math.max(1, remainingMs(started)));
            OutputStream out = socket.getOutputStream();
            out.write(head(uri, host, port, tls, headers, body.length).getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            int status;
            do {
                status = readHead(in);
            } while (status >= 100 && status < 200);
            drainBody(in, socket, started);
            return status;
        } finally {
            deadline.cancel(false);
        }
    }

    private static Socket secure(Socket plain, String host, int port) throws IOException, NoSuchAlgorithmException {
        SSLSocket ssl = (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket(plain, host, port, true);
        SSLParameters parameters = ssl.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!host.contains(":") && !host.matches("[0-9.]+")) {
            parameters.setServerNames(List.of(new SNIHostName(host)));
        }
        ssl.setSSLParameters(parameters);
        ssl.startHandshake();
        return ssl;
    }

    private static String head(URI uri, String host, int port, boolean tls, Map<String, String> headers, int length) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        String authority = host.contains(":") ? "[" + host + "]" : host;
        if (port != (tls ? 443 : 80)) {
            authority += ":" + port;
        }
        StringBuilder head = new StringBuilder()
                .append("POST ")
                .append(path)
                .append(" HTTP/1.1\r\nHost: ")
                .append(authority)
                .append("\r\nContent-Type: application/json\r\nContent-Length: ")
                .append(length)
                .append("\r\nUser-Agent: kv-portal-webhooks\r\nConnection: close\r\n");
        headers.forEach(
                (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        return head.append("\r\n").toString();
    }

    /** Reads a status line and headers (at most 16 KiB), and answers the status. */
    private static int readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new Failure(DeliveryError.CONNECTION_CLOSED, "connection closed before the answer's head ended");
            }
            head.write(b);
            if (head.size() > MAX_HEAD_BYTES) {
                throw new Failure(
                        DeliveryError.INVALID_RESPONSE, "answer's head longer than " + MAX_HEAD_BYTES + " bytes");
            }
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        String statusLine = text.substring(0, text.indexOf("\r\n"));
        Matcher matcher = STATUS_LINE.matcher(statusLine);
        if (!matcher.matches()) {
            throw new Failure(DeliveryError.INVALID_RESPONSE, "not an HTTP/1.x status line");
        }
        return Integer.parseInt(matcher.group(1));
    }

    /** Reads at most the cap of the body, within the deadline; the status is known already, so failures are moot. */
    private void drainBody(InputStream in, Socket socket, long started) {
        byte[] buffer = new byte[8192];
        long read = 0;
        try {
            socket.setSoTimeout((int) Math.max(1, Math.min(remainingMs(started), 1000)));
            while (read < bodyCap) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, bodyCap - read));
                if (n < 0) {
                    return;
                }
                read += n;
            }
        } catch (IOException e) {
            // the answer's status counts; what follows it is not ours to wait for
        }
    }

    private long remainingMs(long started) {
        return timeout.toMillis() - elapsedMs(started);
    }

    private static long elapsedMs(long started) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing after the deadline
        }
    }

    @Override
    public void destroy() {
        deadlines.shutdownNow();
    }
}
