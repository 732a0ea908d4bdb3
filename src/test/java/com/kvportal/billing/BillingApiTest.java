package com.kvportal.billing;

import static com.kvportal.billing.StripePayloads.event;
import static com.kvportal.billing.StripePayloads.subscription;
import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Every answer of the billing endpoints that does not need the payment provider: credentials, validation,
 * conflicts, missing things, and tenant isolation. Subscriptions and invoices are set up through the signed
 * webhook, as the provider would.
 */
class BillingApiTest extends IntegrationTest {

    private static final String FREE_ID = "6b1e0c8a-0f5e-4d4e-9a51-2f0c3f1a0001";
    private static final String PRO_ID = "6b1e0c8a-0f5e-4d4e-9a51-2f0c3f1a0002";
    private static final String TEAM_ID = "6b1e0c8a-0f5e-4d4e-9a51-2f0c3f1a0003";

    private static final List<String> PORTAL_CALLS = List.of(
            "GET /api/v1/billing/subscription",
            "GET /api/v1/billing/invoices",
            "POST /api/v1/billing/checkout",
            "POST /api/v1/billing/portal",
            "POST /api/v1/billing/cancel");

    /** An organization with a provider customer and, via the webhook, a subscription and its paid invoice. */
    private ProviderCustomer subscribed(boolean cancelAtPeriodEnd) {
        ProviderCustomer org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ofDays(2));
        org.deliverOk(event(
                "customer.subscription.created", Instant.now(), org.subscription("active", null, cancelAtPeriodEnd)));
        org.deliverOk(event(
                "invoice.paid",
                Instant.now(),
                org.invoice("in_" + StripePayloads.random(), "paid", 2000, 2000, 1, org.periodStart())));
        return org;
    }

    private static Api.Response call(Api api, String call) {
        String[] parts = call.split(" ");
        if (parts[0].equals("GET")) {
            return api.get(parts[1]);
        }
        return parts[1].endsWith("/checkout") ? api.post(parts[1], Map.of("tier", "pro")) : api.post(parts[1]);
    }

    // --- plans ---

    /** A plan as {@code GET /api/v1/billing/plans} lists it (its trial aside). */
    private record ListedPlan(
            String id,
            String name,
            String tier,
            long storageBytes,
            long priceCents,
            long overageBytes,
            long overagePriceCents) {

        static ListedPlan of(JsonNode plan) {
            return new ListedPlan(
                    plan.get("id").asString(),
                    plan.get("name").asString(),
                    plan.get("tier").asString(),
                    plan.get("storage_bytes").asLong(),
                    plan.get("price_cents").asLong(),
                    plan.get("overage_bytes").asLong(),
                    plan.get("overage_price_cents").asLong());
        }
    }

    @Test
    void shouldListThePlansWithoutCredentialCheapestFirst() {
        Api.Response response = api().get("/api/v1/billing/plans");

        assertThat(response.status()).isEqualTo(200);
        JsonNode plans = response.json().get("plans");
        assertThat(plans.size()).isEqualTo(3);
        assertThat(ListedPlan.of(plans.get(0)))
                .isEqualTo(new ListedPlan(FREE_ID, "Free", "free", 1073741824L, 0, 0, 0));
        assertThat(ListedPlan.of(plans.get(1)))
                .isEqualTo(new ListedPlan(PRO_ID, "Pro", "pro", 107374182400L, 2000, 10737418240L, 200));
        assertThat(ListedPlan.of(plans.get(2)))
                .isEqualTo(new ListedPlan(TEAM_ID, "Team", "team", 1099511627776L, 10000, 107374182400L, 1500));
        for (JsonNode plan : plans) {
            assertThat(plan.get("trial_days").asInt())
                    .as("no trial without TRIAL_DAYS: " + plan)
                    .isZero();
        }
    }

    @Test
    void shouldListThePlansToASignedInCustomerToo() {
        Api session = signedUp();
        assertThat(session.get("/api/v1/billing/plans").status()).isEqualTo(200);
    }

    // --- credentials ---

    @Test
    void shouldAnswer401ToEveryPortalCallWithoutCredential() {
        for (String call : PORTAL_CALLS) {
            Api.Response response = call(api(), call);
            assertThat(response.status()).as(call + " " + response).isEqualTo(401);
            assertThat(response.code()).isEqualTo("unauthenticated");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        }
    }

    @Test
    void shouldAnswer401ToAnUnknownKey() {
        Api stranger = Api.withKey(baseUrl(), "kv_00000000000000000000000000000000");
        for (String call : PORTAL_CALLS) {
            assertThat(call(stranger, call).status()).as(call).isEqualTo(401);
        }
    }

    @Test
    void shouldAnswer403ToEveryPortalCallWithAKeyWithoutAdmin() {
        ProviderCustomer org = subscribed(false);
        Api writer = Api.withKey(baseUrl(), org.owner().createKey("ci", "write", "read"));
        for (String call : PORTAL_CALLS) {
            Api.Response response = call(writer, call);
            assertThat(response.status()).as(call + " " + response).isEqualTo(403);
            assertThat(response.code()).isEqualTo("insufficient_permissions");
        }
        assertThat(jdbc.sql("select cancel_at from subscriptions where provider_subscription_id = ?")
                        .param(org.subscriptionId())
                        .query(java.sql.Timestamp.class)
                        .optional())
                .isEmpty();
    }

    @Test
    void shouldAnswerAnAdminKeyLikeTheSession() {
        ProviderCustomer org = subscribed(false);
        Api admin = Api.withKey(baseUrl(), org.owner().createKey("automation", "admin"));

        Api.Response subscription = admin.get("/api/v1/billing/subscription");
        Api.Response invoices = admin.get("/api/v1/billing/invoices");

        assertThat(subscription.status()).isEqualTo(200);
        assertThat(subscription
                        .json()
                        .get("subscription")
                        .get("provider_subscription_id")
                        .asString())
                .isEqualTo(org.subscriptionId());
        assertThat(invoices.status()).isEqualTo(200);
        assertThat(invoices.json().get("invoices").size()).isOne();
    }

    @Test
    void shouldAnswer403WhenASessionDoesNotEchoTheCsrfToken() {
        Api session = signedUp();
        session.withoutCsrfEcho();
        for (String path : List.of("/api/v1/billing/portal", "/api/v1/billing/cancel")) {
            Api.Response response = session.post(path);
            assertThat(response.status()).as(path).isEqualTo(403);
            assertThat(response.code()).isEqualTo("csrf_failed");
        }
        Api.Response checkout = session.post("/api/v1/billing/checkout", Map.of("tier", "pro"));
        assertThat(checkout.status()).isEqualTo(403);
        assertThat(checkout.code()).isEqualTo("csrf_failed");
    }

    // --- subscription ---

    @ParameterizedTest(name = "{0} answers {1} {2}")
    @CsvSource({
        "GET /api/v1/billing/subscription, 404, subscription_not_found",
        "POST /api/v1/billing/cancel, 404, subscription_not_found",
        "POST /api/v1/billing/portal, 409, no_billing_account"
    })
    void shouldAnswerAnOrganizationThatNeverSubscribedThatItHasNoSubscriptionOrProviderCustomer(
            String call, int status, String code) {
        Api session = signedUp();

        assertProblem(call(session, call), status, code);
    }

    @Test
    void shouldShowTheSubscriptionWithEveryField() {
        ProviderCustomer org = subscribed(false);

        JsonNode subscription =
                org.owner().get("/api/v1/billing/subscription").json().get("subscription");

        assertThat(subscription.get("id").asString()).hasSize(36);
        assertThat(subscription.get("customer_id").asString())
                .isEqualTo(org.account().customerId().toString());
        assertThat(subscription.get("organization_id").asString())
                .isEqualTo(org.organizationId().toString());
        assertThat(subscription.get("plan_id").asString()).isEqualTo(PRO_ID);
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("provider_customer_id").asString()).isEqualTo(org.customer());
        assertThat(subscription.get("provider_subscription_id").asString()).isEqualTo(org.subscriptionId());
        assertThat(subscription.get("current_period_start").asString())
                .isEqualTo(org.periodStart().toString());
        assertThat(subscription.get("current_period_end").asString())
                .isEqualTo(org.periodEnd().toString());
        assertThat(subscription.has("cancel_at")).isTrue();
        assertThat(subscription.get("cancel_at").isNull()).isTrue();
        assertThat(Instant.parse(subscription.get("created_at").asString())).isBefore(Instant.now());
        assertThat(Instant.parse(subscription.get("updated_at").asString())).isBefore(Instant.now());
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("pro");
    }

    // --- checkout ---

    @Test
    void shouldAnswer400WhenTheTierIsMissing() {
        Api session = signedUp();

        Api.Response response = session.post("/api/v1/billing/checkout", Map.of());

        assertFieldErrors(response, "tier");
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("tier");
    }

    @Test
    void shouldAnswer400ToAnUnknownTier() {
        Api session = api();
        Api.Account account = session.signup();
        for (String tier : List.of("enterprise", "PRO", "", " pro", "<script>alert(1)</script>")) {
            Api.Response response = session.post("/api/v1/billing/checkout", Map.of("tier", tier));
            assertThat(response.status()).as(tier).isEqualTo(400);
            assertThat(response.code()).isEqualTo("unknown_tier");
            assertThat(response.json().get("detail").asString())
                    .as("names the tiers")
                    .contains("free")
                    .contains("pro")
                    .contains("team");
        }
        assertThat(count("select count(*) from billing_accounts where organization_id = ?", account.organizationId()))
                .isZero();
    }

    @Test
    void shouldAnswer400WhenTheFreeTierIsBought() {
        Api session = signedUp();

        assertProblem(session.post("/api/v1/billing/checkout", Map.of("tier", "free")), 400, "tier_not_purchasable");
    }

    @Test
    void shouldAnswer400ToABodyThatIsNotJsonOrHasTheWrongType() {
        Api session = signedUp();

        Api.Response malformed = session.send("POST", "/api/v1/billing/checkout", "{tier:", "application/json");
        Api.Response wrongType = session.post("/api/v1/billing/checkout", Map.of("tier", List.of("pro")));
        Api.Response notJson = session.send("POST", "/api/v1/billing/checkout", "tier=pro", "text/plain");

        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.code()).isEqualTo("malformed_json");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(notJson.status()).isEqualTo(415);
    }

    @Test
    void shouldAnswer403UntilTheEmailAddressIsVerified() {
        Api session = api();
        session.signupUnverified();

        assertProblem(session.post("/api/v1/billing/checkout", Map.of("tier", "pro")), 403, "email_unverified");
        assertThat(count(
                        "select count(*) from billing_accounts b join memberships m on m.organization_id ="
                                + " b.organization_id join customers c on c.id = m.customer_id where c.email = ?",
                        session.get("/api/v1/session").json().get("email").asString()))
                .isZero();

        session.verifyEmail();
        assertThat(session.post("/api/v1/billing/checkout", Map.of("tier", "pro"))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void shouldAnswer409WhenTheOrganizationIsSubscribedToTheTierAlready() {
        ProviderCustomer org = subscribed(false);

        assertProblem(org.owner().post("/api/v1/billing/checkout", Map.of("tier", "pro")), 409, "already_subscribed");
    }

    // --- callbacks ---

    @ParameterizedTest(name = "the {0} callback{1} redirects to the billing page with checkout={2}")
    @CsvSource({
        "cancel, '', canceled",
        "success, '', pending",
        "success, ?session_id=, pending",
        "success, ?session_id=cs_test_doesnotexist, pending",
        "success, ?session_id=../../v1/customers, pending",
        "success, ?session_id=%27%20or%201%3D1, pending"
    })
    void shouldRedirectTheCallbacksToTheBillingPageAndAMissingOrUnknownSessionToPending(
            String callback, String query, String outcome) {
        Api.Response response = api().get("/api/v1/billing/checkout/" + callback + query);

        assertThat(response.status()).as(query).isEqualTo(303);
        assertThat(response.header("Location")).as(query).isEqualTo("/dashboard/billing?checkout=" + outcome);
    }

    // --- cancel ---

    @Test
    void shouldAnswer200UnchangedWhenTheCancellationIsScheduledAlready() {
        ProviderCustomer org = subscribed(true);
        JsonNode before = org.owner().get("/api/v1/billing/subscription").json().get("subscription");

        Api.Response response = org.owner().post("/api/v1/billing/cancel");

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode subscription = response.json().get("subscription");
        assertThat(subscription.get("cancel_at").asString())
                .isEqualTo(org.periodEnd().toString());
        assertThat(subscription).isEqualTo(before);
    }

    // --- invoices ---

    @Test
    void shouldListNoInvoicesOfANewOrganization() {
        Api session = signedUp();

        Api.Response response = session.get("/api/v1/billing/invoices");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("invoices").isArray()).isTrue();
        assertThat(response.json().get("invoices").size()).isZero();
    }

    // --- tenants ---

    @Test
    void shouldNeverShowAnotherOrganizationsSubscriptionOrInvoices() {
        ProviderCustomer a = subscribed(false);
        Api b = signedUp();

        assertThat(a.owner()
                        .get("/api/v1/billing/invoices")
                        .json()
                        .get("invoices")
                        .size())
                .isOne();
        Api.Response subscription = b.get("/api/v1/billing/subscription");
        assertThat(subscription.status()).isEqualTo(404);
        assertThat(subscription.code()).isEqualTo("subscription_not_found");
        assertThat(b.get("/api/v1/billing/invoices").json().get("invoices").size())
                .isZero();
        assertThat(b.post("/api/v1/billing/cancel").status()).isEqualTo(404);
        assertThat(b.post("/api/v1/billing/portal").code()).isEqualTo("no_billing_account");
        // b's own admin key does not reach a's data either
        Api bKey = Api.withKey(baseUrl(), b.createKey("b-admin", "admin"));
        assertThat(bKey.get("/api/v1/billing/subscription").status()).isEqualTo(404);
        assertThat(bKey.get("/api/v1/billing/invoices").json().get("invoices").size())
                .isZero();
        // a is unchanged
        assertThat(a.owner()
                        .get("/api/v1/billing/subscription")
                        .json()
                        .get("subscription")
                        .get("cancel_at")
                        .isNull())
                .isTrue();
    }
}
