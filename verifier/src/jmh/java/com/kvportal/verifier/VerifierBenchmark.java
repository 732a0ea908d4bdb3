package com.kvportal.verifier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Verifies a second in the holder's process, one thread (so per core): a key answered from the library's cache
 * (one key, and a working set of keys presented in turn), the SHA-256 of a key alone (the floor of a cached
 * verify), and the service's verify over HTTP as a backend calls it today (one request at a time, keep-alive). Run
 * by bench/verifier.sh against a running service; {@code keys} is a file of raw keys, one a line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@Threads(1)
public class VerifierBenchmark {

    @Param("http://127.0.0.1:8080")
    public String base;

    @Param("")
    public String token;

    @Param("")
    public String keys;

    private KeyVerifier verifier;
    private String[] raw;
    private HttpClient http;
    private HttpRequest oneKeyOverHttp;

    /** Which key of the working set is presented next, per thread. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Setup(Level.Trial)
    public void connect() throws IOException {
        verifier = KeyVerifier.connect(URI.create(base), token);
        List<String> lines = Files.readAllLines(Path.of(keys));
        raw = lines.subList(0, Integer.highestOneBit(lines.size())).toArray(String[]::new);
        // a new lease keeps answers only after its first two ttls: present the keys until every one is kept
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (verifier.cachedAnswers() < raw.length) {
            for (String key : raw) {
                if (!verifier.verify(key).valid()) {
                    throw new IllegalStateException("a benchmark key is refused: " + verifier.verify(key));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no lease: the keys are not kept, every verify would ask the service");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
        }
        http = HttpClient.newHttpClient();
        oneKeyOverHttp = HttpRequest.newBuilder(URI.create(base + "/api/v1/api-keys/verify"))
                .header("Authorization", "Bearer " + raw[0])
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    @TearDown(Level.Trial)
    public void close() {
        verifier.close();
    }

    @Benchmark
    public Verification cachedVerifyOneKey() {
        return verifier.verify(raw[0]);
    }

    @Benchmark
    public Verification cachedVerifyWorkingSet(Cursor cursor) {
        return verifier.verify(raw[cursor.next++ & (raw.length - 1)]);
    }

    @Benchmark
    public Digest sha256OfAKey() {
        return Digest.of(raw[0]);
    }

    @Benchmark
    public int httpVerify() throws IOException, InterruptedException {
        return http.send(oneKeyOverHttp, HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
