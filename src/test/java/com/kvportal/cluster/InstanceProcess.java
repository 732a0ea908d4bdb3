package com.kvportal.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The service as a separate operating-system process on a database of the test's choosing, so that a test can
 * {@code kill -9} it, or freeze it with {@code SIGSTOP}, as a crash or a long pause would.
 */
public final class InstanceProcess implements AutoCloseable {

    private final Process process;
    private final String base;
    private final Path log;

    private InstanceProcess(Process process, String base, Path log) {
        this.process = process;
        this.base = base;
        this.log = log;
    }

    /** Starts {@code com.kvportal.KvPortalApplication} from this JVM's class path; call {@link #awaitReady()}. */
    public static InstanceProcess start(String name, String databaseUrl, String... arguments) {
        return start(name, databaseUrl, Map.of(), arguments);
    }

    /** As {@link #start(String, String, String...)}, with these environment variables set as well. */
    public static InstanceProcess start(
            String name, String databaseUrl, Map<String, String> environment, String... arguments) {
        int port = freePort();
        Path log = Path.of("target", "service-processes", name + "-" + port + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "com.kvportal.KvPortalApplication",
                "--server.port=" + port,
                "--server.address=127.0.0.1",
                "--kvportal.database.pool-size=4",
                "--logging.level.root=warn"));
        command.addAll(List.of(arguments));
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .directory(new File(System.getProperty("java.io.tmpdir")));
            builder.environment().put("DATABASE_URL", databaseUrl);
            builder.environment().put("PORT", Integer.toString(port));
            builder.environment().putAll(environment);
            return new InstanceProcess(builder.start(), "http://127.0.0.1:" + port, log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts one instance of each name side by side on the database, and waits until every one is ready; stops them
     * all if one does not get ready.
     */
    public static List<InstanceProcess> startReady(String databaseUrl, String... names) {
        List<InstanceProcess> processes = new ArrayList<>();
        try {
            for (String name : names) {
                processes.add(start(name, databaseUrl));
            }
            processes.forEach(InstanceProcess::awaitReady);
            return processes;
        } catch (RuntimeException e) {
            processes.forEach(InstanceProcess::close);
            throw e;
        }
    }

    /** Closes each of these instances; a null one is one that was never started. */
    public static void closeAll(@Nullable InstanceProcess... processes) {
        for (InstanceProcess process : processes) {
            if (process != null) {
                process.close();
            }
        }
    }

    /** Waits until the instance answers its readiness probe. */
    public InstanceProcess awaitReady() {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service process exited; see " + log.toAbsolutePath());
            }
            try {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(URI.create(base + "/actuator/health/readiness"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return this;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            pause(200);
        }
        throw new IllegalStateException("the service process did not get ready; see " + log.toAbsolutePath());
    }

    public String baseUrl() {
        return base;
    }

    public long pid() {
        return process.pid();
    }

    /** {@code kill -9}: no shutdown hook, no lease released, connections left for the database to notice. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code SIGSTOP}: every thread of the instance freezes, as in a long garbage-collection pause. */
    public void freeze() {
        signal("-STOP");
    }

    /** {@code SIGCONT}: the frozen instance runs on, unaware of the time it lost. */
    public void thaw() {
        signal("-CONT");
    }

    /** Runs {@code work} while the instance is frozen, and thaws it whatever happens. */
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

    /** Stops the instance as an orchestrator would (SIGTERM), and kills it if it does not stop in time. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        thaw();
        process.destroy();
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
