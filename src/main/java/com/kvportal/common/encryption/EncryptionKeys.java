package com.kvportal.common.encryption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the keys come from: {@code KVPORTAL_ENCRYPTION_KEYS}, or, with the embedded database and nothing configured,
 * {@value #FILE_NAME} beside its data directory (generated at the first start, mode 0600, never inside the
 * database). With {@code DATABASE_URL} and nothing configured there is no place to keep a key: the start is refused.
 * The key file takes the variable's format, one key a line ({@code #} starts a comment).
 */
final class EncryptionKeys {

    static final String VARIABLE = "KVPORTAL_ENCRYPTION_KEYS";
    static final String FILE_NAME = "encryption.key";
    static final int KEY_BYTES = 32;

    private static final Logger log = LoggerFactory.getLogger(EncryptionKeys.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private EncryptionKeys() {}

    /**
     * The keys, the sealing one first.
     *
     * @param configured {@code KVPORTAL_ENCRYPTION_KEYS}
     * @param embeddedDataDir the embedded database's data directory; null with {@code DATABASE_URL}
     */
    static List<byte[]> resolve(String configured, @org.jspecify.annotations.Nullable Path embeddedDataDir) {
        if (!configured.isBlank()) {
            return parse(configured, VARIABLE);
        }
        if (embeddedDataDir == null) {
            throw new EncryptionRefused(
                    "DATABASE_URL is set but " + VARIABLE + " is not: there is no key to encrypt the stored secrets"
                            + " with, and it must not live in the database.",
                    EncryptionRefused.MAKE_A_KEY);
        }
        return parse(
                readOrCreate(keyFile(embeddedDataDir)), keyFile(embeddedDataDir).toString());
    }

    /** Beside the embedded database's data directory: {@code ./data/postgres} keeps its key in {@code ./data}. */
    static Path keyFile(Path embeddedDataDir) {
        return embeddedDataDir.toAbsolutePath().normalize().resolveSibling(FILE_NAME);
    }

    /** Keys separated by commas or line breaks; {@code where} names their source in a refusal, never a key. */
    static List<byte[]> parse(String text, String where) {
        List<byte[]> keys = new ArrayList<>();
        String[] entries = text.lines()
                .map(String::strip)
                .filter(line -> !line.startsWith("#"))
                .flatMap(line -> Arrays.stream(line.split(",")))
                .map(String::strip)
                .filter(entry -> !entry.isEmpty())
                .toArray(String[]::new);
        for (int i = 0; i < entries.length; i++) {
            String which = entries.length == 1 ? "The key" : "Key " + (i + 1) + " of " + entries.length;
            byte[] key;
            try {
                key = Base64.getDecoder().decode(entries[i]);
            } catch (IllegalArgumentException e) {
                throw new EncryptionRefused(
                        which + " in " + where + " is not base64.",
                        "Each key is the base64 of 32 random bytes, keys separated by commas. "
                                + EncryptionRefused.MAKE_A_KEY);
            }
            if (key.length != KEY_BYTES) {
                throw new EncryptionRefused(
                        which + " in " + where + " is " + key.length + " bytes long, not " + KEY_BYTES + ".",
                        "Each key is the base64 of 32 random bytes (AES-256). " + EncryptionRefused.MAKE_A_KEY);
            }
            for (byte[] earlier : keys) {
                if (Arrays.equals(earlier, key)) {
                    throw new EncryptionRefused(
                            which + " in " + where + " repeats an earlier one.", "List each key once.");
                }
            }
            keys.add(key);
        }
        if (keys.isEmpty()) {
            throw new EncryptionRefused(where + " holds no key.", EncryptionRefused.MAKE_A_KEY);
        }
        return keys;
    }

    /**
     * The key file's text, made at the first start: written in full to a file of its own, then linked into place, so
     * that neither a crash nor a second process ever leaves a partial or a replaced key.
     */
    private static String readOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            warnIfOpen(file);
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read or create the encryption key file " + file, e);
        }
    }

    private static void create(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        String text = "# kv-portal's encryption key (" + VARIABLE + " format): it opens the secrets stored in the"
                + " database. Back it up apart from the database; never put it in there.\n"
                + Base64.getEncoder().encodeToString(key) + "\n";
        Path partial = Files.createTempFile(
                file.getParent(), FILE_NAME, ".new", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            Files.setPosixFilePermissions(partial, OWNER_ONLY);
            Files.writeString(partial, text, StandardCharsets.US_ASCII);
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.createLink(file, partial);
            log.warn(
                    "Generated the encryption key {} (mode 0600): it opens the secrets stored in the database."
                            + " Back it up apart from the database; without it two-step login must be set up again"
                            + " and webhook signing secrets rolled.",
                    file);
        } catch (FileAlreadyExistsException e) {
            // another process made it first: its key is the one
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static void warnIfOpen(Path file) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (!OWNER_ONLY.containsAll(permissions)) {
            log.warn(
                    "The encryption key file {} is readable by others ({}): chmod 600 it",
                    file,
                    PosixFilePermissions.toString(permissions));
        }
    }
}
