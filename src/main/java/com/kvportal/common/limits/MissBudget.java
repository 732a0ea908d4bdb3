package com.kvportal.common.limits;

import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Per client address, how many lookups that find nothing may reach the database ({@code kvportal.limits.key-misses-*}):
 * a flood of made-up keys that pass the checksum would otherwise cost a query each and take the connection pool. A
 * lookup takes a token before it goes to the database and gives it back when it finds something, so known keys never
 * spend the budget; once it is spent, the address's lookups that memory cannot answer are refused with 429 until it
 * refills. Counted in memory, per instance (a database budget would cost the very round trip it saves).
 */
@Component
public class MissBudget {

    private final LocalBuckets buckets;

    MissBudget(LimitProperties settings) {
        this.buckets = new LocalBuckets(settings.keyMissesPerAddress(), settings.keyMissWindow());
    }

    /**
     * Runs {@code database} on the budget of {@code client}.
     *
     * @throws TooManyRequests when the client has no lookup left that may find nothing
     */
    public <T> Optional<T> lookUp(String client, Supplier<Optional<T>> database) {
        buckets.take(client).ifPresent(wait -> {
            throw new TooManyRequests(wait);
        });
        Optional<T> found;
        try {
            found = database.get();
        } catch (RuntimeException e) {
            buckets.giveBack(client);
            throw e;
        }
        if (found.isPresent()) {
            buckets.giveBack(client);
        }
        return found;
    }
}
