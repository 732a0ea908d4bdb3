package com.kvportal.sandbox.portal;

import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredPortalSession;
import com.kvportal.sandbox.stripe.RedirectUrls;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import java.time.Clock;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The sandbox's customer portal sessions: the {@code url} that leads to its portal page. */
@Service
@RequiredArgsConstructor
public class StripePortalSessions {

    private final SandboxObjects objects;
    private final StripeJson json;
    private final Clock clock;
    private final RedirectUrls redirects;

    @Transactional
    public com.stripe.model.billingportal.Session create(StripeParams params) {
        params.allowOnly(Set.of("customer", "return_url"), Set.of("configuration", "locale", "on_behalf_of"));
        String customer = params.required("customer");
        if (objects.customer(customer).isEmpty()) {
            throw StripeError.noSuchParam("customer", customer, "customer");
        }
        StoredPortalSession session = new StoredPortalSession(
                StripeId.PORTAL_SESSION.next(), customer, redirects.param(params, "return_url"), now());
        objects.insert(session);
        return json.portalSession(session);
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
