package com.kvportal.apikey.limits;

import com.kvportal.common.database.Sql;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Credits at the key, in PostgreSQL: an instance sets a chunk aside ({@link #reserve}, one transaction) and gives
 * back what it did not use ({@link #giveBack}). A refill that is due is applied by whichever transaction meets it
 * first, under the row's lock: once.
 */
@Repository
@RequiredArgsConstructor
public class CreditLedger {

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final org.springframework.context.ApplicationEventPublisher events;

    /** Credits of a key reached a notice; published in the transaction of the reservation that made it due. */
    public record CreditsNotice(UUID keyId, boolean exhausted, long remaining) {}

    /** A notice that a reservation made due: credits low (10 % or less of the basis) or exhausted. */
    enum Notice {
        LOW,
        EXHAUSTED
    }

    /**
     * What a reservation set aside for this instance, and the key's credits after it.
     *
     * @param generation the budget the credits belong to: a chunk of an older one is void
     */
    record Reservation(
            long taken,
            long generation,
            long remainingAtKey,
            @Nullable Instant nextRefillAt,
            @Nullable Notice notice) {}

    /** Sets up to {@code chunk} credits aside; empty when the key has no credits (any more): unlimited. */
    Optional<Reservation> reserve(UUID keyId, long chunk, Instant now) {
        return Optional.ofNullable(transactions.execute(status -> reserveLocked(keyId, chunk, now)));
    }

    private @Nullable Reservation reserveLocked(UUID keyId, long chunk, Instant now) {
        Row row = jdbc.sql(
                        """
                        select remaining, generation, basis, refill_amount, refill_interval, refill_day,
                            next_refill_at, low_notified, exhausted_notified
                        from api_key_credits where key_id = ? for update""")
                .param(keyId)
                .query((rs, n) -> new Row(
                        rs.getLong("remaining"),
                        rs.getLong("generation"),
                        rs.getLong("basis"),
                        rs.getObject("refill_amount") == null
                                ? null
                                : Credits.Refill.of(
                                        rs.getLong("refill_amount"), rs.getString("refill_interval"), (Integer)
                                                rs.getObject("refill_day")),
                        Sql.nullableInstant(rs, "next_refill_at"),
                        rs.getBoolean("low_notified"),
                        rs.getBoolean("exhausted_notified")))
                .optional()
                .orElse(null);
        if (row == null) {
            return null;
        }
        boolean refilled = row.refill != null && row.nextRefillAt != null && !row.nextRefillAt.isAfter(now);
        if (refilled) {
            // a refill sets remaining to its amount: a new budget, the notices due again
            long amount = java.util.Objects.requireNonNull(row.refill).amountValue();
            row = new Row(amount, row.generation + 1, amount, row.refill, row.refill.nextAfter(now), false, false);
        }
        long taken = Math.min(chunk, row.remaining);
        long remaining = row.remaining - taken;
        boolean low = row.lowNotified || remaining * 10 <= row.basis;
        // exhausted: an instance found none left at the key (every credit spent, or set aside by instances that
        // will spend it); low: what is left at the key fell to 10 % of the last refill or top-up
        boolean exhausted = row.exhaustedNotified || row.remaining == 0;
        Notice notice =
                exhausted && !row.exhaustedNotified ? Notice.EXHAUSTED : low && !row.lowNotified ? Notice.LOW : null;
        if (taken > 0 || notice != null || refilled) {
            jdbc.sql(
                            """
                            update api_key_credits set remaining = ?, generation = ?, basis = ?, next_refill_at = ?,
                                low_notified = ?, exhausted_notified = ?
                            where key_id = ?""")
                    .params(
                            remaining,
                            row.generation,
                            row.basis,
                            Sql.timestamp(row.nextRefillAt),
                            low,
                            exhausted,
                            keyId)
                    .update();
        }
        if (notice != null) {
            // in the reservation's transaction: the notice's flag, its audit line, event and mail commit together
            events.publishEvent(new CreditsNotice(keyId, notice == Notice.EXHAUSTED, remaining));
        }
        return new Reservation(taken, row.generation, remaining, row.refill == null ? null : row.nextRefillAt, notice);
    }

    /** Returns unused credits of a chunk to the key, unless a top-up or refill has replaced its budget since. */
    void giveBack(UUID keyId, long generation, long unused) {
        jdbc.sql("update api_key_credits set remaining = remaining + ? where key_id = ? and generation = ?")
                .params(unused, keyId, generation)
                .update();
    }

    private record Row(
            long remaining,
            long generation,
            long basis,
            Credits.@Nullable Refill refill,
            @Nullable Instant nextRefillAt,
            boolean lowNotified,
            boolean exhaustedNotified) {}
}
