package com.kvportal.apikey.limits;

import com.kvportal.account.OrganizationContacts;
import com.kvportal.apikey.ApiKey;
import com.kvportal.apikey.ApiKeyEvent;
import com.kvportal.apikey.StoredApiKeys;
import com.kvportal.apikey.limits.CreditLedger.CreditsNotice;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.mail.Mail;
import com.kvportal.mail.Mailer;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Turns a key's credits notice into {@link ApiKeyEvent.CreditsNoticed} (its audit line and outgoing event) and a mail
 * to the organization's owners and admins, in the transaction of the reservation that made it due: once per budget.
 */
@Component
@RequiredArgsConstructor
class CreditNotices {

    private final StoredApiKeys keys;
    private final OrganizationContacts contacts;
    private final Mailer mailer;
    private final AppBaseUrl baseUrl;
    private final ApplicationEventPublisher events;

    @EventListener
    void noticed(CreditsNotice notice) {
        keys.findWithOrganization(notice.keyId()).ifPresent(found -> {
            ApiKey key = found.key();
            events.publishEvent(new ApiKeyEvent.CreditsNoticed(
                    found.organizationId(),
                    key.projectId(),
                    key.id(),
                    key.name(),
                    notice.exhausted(),
                    notice.remaining()));
            String subject = notice.exhausted()
                    ? "API key " + key.name() + ": credits exhausted"
                    : "API key " + key.name() + ": credits low";
            String what = notice.exhausted()
                    ? "The credits of the API key " + key.name() + " are used up: its verifies are refused with"
                            + " credits_exhausted until its credits are topped up or refilled."
                    : "The API key " + key.name() + " has " + notice.remaining() + " credits left, 10 % or less of"
                            + " its last refill or top-up.";
            String next = "Top its credits up in the key editor (an update of credits replaces them), or wait for"
                    + " its next refill.";
            String link = baseUrl.resolve("/dashboard");
            for (String to : contacts.keyManagers(found.organizationId())) {
                mailer.send(new Mail(
                        to,
                        subject,
                        "notice",
                        Map.of(
                                "subject",
                                subject,
                                "what",
                                what,
                                "next",
                                next,
                                "linkLabel",
                                "Your API keys",
                                "link",
                                link)));
            }
        });
    }
}
