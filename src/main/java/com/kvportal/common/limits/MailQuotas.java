package com.kvportal.common.limits;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * How much mail a request may make the service send to people who did not ask for it (invitations, links to a new
 * address): each message counts against one or more quotas, "at most {@code max} within {@code window}" over a
 * sliding window, counted in PostgreSQL ({@code mail_quota_events}) so that every instance, and one restarted,
 * enforces the same budget. A message is counted in the transaction that queues it, so a rolled-back change counts
 * nothing.
 */
@Component
@RequiredArgsConstructor
public class MailQuotas implements PeriodicJob {

    /**
     * At most {@code max} messages counted against {@code key} within {@code window}.
     *
     * @param refusal what the refusal says was too many, e.g. "Too many invitation mails to this address today"
     */
    public record Quota(String key, int max, Duration window, String refusal) {}

    private final JdbcClient jdbc;

    /**
     * Counts one message against every quota, or, when any of them is spent, against none.
     *
     * @throws TooManyRequests 429 with {@code Retry-After} (when the first spent quota has room again)
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void take(Quota... quotas) {
        Quota[] ordered = quotas.clone();
        // one at a time per quota, so that racing requests cannot slip past it together; always in the same order
        Arrays.sort(ordered, Comparator.comparing(Quota::key));
        for (Quota quota : ordered) {
            jdbc.sql("select pg_advisory_xact_lock(hashtext('mail-quota:' || ?))")
                    .param(quota.key())
                    .query()
                    .singleValue();
        }
        for (Quota quota : quotas) {
            refuseWhenSpent(quota);
        }
        for (Quota quota : quotas) {
            jdbc.sql("insert into mail_quota_events (quota, expires_at) values (?, now() + ? * interval '1 second')")
                    .params(quota.key(), quota.window().toSeconds())
                    .update();
        }
    }

    private void refuseWhenSpent(Quota quota) {
        // the oldest of the last max messages leaves the window first: then one more fits
        jdbc.sql(
                        """
                        select ceil(extract(epoch from expires_at - now()) * 1000)::bigint from mail_quota_events
                        where quota = ? and expires_at > now()
                        order by expires_at desc offset ? - 1 limit 1""")
                .params(quota.key(), quota.max())
                .query(Long.class)
                .optional()
                .ifPresent(millis -> {
                    throw new TooManyRequests(quota.refusal(), Duration.ofMillis(Math.max(millis, 1)));
                });
    }

    /** Every 10 minutes, from a minute after start-up. */
    @Override
    public Schedule schedule() {
        return new Schedule("mail-quotas-cleanup", Duration.ofMinutes(1), Duration.ofMinutes(10), this::forgetPast);
    }

    /** A message whose window has passed counts against nothing any more. */
    void forgetPast() {
        jdbc.sql("delete from mail_quota_events where expires_at <= now()").update();
    }
}
