package com.kvportal.apikey.limits;

import com.kvportal.common.database.Sql;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL that sets a key's rate limits and credits (in the transaction of a create, update or roll). */
@Repository
@RequiredArgsConstructor
public class KeyLimitsStore {

    private final JdbcClient jdbc;

    public void setRatelimits(UUID keyId, List<RateLimit> ratelimits) {
        if (ratelimits.isEmpty()) {
            jdbc.sql("delete from api_key_ratelimits where key_id = ?")
                    .param(keyId)
                    .update();
            return;
        }
        jdbc.sql(
                        """
                        insert into api_key_ratelimits (key_id, ratelimits) values (?, ?::jsonb)
                        on conflict (key_id) do update set ratelimits = excluded.ratelimits""")
                .params(keyId, LimitColumns.json(ratelimits))
                .update();
    }

    /**
     * Sets (or, null, removes) a key's credits. A new budget replaces the old one: a new generation, so that what
     * instances set aside of the old budget is void (they drop it when they reload the key), and the notices of low
     * and exhausted credits are due again.
     */
    public void setCredits(UUID keyId, @Nullable Credits credits, Instant now) {
        if (credits == null) {
            jdbc.sql("delete from api_key_credits where key_id = ?")
                    .param(keyId)
                    .update();
            return;
        }
        Credits.Refill refill = credits.refill();
        jdbc.sql(
                        """
                        insert into api_key_credits (key_id, remaining, generation, basis, refill_amount,
                            refill_interval, refill_day, next_refill_at)
                        values (:key, :remaining, 1, :remaining, :amount, :interval, :day, :next)
                        on conflict (key_id) do update set remaining = excluded.remaining,
                            generation = api_key_credits.generation + 1, basis = excluded.basis,
                            refill_amount = excluded.refill_amount, refill_interval = excluded.refill_interval,
                            refill_day = excluded.refill_day, next_refill_at = excluded.next_refill_at,
                            low_notified = false, exhausted_notified = false""")
                .param("key", keyId)
                .param("remaining", credits.remainingValue())
                .param("amount", refill == null ? null : refill.amountValue())
                .param("interval", refill == null ? null : refill.interval().wire())
                .param("day", refill == null ? null : refill.day())
                .param("next", refill == null ? null : Sql.timestamp(refill.nextAfter(now)))
                .update();
    }

    /**
     * A roll: the new key takes the old one's rate limits and its credits as they stand at the key (with its
     * refill); the old key, working on through its grace, keeps its rate limits and is left without credits to
     * spend (remaining 0, a new generation), so that the two never spend one budget twice.
     */
    public void copyForRoll(UUID from, UUID to) {
        jdbc.sql(
                        """
                        insert into api_key_ratelimits (key_id, ratelimits)
                        select ?, ratelimits from api_key_ratelimits where key_id = ?""")
                .params(to, from)
                .update();
        jdbc.sql(
                        """
                        insert into api_key_credits (key_id, remaining, generation, basis, refill_amount,
                            refill_interval, refill_day, next_refill_at, low_notified, exhausted_notified)
                        select ?, remaining, 1, basis, refill_amount, refill_interval, refill_day, next_refill_at,
                            low_notified, exhausted_notified
                        from api_key_credits where key_id = ? for update""")
                .params(to, from)
                .update();
        jdbc.sql(
                        """
                        update api_key_credits set remaining = 0, generation = generation + 1, refill_amount = null,
                            refill_interval = null, refill_day = null, next_refill_at = null
                        where key_id = ?""")
                .param(from)
                .update();
    }
}
