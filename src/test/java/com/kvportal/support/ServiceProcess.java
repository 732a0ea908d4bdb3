package com.kvportal.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The service as a separate operating-system process ({@code java -cp <the test class path>
 * com.kvportal.KvPortalApplication}), for what a test JVM cannot do to itself: {@code kill -9}, SIGTERM, two
 * services on one data directory. Its output goes to a log file next to its data directory.
 */
public final class ServiceProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;
    private final Path dataDir;

    private ServiceProcess(Process process, int port, Path log, Path dataDir) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.dataDir = dataDir;
    }

    /** Launches the service on the embedded database in {@code dataDir}, without waiting for it. */
    public static ServiceProcess launch(Path dataDir, String... args) {
        try {
            int port = freePort();
            Path log = dataDir.resolveSibling(dataDir.getFileName() + "-" + port + ".log");
            List<String> command = new ArrayList<>(List.of(
                    java(),
                    "-Xmx384m",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    "com.kvportal.KvPortalApplication",
                    "--DATABASE_URL=",
                    "--kvportal.database.embedded-data-dir=" + dataDir,
                    "--kvportal.database.pool-size=4",
                    "--server.port=" + port,
                    "--server.address=127.0.0.1",
                    "--spring.main.banner-mode=off"));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().remove("DATABASE_URL");
            builder.environment().remove("STRIPE_SECRET_KEY");
            builder.environment().remove("SANDBOX");
            builder.environment().remove("SANDBOX_API_KEY");
            return new ServiceProcess(builder.start(), port, log, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every variable of the README's configuration table: a bare start has none of them. */
    private static final List<String> VARIABLES = List.of(
            "PORT",
            "APP_BASE_URL",
            "DATABASE_URL",
            "KVPORTAL_ENCRYPTION_KEYS",
            "STRIPE_SECRET_KEY",
            "STRIPE_PRICE_PRO",
            "PAYMENT_WEBHOOK_SECRET",
            "SANDBOX",
            "SANDBOX_API_KEY",
            "USAGE_API_TOKEN",
            "METRICS_TOKEN",
            "SMTP_URL",
            "MAIL_FROM",
            "SECRET_SCANNING_PUBLIC_KEYS");

    /**
     * Starts the service as {@code ./mvnw spring-boot:run} does on a fresh clone: in {@code workDir} (its data in
     * {@code workDir/data}), on the main class path alone (not the tests' settings), with none of the documented
     * variables set and no setting but a free port (so that it does not take 8080), and waits until it is ready.
     */
    public static ServiceProcess bare(Path workDir) {
        try {
            int port = freePort();
            Path log = workDir.resolveSibling(workDir.getFileName() + "-" + port + ".log");
            List<String> command = List.of(
                    java(),
                    "-Xmx384m",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-cp",
                    mainClassPath(),
                    "com.kvportal.KvPortalApplication",
                    "--server.port=" + port);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            VARIABLES.forEach(builder.environment()::remove);
            ServiceProcess service = new ServiceProcess(builder.start(), port, log, workDir.resolve("data/postgres"));
            service.awaitReady(Duration.ofSeconds(150));
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The class path without the tests' classes and resources (their config/application.yml sets tokens). */
    private static String mainClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static String java() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Launches the service and waits until its readiness probe says UP. */
    public static ServiceProcess start(Path dataDir, String... args) {
        ServiceProcess service = launch(dataDir, args);
        service.awaitReady(Duration.ofSeconds(150));
        return service;
    }

    public void awaitReady(Duration timeout) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "The service exited with " + process.exitValue() + " before it was ready:\n" + outputTail());
            }
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health/readiness"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(200);
        }
        throw new IllegalStateException("The service was not ready within " + timeout + ":\n" + outputTail());
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public Process process() {
        return process;
    }

    /** The embedded PostgreSQL's postmaster, as its {@code postmaster.pid} names it. */
    public Optional<ProcessHandle> postmaster() {
        try {
            Path pidFile = dataDir.resolve("postmaster.pid");
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            return ProcessHandle.of(
                    Long.parseLong(Files.readAllLines(pidFile).get(0).strip()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code kill -9} of the service alone: its PostgreSQL is left running, an orphan. */
    public void kill9() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(30));
    }

    /** {@code kill -9} of the service and of its PostgreSQL with every backend, at the same moment. */
    public void kill9WithDatabase() {
        Optional<ProcessHandle> postmaster = postmaster();
        List<ProcessHandle> victims = new ArrayList<>();
        postmaster.ifPresent(p -> {
            victims.add(p);
            p.descendants().forEach(victims::add);
        });
        process.destroyForcibly();
        victims.forEach(ProcessHandle::destroyForcibly);
        waitFor(Duration.ofSeconds(30));
        victims.forEach(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
    }

    /** SIGTERM, as a container runtime or systemd stops a service; answers the exit code. */
    public int terminate(Duration timeout) {
        process.destroy();
        return waitFor(timeout);
    }

    /** Waits for the service to exit by itself (e.g. a refused start) and answers the exit code. */
    public int awaitExit(Duration timeout) {
        return waitFor(timeout);
    }

    private int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("The service did not exit within " + timeout + ":\n" + outputTail());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    private String outputTail() {
        String output = output();
        return output.length() > 6000 ? output.substring(output.length() - 6000) : output;
    }

    /** Stops whatever is left: the service (SIGKILL if it does not stop) and its PostgreSQL. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
