package com.kvportal.sandbox.customer;

import com.kvportal.sandbox.events.SandboxEvents;
import com.kvportal.sandbox.invoice.StripeInvoices;
import com.kvportal.sandbox.store.CardOutcome;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.subscription.SubscriptionNews;
import com.stripe.model.Customer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The sandbox's customers, and the card their next charges meet (the sandbox's stand-in for payment methods). */
@Service
@RequiredArgsConstructor
public class StripeCustomers {

    private static final Set<String> CUSTOMER_PARAMETERS = Set.of("email", "name", "metadata");
    private static final Set<String> IGNORED_CUSTOMER_PARAMETERS =
            Set.of("description", "phone", "address", "preferred_locales", "invoice_settings", "shipping");

    private final SandboxObjects objects;
    private final StripeJson json;
    private final SandboxEvents events;
    private final StripeInvoices invoices;
    private final SubscriptionNews news;
    private final Clock clock;

    public Customer retrieve(String id) {
        return objects.customer(id).map(json::customer).orElseThrow(() -> StripeError.noSuch("customer", id, "id"));
    }

    @Transactional
    public Customer create(StripeParams params) {
        params.allowOnly(CUSTOMER_PARAMETERS, IGNORED_CUSTOMER_PARAMETERS);
        StoredCustomer customer = new StoredCustomer(
                StripeId.CUSTOMER.next(),
                params.email("email"),
                params.shortText("name"),
                StripeParams.merged(Map.of(), params.metadata("metadata")),
                CardOutcome.SUCCEEDED,
                now(),
                null);
        objects.insert(customer);
        Customer created = json.customer(customer);
        events.emit("customer.created", created);
        return created;
    }

    @Transactional
    public Customer update(String id, StripeParams params) {
        params.allowOnly(CUSTOMER_PARAMETERS, IGNORED_CUSTOMER_PARAMETERS);
        StoredCustomer customer = objects.lockCustomer(id).orElseThrow(() -> StripeError.noSuch("customer", id, "id"));
        Customer before = json.customer(customer);
        StoredCustomer updated = customer.withDetails(
                params.has("email") ? params.email("email") : customer.email(),
                params.has("name") ? params.shortText("name") : customer.name(),
                StripeParams.merged(customer.metadata(), params.metadata("metadata")));
        return events.emitIfChanged("customer.updated", before, json.customer(updated), () -> objects.update(updated));
    }

    /**
     * Sets the card the customer's next charges meet; a succeeding card also pays the open invoices at once and
     * brings past-due subscriptions back to active.
     */
    @Transactional
    public Map<String, Object> useCard(String customerId, CardOutcome card) {
        StoredCustomer customer = objects.lockCustomer(customerId)
                .orElseThrow(() -> StripeError.noSuch("customer", customerId, "customer"));
        objects.update(customer.withCard(card));
        List<String> paid = new ArrayList<>();
        List<String> reactivated = new ArrayList<>();
        if (card == CardOutcome.SUCCEEDED) {
            for (StoredInvoice invoice : objects.lockOpenInvoices(customerId)) {
                paid.add(invoices.markPaid(invoice).id());
            }
            for (StoredSubscription subscription : objects.lockPastDueSubscriptions(customerId)) {
                news.saveAndAnnounce(subscription, subscription.withStatus("active"));
                reactivated.add(subscription.id());
            }
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("object", "sandbox.card");
        answer.put("customer", customerId);
        answer.put("outcome", card.value());
        answer.put("paid_invoices", paid);
        answer.put("reactivated_subscriptions", reactivated);
        return answer;
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
