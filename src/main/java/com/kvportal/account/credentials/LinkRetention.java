package com.kvportal.account.credentials;

import com.kvportal.account.teams.Invitations;
import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.ScheduledRuns.Purge;
import java.time.Duration;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Deletes the links' tokens once they can do nothing more, every hour from a minute after start-up, so that each goes
 * within an hour of its expiry: verification, reset and email-change tokens (used or not) and invitations once they
 * have expired, and password reset requests once their hour no longer counts toward a limit. Any instance may run it;
 * the deletes are idempotent.
 */
@Component
@RequiredArgsConstructor
class LinkRetention implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(LinkRetention.class);

    private final AccountTokens tokens;
    private final Invitations invitations;
    private final PasswordResetRequests resetRequests;

    @Override
    public Schedule schedule() {
        return new Schedule("link-retention", Duration.ofMinutes(1), Duration.ofHours(1), this::purge);
    }

    void purge() {
        ScheduledRuns.purge(
                log,
                "Links",
                new Purge("expired tokens", tokens::deleteExpired),
                new Purge("expired invitations", invitations::deleteExpired),
                new Purge("past password reset requests", resetRequests::deleteExpired));
    }
}
