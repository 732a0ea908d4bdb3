package com.kvportal.usage.alerts;

import com.kvportal.account.Accounts;
import com.kvportal.account.Organization;
import com.kvportal.account.OrganizationContacts;
import com.kvportal.billing.Entitlement;
import com.kvportal.billing.OrganizationPlans;
import com.kvportal.billing.Plan;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.mail.Mail;
import com.kvportal.mail.Mailer;
import com.kvportal.usage.UsageEvent.UsageAlertRaised;
import com.kvportal.usage.UsageLimits;
import com.kvportal.usage.WriteRefusal;
import com.kvportal.usage.alerts.AlertState.Step;
import com.kvportal.usage.limits.StoredLimits;
import com.kvportal.usage.reporting.StoredSamples;
import com.kvportal.usage.standing.UsageReading;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import lombok.RequiredArgsConstructor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Usage alerts: a crossed threshold, writes refused, writes allowed again. An evaluation holds the
 * organization's alert state row, reads its storage, plan and limits as committed now, and in the same transaction
 * moves the state on, mails the owners and billing members (through the outbox) and publishes
 * {@link UsageAlertRaised} (the audit line; outgoing webhooks). Any instance may evaluate any organization at any
 * time: a second evaluation of the same storage finds nothing new, so no alert is sent twice, and one rolled back
 * (a crash) leaves the state as it was for the next evaluation, so none is lost.
 */
@Service
@RequiredArgsConstructor
public class UsageAlerts {

    /** Where the mails link to: the billing page's limits and alerts. */
    static final String LIMITS_PAGE = "/dashboard/billing#limits";

    private final StoredAlertStates states;
    private final StoredSamples samples;
    private final StoredLimits limits;
    private final OrganizationPlans plans;
    private final UsageReading reading;
    private final Accounts accounts;
    private final OrganizationContacts contacts;
    private final Mailer mailer;
    private final AppBaseUrl baseUrl;
    private final ApplicationEventPublisher events;

    /** Evaluates the organization's storage against its thresholds and caps; raises what is due, once. */
    @Transactional
    public void evaluate(UUID organizationId) {
        AlertState state = states.lock(organizationId).orElse(null);
        if (state == null) {
            return;
        }
        long used = samples.currentOf(organizationId);
        Entitlement entitlement = plans.entitlement(organizationId);
        Plan plan = entitlement.plan();
        UsageLimits limit = limits.of(organizationId);
        Long overageCap = limit.overageCapCents();
        long projectedCents = overageCap != null && overageCap > 0 && entitlement.billsOverage()
                ? reading.projectedOverage(organizationId).amountCents()
                : 0;
        WriteRefusal refusal = WriteRefusal.of(entitlement, used, limit, projectedCents);
        Step step = state.next(limit.alertThresholdsPercent(), plan.storageBytes(), used, refusal);
        if (step.next().equals(state)) {
            return;
        }
        states.save(organizationId, step.next());
        String name =
                accounts.organization(organizationId).map(Organization::name).orElse("Your organization");
        String link = baseUrl.resolve(LIMITS_PAGE);
        for (int percent : step.crossed()) {
            raise(
                    new UsageAlertRaised.ThresholdCrossed(organizationId, percent, used),
                    to -> AlertMail.thresholdCrossed(to, name, percent, used, plan, link));
        }
        if (step.writes() == AlertState.WritesChange.REFUSED && refusal != null) {
            raise(
                    new UsageAlertRaised.WritesRefused(organizationId, refusal, used),
                    to -> AlertMail.writesRefused(to, name, refusal, used, plan, limit, link));
        } else if (step.writes() == AlertState.WritesChange.ALLOWED) {
            raise(
                    new UsageAlertRaised.WritesAllowed(organizationId, used),
                    to -> AlertMail.writesAllowed(to, name, used, link));
        }
    }

    private void raise(UsageAlertRaised alert, Function<String, Mail> mail) {
        List<String> recipients = contacts.billing(alert.organizationId());
        for (String to : recipients) {
            mailer.send(mail.apply(to));
        }
        events.publishEvent(alert);
    }
}
