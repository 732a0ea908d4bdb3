package com.kvportal.billing.checkout;

import com.kvportal.account.Accounts;
import com.kvportal.account.Organization;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.billing.subscription.BillingAccount;
import com.kvportal.billing.subscription.BillingAccounts;
import com.kvportal.billing.subscription.PerOrganization;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** Each organization's one customer at the provider, made on its first checkout and reused after. */
@Component
@RequiredArgsConstructor
class ProviderCustomers {

    private static final Logger log = LoggerFactory.getLogger(ProviderCustomers.class);

    private static final PerOrganization CUSTOMER_CREATION = new PerOrganization(64);

    private final BillingAccounts billingAccounts;
    private final StripeGateway gateway;
    private final Accounts accounts;

    /**
     * The organization's provider customer, made now if it has none. No database connection is held while the
     * provider is called (the sandbox answers from this very service and pool), so the guards are: one creation
     * at a time per organization in this instance, an idempotency key of the organization at the provider (a
     * concurrent or retried create from any instance answers the same customer), and the primary key of
     * billing_accounts, which keeps the first link if two instances race.
     *
     * @param customerId our customer who asks (the account names them)
     */
    ProviderCustomerId of(UUID organizationId, UUID customerId) {
        Optional<BillingAccount> existing = billingAccounts.find(organizationId);
        if (existing.isPresent()) {
            return existing.get().providerCustomerId();
        }
        return CUSTOMER_CREATION.oneAtATime(organizationId, () -> {
            Optional<BillingAccount> linked = billingAccounts.find(organizationId);
            if (linked.isPresent()) {
                return linked.get().providerCustomerId();
            }
            Organization organization = accounts.organization(organizationId)
                    .orElseThrow(() -> new IllegalStateException(
                            "organization " + organizationId + " of a signed-in caller does not exist"));
            // a provider failure throws here, before anything is recorded
            ProviderCustomerId created =
                    gateway.createCustomer(organizationId, organization.ownerEmail(), organization.name());
            billingAccounts.insertIfAbsent(new BillingAccount(organizationId, created, customerId));
            BillingAccount stored = billingAccounts
                    .find(organizationId)
                    .orElseThrow(() -> new IllegalStateException(
                            "provider customer " + created + " is linked to another organization"));
            if (stored.providerCustomerId().equals(created)) {
                log.info("Organization {} has provider customer {}", organizationId, created);
            } else {
                log.warn(
                        "Organization {} keeps provider customer {}; {} was made concurrently and is unused",
                        organizationId,
                        stored.providerCustomerId(),
                        created);
            }
            return stored.providerCustomerId();
        });
    }
}
