package com.kvportal.common;

import com.kvportal.common.database.DatabaseProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The local tokens of a bare start: where the service runs on this machine alone (the embedded database, a loopback
 * base URL), the secrets a person would otherwise have to set by hand (the storage backend's {@code USAGE_API_TOKEN},
 * the metrics' {@code METRICS_TOKEN}) are generated when unset and written, with the sandbox's key {@code SK}, to
 * {@value #FILE_NAME} beside the embedded database's data directory ({@code ./data/local-tokens.env}, mode 0600, a
 * file a shell can source). That directory already holds the encryption key that opens every sealed secret, so the
 * file tells nobody anything its reader could not already learn. A generated token is kept in the file across
 * restarts; a configured one is never written; anywhere else (a server database, a public base URL) nothing is
 * generated or written.
 */
@Component
public class LocalTokens {

    public static final String FILE_NAME = "local-tokens.env";
    public static final String USAGE_API_TOKEN = "USAGE_API_TOKEN";
    public static final String METRICS_TOKEN = "METRICS_TOKEN";
    public static final String SANDBOX_KEY = "SK";

    private static final Logger log = LoggerFactory.getLogger(LocalTokens.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Pattern LINE = Pattern.compile("^([A-Z_]+)=([A-Za-z0-9_]+)$");
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final @Nullable Path file;
    private final Map<String, String> tokens = new LinkedHashMap<>();

    @Autowired
    LocalTokens(DatabaseProperties database, AppBaseUrl baseUrl) {
        this(
                database.url().isBlank() && baseUrl.isLoopback()
                        ? database.embeddedDataDir()
                                .toAbsolutePath()
                                .normalize()
                                .resolveSibling(FILE_NAME)
                        : null);
    }

    private LocalTokens(@Nullable Path file) {
        this.file = file;
        if (file != null) {
            tokens.putAll(read(file));
        }
    }

    /** No local tokens: what a start that is not bare has. */
    public static LocalTokens none() {
        return new LocalTokens((Path) null);
    }

    /**
     * The token a setting falls back to: the configured one if set; on a bare start the generated one (kept in the
     * file, made at the first start); elsewhere empty.
     */
    public String orGenerated(String name, String configured) {
        if (!configured.isBlank() || file == null) {
            forget(name);
            return configured;
        }
        synchronized (tokens) {
            String token = tokens.computeIfAbsent(name, n -> generate());
            write();
            return token;
        }
    }

    /** Writes a secret the service made itself (the sandbox's key) to the file, on a bare start only. */
    public void publish(String name, String value) {
        if (file == null) {
            return;
        }
        synchronized (tokens) {
            tokens.put(name, value);
            write();
        }
    }

    /** The file, on a bare start. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    private void forget(String name) {
        synchronized (tokens) {
            if (tokens.remove(name) != null) {
                write();
            }
        }
    }

    private void write() {
        if (file == null) {
            return;
        }
        StringBuilder text = new StringBuilder(
                "# kv-portal's local tokens of a bare start (docs/operations.md), for a shell: . ./data/"
                        + FILE_NAME
                        + "\n");
        tokens.forEach(
                (name, value) -> text.append(name).append('=').append(value).append('\n'));
        try {
            Files.createDirectories(file.getParent());
            Path partial = Files.createTempFile(
                    file.getParent(), FILE_NAME, ".new", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            try {
                Files.writeString(partial, text, StandardCharsets.US_ASCII);
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(partial);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the local tokens file " + file, e);
        }
        log.info(
                "The local tokens of this bare start ({}) are in {} (mode 0600)",
                String.join(", ", tokens.keySet()),
                file);
    }

    private static Map<String, String> read(Path file) {
        Map<String, String> read = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return read;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                Matcher m = LINE.matcher(line.strip());
                if (m.matches()) {
                    read.put(m.group(1), m.group(2));
                }
            }
            return read;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the local tokens file " + file, e);
        }
    }

    private static String generate() {
        StringBuilder token = new StringBuilder("local_");
        for (int i = 0; i < 32; i++) {
            token.append(BASE62.charAt(RANDOM.nextInt(BASE62.length())));
        }
        return token.toString();
    }
}
