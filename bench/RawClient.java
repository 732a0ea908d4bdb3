import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A second load generator for verify, to check wrk's latency figures with a client that shares none of its code:
 * CONNECTIONS threads, each a closed loop of raw HTTP/1.1 requests on its own keep-alive socket (reopened when the
 * server closes it), keys drawn at random from the first LIMIT lines of KEYS_FILE, every request built before the
 * clock starts. Prints throughput and latency percentiles, measured from the request's write to its response's last
 * byte.
 *
 * <p>Usage: {@code java bench/RawClient.java PORT KEYS_FILE LIMIT SECONDS CONNECTIONS}
 */
public class RawClient {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        List<String> keys = Files.readAllLines(Path.of(args[1]));
        int limit = Math.min(Integer.parseInt(args[2]), keys.size());
        long seconds = Long.parseLong(args[3]);
        int connections = Integer.parseInt(args[4]);
        byte[][] requests = new byte[limit][];
        for (int i = 0; i < limit; i++) {
            requests[i] = ("POST /api/v1/api-keys/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                            + keys.get(i) + "\r\nContent-Length: 0\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<long[]> latencies = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < connections; t++) {
            Thread thread = new Thread(() -> latencies.add(loop(port, requests, end)));
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        int n = all.length;
        System.out.printf(
                Locale.ROOT,
                "%d req/s  p50 %.2f ms  p99 %.2f ms  p99.9 %.2f ms  max %.1f ms  over 50 ms: %d%n",
                n / seconds,
                all[n / 2] / 1e6,
                all[(int) (n * 0.99)] / 1e6,
                all[(int) (n * 0.999)] / 1e6,
                all[n - 1] / 1e6,
                Arrays.stream(all).filter(v -> v > 50_000_000L).count());
    }

    private static long[] loop(int port, byte[][] requests, long end) {
        long[] latencies = new long[1 << 20];
        int n = 0;
        SplittableRandom random = new SplittableRandom();
        byte[] buffer = new byte[8192];
        try {
            while (System.nanoTime() < end) {
                try (Socket socket = new Socket("127.0.0.1", port)) {
                    socket.setTcpNoDelay(true);
                    OutputStream out = socket.getOutputStream();
                    InputStream in = socket.getInputStream();
                    boolean open = true;
                    while (open && System.nanoTime() < end && n < latencies.length) {
                        byte[] request = requests[random.nextInt(requests.length)];
                        long started = System.nanoTime();
                        out.write(request);
                        out.flush();
                        int read = 0;
                        int bodyStart = -1;
                        int contentLength = 0;
                        while (bodyStart < 0) {
                            int r = in.read(buffer, read, buffer.length - read);
                            if (r < 0) {
                                throw new EOFException("the server closed the connection mid-response");
                            }
                            read += r;
                            String head = new String(buffer, 0, read, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
                            int headEnd = head.indexOf("\r\n\r\n");
                            if (headEnd >= 0) {
                                bodyStart = headEnd + 4;
                                int at = head.indexOf("content-length:");
                                contentLength = Integer.parseInt(
                                        head.substring(at + 15, head.indexOf("\r\n", at)).trim());
                                open = !head.contains("connection: close");
                            }
                        }
                        for (int body = read - bodyStart; body < contentLength; ) {
                            int r = in.read(buffer, 0, buffer.length);
                            if (r < 0) {
                                throw new EOFException("the server closed the connection mid-body");
                            }
                            body += r;
                        }
                        latencies[n++] = System.nanoTime() - started;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Arrays.copyOf(latencies, n);
    }
}
