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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The service as a separate operating-system process ({@code java -cp <the test class path>
 * com.kvportal.KvPortalApplication}), for what a test JVM cannot do to itself: {@code kill -9}, SIGTERM, {@code
 * SIGSTOP}, two services on one data directory, several instances on one database. The one way tests start the
 * service as a process, in three flavours: on an embedded database of its own ({@link #launch(Path, String...)}),
 * on a database the test gives ({@link #launch(String, String, Map, String...)}, the cluster tests), and as a fresh
 * clone starts it ({@link #bare(Path)}). Its output goes to a log file, named in every failure.
 */
public final class ServiceProcess implements AutoCloseable {

    /** Every variable of the README's configuration table: a bare start has none of them. */
    private static final List<String> VARIABLES = List.of(
            "PORT",
            "APP_BASE_URL",
            "DATABASE_URL",
            "KVPORTAL_ENCRYPTION_KEYS",
            "STRIPE_SECRET_KEY",
            "STRIPE_PRICE_PRO",
            "STRIPE_PRICE_TEAM",
            "TRIAL_DAYS",
            "PAYMENT_WEBHOOK_SECRET",
            "SANDBOX",
            "SANDBOX_API_KEY",
            "USAGE_API_TOKEN",
            "METRICS_TOKEN",
            "SMTP_URL",
            "MAIL_FROM",
            "SECRET_SCANNING_PUBLIC_KEYS");

    /** What a developer's shell may have set that would take a test's service off the payment sandbox. */
    private static final List<String> PAYMENT_VARIABLES =
            List.of("DATABASE_URL", "STRIPE_SECRET_KEY", "SANDBOX", "SANDBOX_API_KEY");

    private final Process process;
    private final int port;
    private final Path log;
    private final @Nullable Path dataDir;

    private ServiceProcess(Process process, int port, Path log, @Nullable Path dataDir) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.dataDir = dataDir;
    }

    /** Launches the service on the embedded database in {@code dataDir}, without waiting for it. */
    public static ServiceProcess launch(Path dataDir, String... args) {
        int port = freePort();
        List<String> settings = new ArrayList<>(List.of(
                "--DATABASE_URL=",
                "--kvportal.database.embedded-data-dir=" + dataDir,
                "--kvportal.database.pool-size=4",
                "--server.address=127.0.0.1",
                "--spring.main.banner-mode=off"));
        settings.addAll(List.of(args));
        return run(new Launch(
                "-Xmx384m",
                System.getProperty("java.class.path"),
                null,
                dataDir.resolveSibling(dataDir.getFileName() + "-" + port + ".log"),
                dataDir,
                port,
                settings,
                PAYMENT_VARIABLES,
                Map.of()));
    }

    /**
     * Launches one instance, named {@code name} in its log ({@code target/service-processes/<name>-<port>.log}), on
     * the database at {@code databaseUrl}, without waiting for it ({@link #awaitReady()}): several of them on one
     * database are a cluster.
     */
    public static ServiceProcess launch(String name, String databaseUrl, String... args) {
        return launch(name, databaseUrl, Map.of(), args);
    }

    /** As {@link #launch(String, String, String...)}, with these environment variables set as well. */
    public static ServiceProcess launch(
            String name, String databaseUrl, Map<String, String> environment, String... args) {
        int port = freePort();
        Path log = Path.of("target", "service-processes", name + "-" + port + ".log");
        try {
            Files.createDirectories(log.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> settings = new ArrayList<>(
                List.of("--server.address=127.0.0.1", "--kvportal.database.pool-size=4", "--logging.level.root=warn"));
        settings.addAll(List.of(args));
        Map<String, String> variables = new HashMap<>(environment);
        variables.put("DATABASE_URL", databaseUrl);
        variables.put("PORT", Integer.toString(port));
        return run(new Launch(
                "-Xmx256m",
                System.getProperty("java.class.path"),
                Path.of(System.getProperty("java.io.tmpdir")),
                log,
                null,
                port,
                settings,
                PAYMENT_VARIABLES,
                variables));
    }

    /**
     * Launches one instance of each name side by side on the database and waits until every one is ready; stops
     * them all if one does not get ready.
     */
    public static List<ServiceProcess> startReady(String databaseUrl, String... names) {
        List<ServiceProcess> processes = new ArrayList<>();
        try {
            for (String name : names) {
                processes.add(launch(name, databaseUrl));
            }
            processes.forEach(ServiceProcess::awaitReady);
            return processes;
        } catch (RuntimeException e) {
            processes.forEach(ServiceProcess::close);
            throw e;
        }
    }

    /** Closes each of these processes; a null one is one that was never started. */
    public static void closeAll(@Nullable ServiceProcess... processes) {
        for (ServiceProcess process : processes) {
            if (process != null) {
                process.close();
            }
        }
    }

    /**
     * Starts the service as {@code ./mvnw spring-boot:run} does on a fresh clone: in {@code workDir} (its data in
     * {@code workDir/data}), on the main class path alone (not the tests' settings), with none of the documented
     * variables set and no setting but a free port (so that it does not take 8080), and waits until it is ready.
     */
    public static ServiceProcess bare(Path workDir) {
        int port = freePort();
        ServiceProcess service = run(new Launch(
                "-Xmx384m",
                mainClassPath(),
                workDir,
                workDir.resolveSibling(workDir.getFileName() + "-" + port + ".log"),
                workDir.resolve("data/postgres"),
                port,
                List.of(),
                VARIABLES,
                Map.of()));
        service.awaitReady(Duration.ofSeconds(150));
        return service;
    }

    /**
     * How one process is started: its heap, class path, working directory (null: this JVM's), log, embedded data
     * directory (null: a database of the test's), port, settings after the port, and its environment (this JVM's,
     * less {@code removed}, plus {@code added}).
     */
    private record Launch(
            String heap,
            String classPath,
            @Nullable Path workDir,
            Path log,
            @Nullable Path dataDir,
            int port,
            List<String> settings,
            List<String> removed,
            Map<String, String> added) {}

    /** The one place that builds the command line and starts the process. */
    private static ServiceProcess run(Launch launch) {
        List<String> command = new ArrayList<>(List.of(
                java(),
                launch.heap(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                launch.classPath(),
                "com.kvportal.KvPortalApplication",
                "--server.port=" + launch.port()));
        command.addAll(launch.settings());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(launch.log().toFile()));
        if (launch.workDir() != null) {
            builder.directory(launch.workDir().toFile());
        }
        launch.removed().forEach(builder.environment()::remove);
        builder.environment().putAll(launch.added());
        try {
            return new ServiceProcess(builder.start(), launch.port(), launch.log(), launch.dataDir());
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

    /** Waits up to 3 minutes until its readiness probe says UP (a cluster's instances start side by side). */
    public ServiceProcess awaitReady() {
        awaitReady(Duration.ofMinutes(3));
        return this;
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

    public long pid() {
        return process.pid();
    }

    /** The embedded PostgreSQL's postmaster, as its {@code postmaster.pid} names it; none on a test's database. */
    public Optional<ProcessHandle> postmaster() {
        if (dataDir == null) {
            return Optional.empty();
        }
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

    /** {@code SIGSTOP}: every thread of the service freezes, as in a long garbage-collection pause. */
    public void freeze() {
        signal("-STOP");
    }

    /** {@code SIGCONT}: the frozen service runs on, unaware of the time it lost. */
    public void thaw() {
        signal("-CONT");
    }

    /** Runs {@code work} while the service is frozen, and thaws it whatever happens. */
    public <T> T whileFrozen(Supplier<T> work) {
        freeze();
        try {
            return work.get();
        } finally {
            thaw();
        }
    }

    private void signal(String signal) {
        try {
            int exit = new ProcessBuilder("kill", signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill " + signal + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
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

    /** Stops whatever is left (a frozen service is thawed first): SIGTERM, and SIGKILL if it does not stop. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                thaw();
            } catch (IllegalStateException exitedMeanwhile) {
                // nothing left to thaw
            }
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

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
