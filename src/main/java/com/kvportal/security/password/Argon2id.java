package com.kvportal.security.password;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Argon2id with OWASP's parameters for passwords (19 MiB of memory, 2 iterations, 1 lane; 16 bytes of salt, a
 * 32-byte hash), through Spring Security's encoder on BouncyCastle. Each hash holds its 19 MiB while it runs, so at
 * most as many run at once as there are processors (more would not finish sooner, they only add up memory); a burst of
 * logins waits its turn instead of filling the heap.
 */
final class Argon2id implements PasswordEncoder {

    static final int MEMORY_KIB = 19 * 1024;
    static final int ITERATIONS = 2;
    static final int PARALLELISM = 1;

    private final Argon2PasswordEncoder argon2 = new Argon2PasswordEncoder(16, 32, PARALLELISM, MEMORY_KIB, ITERATIONS);
    private final Semaphore running =
            new Semaphore(Math.max(2, Runtime.getRuntime().availableProcessors()), true);

    @Override
    public String encode(CharSequence rawPassword) {
        return bounded(() -> argon2.encode(rawPassword));
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        return bounded(() -> argon2.matches(rawPassword, encodedPassword));
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return argon2.upgradeEncoding(encodedPassword);
    }

    private <T> T bounded(Supplier<T> hashing) {
        running.acquireUninterruptibly();
        try {
            return hashing.get();
        } finally {
            running.release();
        }
    }
}
