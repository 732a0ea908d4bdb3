package com.kvportal.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.soak.ExpectedInvoice.Country;
import com.kvportal.soak.ExpectedInvoice.Coupon;
import com.kvportal.soak.ExpectedOverage.Terms;
import com.kvportal.soak.Organization.Period;
import com.kvportal.soak.Organization.Plans;
import com.kvportal.soak.Organization.Story;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.ServiceProcess;
import com.kvportal.support.TestDatabase;
import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.StripeException;
import com.stripe.model.Invoice;
import com.stripe.model.Subscription;
import com.stripe.param.CouponCreateParams;
import com.stripe.param.InvoiceListParams;
import com.stripe.param.PromotionCodeCreateParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The money soak (issue 25, "Every cent"): organizations on two instances of the service (separate JVMs, one
 * PostgreSQL), free, pro, pro that cancels at the end of some period, cards that fail and cards that recover, each
 * through several billing periods of the sandbox's test clock; random storage reports from a printed seed with
 * duplicates, reorders, late samples, strays and malformed batches, sent to either instance; the sandbox's events
 * replayed newest first to both instances at once; one instance killed with {@code kill -9} in the middle and
 * started again. At the end, per organization and period, what the provider was asked to bill against the storage
 * rules computed here ({@link ExpectedOverage}), to the cent.
 *
 * <p>Plans, coupons and tax (issue 35): the instances tax automatically, and the organizations pay from the US, DE or
 * GB; they enter a promotion code at checkout of each coupon duration (once, repeating for two months, forever; a
 * percentage or an amount off) or none; some start with a trial (checked out on the instance that offers trials),
 * some move to team within their first period (the cut-short period billed on pro, the unused time credited), during
 * a trial too, and some go back to pro at a period's end. Every invoice's subtotal, discount, tax and amount due is
 * computed here ({@link ExpectedInvoice}) and compared with the provider's and with the service's.
 *
 * <p>{@code -Dsoak.seed=N} replays a run's organizations and reports ({@code soak.organizations}, {@code
 * soak.periods} scale it; bench/soak.sh runs a long one). Timestamps follow the real clock, as the service checks
 * {@code at} against it.
 *
 * <p>Time: the sandbox's test clock moves periods a month at a time, while a sample's {@code at} must lie within
 * 35 days before and 5 minutes after the service's real clock. So, as in {@code OverageEndToEndTest}, storage
 * lands in the first period (which starts at checkout, minutes ago) and holds from then on: the first period is
 * billed over its samples' minutes and the rest of its month; later periods over the latest values known when they
 * are billed (samples that arrive after a period was billed leave its bill alone but set where the next starts).
 */
class MoneySoakIT {

    static final long SEED = seed();
    static final int ORGANIZATIONS = Integer.getInteger("soak.organizations", 32);
    static final int PERIODS = Integer.getInteger("soak.periods", 3);
    /** Two rounds of the retry of queued usage charges, and the send. */
    static final Duration RECORDED_WITHIN = Duration.ofSeconds(30);

    /** How long a replay answered 5xx is delivered again, a second apart, before it counts as a failure. */
    static final Duration REDELIVERED_WITHIN = Duration.ofSeconds(60);

    static final Duration SETTLE = Duration.ofSeconds(Integer.getInteger("soak.settle-seconds", 180));

    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final Random random = new Random(SEED);
    /** The promotion code of each coupon, made at the provider at the start. */
    private final Map<Coupon, String> codes = new EnumMap<>(Coupon.class);

    private volatile ServiceProcess restarting;
    private int samples;
    private int replayed;
    /** Replays answered 5xx and so delivered again. */
    private final AtomicInteger redelivered = new AtomicInteger();

    @Test
    void shouldBillEveryCentOnceThroughDuplicatesReplaysAndACrash() throws Exception {
        System.out.println(
                "money soak: seed " + SEED + ", " + ORGANIZATIONS + " organizations, " + PERIODS + " periods");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        Instant began = Instant.now().minus(Duration.ofDays(1));
        Cluster cluster = new Cluster(TestDatabase.freshDatabaseUrl());
        try {
            cluster.start();
            makeCoupons(cluster);
            List<Organization> orgs = signUp(cluster, pool);
            settle(cluster, orgs, "after checkout");
            for (int period = 1; period <= PERIODS; period++) {
                runPeriod(cluster, pool, orgs, period);
            }
            Reckoning reckoning = reckonOnceSent(cluster, orgs);
            String table = reckoning.table(SEED, ORGANIZATIONS * PERIODS <= 400, samples);
            Path report = Path.of("target", "soak", "money-soak-" + SEED + ".txt");
            Files.createDirectories(report.getParent());
            Files.writeString(report, reckoning.table(SEED, true, samples) + String.join("\n", failures));
            System.out.println(table);
            System.out.println("events replayed to every instance: " + replayed + " (answered 5xx and delivered again: "
                    + redelivered + "); requests sent again after a kill: "
                    + cluster.retried() + "; full table: " + report.toAbsolutePath());
            printProviderFailures();
            failures.addAll(reckoning.failures());
            JsonNode reconciled = reconcile(cluster, began);
            System.out.println("the service's own reconciliation with the provider: "
                    + reconciled.get("billed_periods").asInt() + " billed periods, "
                    + reconciled.get("provider_items").asInt() + " overage items at the provider, "
                    + reconciled.get("differences").size() + " differences, "
                    + reconciled.get("invoice_differences").size() + " invoice differences");
            assertThat(reconciled.get("differences").size())
                    .as("differences the operator's reconciliation reports: " + reconciled.get("differences"))
                    .isZero();
            assertThat(reconciled.get("invoice_differences").size())
                    .as("invoices the operator's reconciliation finds different at the provider: "
                            + reconciled.get("invoice_differences"))
                    .isZero();
            assertThat(reconciled.get("provider_items").asInt())
                    .as("overage items the reconciliation compared")
                    .isPositive();
            assertThat(failures).as("seed " + SEED).isEmpty();
            assertThat(reckoning.differences(false))
                    .as("periods billed differently from docs/billing.md's overage rule (seed " + SEED + ")")
                    .isEmpty();
            assertThat(reckoning.invoiceDifferences())
                    .as("invoices whose subtotal, discount, tax or amount due differ from docs/billing.md's rules at"
                            + " the provider or in the service (seed " + SEED + ")")
                    .isEmpty();
            assertThat(reckoning.differences(true))
                    .as(
                            "final periods of ending subscriptions billed differently from docs/billing.md's overage rule (seed "
                                    + SEED + "): the span must end at the provider's ended_at")
                    .isEmpty();
        } finally {
            pool.shutdownNow();
            if (restarting != null) {
                restarting.close();
            }
            cluster.close();
        }
    }

    /** What the instances logged of the provider's failures: why a delivery was answered 5xx, if one was. */
    private static void printProviderFailures() throws IOException {
        Path logs = Path.of("target", "service-processes");
        if (!Files.isDirectory(logs)) {
            return;
        }
        try (var files = Files.list(logs)) {
            for (Path log : files.filter(f -> f.getFileName().toString().startsWith("soak-"))
                    .toList()) {
                try (var lines = Files.lines(log)) {
                    lines.filter(line -> line.contains("The payment provider failed") || line.contains("not sent yet"))
                            .limit(20)
                            .forEach(line -> System.out.println(log.getFileName() + ": " + line));
                }
            }
        }
    }

    /**
     * Each organization's story: every eighth free, the rest pro, some cancelling, some with failing cards; and their
     * {@link #plans plans, coupons and tax}.
     */
    static Story story(int index, Random random) {
        int slot = index % 8;
        if (slot == 0) {
            return new Story(false, 0, 0, 0);
        }
        int cancelIn = slot >= 3 && slot <= 5 ? 1 + (index / 8 * 3 + slot - 3) % PERIODS : 0;
        int failsIn = 0;
        int recoversIn = 0;
        if (slot >= 6 || random.nextInt(4) == 0) {
            failsIn = 1 + random.nextInt(PERIODS);
            if (failsIn < PERIODS && random.nextBoolean()) {
                recoversIn = failsIn + 1 + random.nextInt(PERIODS - failsIn);
            }
        }
        return new Story(true, cancelIn, failsIn, recoversIn, plans(index, slot));
    }

    /**
     * The plans of a paid organization in slot {@code slot} of eight: slots 1 and 5 trial (every other one of slot 1
     * moving to team during it); slots 2, 4 and 7 move to team within their first period, and slot 2 goes back to
     * pro at the end of the second. The coupons and countries go round, so that every coupon meets every country and
     * story (a once coupon never meets a trial: its first invoice is the trial's $0).
     */
    static Plans plans(int index, int slot) {
        boolean trial = slot == 1 || slot == 5;
        int upgradeIn =
                switch (slot) {
                    case 2, 4, 7 -> 1;
                    case 1 -> index / 8 % 2;
                    default -> 0;
                };
        int downgradeIn = slot == 2 && PERIODS >= 2 ? 2 : 0;
        Coupon coupon = Coupon.values()[(index + index / 8) % Coupon.values().length];
        if (trial && coupon == Coupon.ONCE_15_PERCENT) {
            coupon = Coupon.FOREVER_12_5_PERCENT;
        }
        return new Plans(trial, upgradeIn, downgradeIn, coupon, Country.values()[index % 3]);
    }

    /** Each coupon and a promotion code of it, made at the provider's API as an operator would. */
    private void makeCoupons(Cluster cluster) {
        for (Coupon coupon : Coupon.values()) {
            if (coupon == Coupon.NONE) {
                continue;
            }
            CouponCreateParams.Builder params = CouponCreateParams.builder()
                    .setDuration(
                            CouponCreateParams.Duration.valueOf(coupon.duration.toUpperCase(java.util.Locale.ROOT)));
            if (coupon.percentOff != null) {
                params.setPercentOff(coupon.percentOff);
            } else {
                params.setAmountOff(coupon.amountOff).setCurrency("usd");
            }
            if (coupon.months > 0) {
                params.setDurationInMonths((long) coupon.months);
            }
            String id = stripe(
                            cluster,
                            random,
                            base -> cluster.stripe(base).v1().coupons().create(params.build()))
                    .getId();
            String code = "SOAK" + Long.toHexString(SEED).toUpperCase(java.util.Locale.ROOT) + coupon.ordinal();
            stripe(cluster, random, base -> cluster.stripe(base)
                    .v1()
                    .promotionCodes()
                    .create(PromotionCodeCreateParams.builder()
                            .setPromotion(PromotionCodeCreateParams.Promotion.builder()
                                    .setType(PromotionCodeCreateParams.Promotion.Type.COUPON)
                                    .setCoupon(id)
                                    .build())
                            .setCode(code)
                            .build()));
            codes.put(coupon, code);
        }
    }

    private List<Organization> signUp(Cluster cluster, ExecutorService pool) throws Exception {
        List<Callable<Organization>> tasks = new ArrayList<>();
        for (int i = 0; i < ORGANIZATIONS; i++) {
            int index = i;
            Random own = random(1, index);
            Story story = story(index, own);
            tasks.add(() -> signUp(cluster, index, story, own));
        }
        List<Organization> orgs = new ArrayList<>();
        for (Future<Organization> org : pool.invokeAll(tasks)) {
            orgs.add(get(org));
        }
        return orgs;
    }

    private Organization signUp(Cluster cluster, int index, Story story, Random own) {
        // a trial is started by a checkout on an instance that offers trials; others by one that does not
        String base = story.paid() ? cluster.offering(story.plans().trial()) : cluster.pick(own);
        Api owner = new Api(base);
        Api.Account account = owner.signup();
        List<UUID> projects = new ArrayList<>(List.of(account.projectId()));
        for (int p = own.nextInt(3); p > 0; p--) {
            projects.add(owner.createProject("soak project " + p));
        }
        JsonNode subscription = story.paid() ? checkOut(owner, new Api(base), story.plans()) : null;
        Organization org = new Organization(index, story, owner, account.organizationId(), projects);
        if (subscription != null) {
            org.customer = subscription.get("provider_customer_id").asString();
            org.subscription = subscription.get("provider_subscription_id").asString();
            org.subscribedAt =
                    Instant.parse(subscription.get("current_period_start").asString());
            org.trialing = "trialing".equals(subscription.get("status").asString());
            if (org.trialing != story.plans().trial()) {
                failures.add(
                        org.name() + ": its checkout started " + subscription.get("status") + " for " + story.label());
            }
        }
        return org;
    }

    /**
     * Buys pro as a person would: the checkout with the organization's promotion code (if any), paid on the hosted
     * page with its billing country and a good card, the provider's redirect followed; answers the live subscription.
     */
    private JsonNode checkOut(Api owner, Api browser, Plans plans) {
        owner.verifyEmail();
        Map<String, Object> body = new HashMap<>(Map.of("tier", "pro"));
        if (plans.coupon() != Coupon.NONE) {
            body.put("promotion_code", codes.get(plans.coupon()).toLowerCase(java.util.Locale.ROOT));
        }
        Api.Response checkout = owner.post("/api/v1/billing/checkout", body);
        assertThat(checkout.status()).as(checkout.toString()).isEqualTo(200);
        String session = checkout.json().get("session_id").asString();
        Api.Response paid = browser.post(
                "/sandbox/checkout/" + session + "/pay",
                Map.of("outcome", "succeeded", "country", plans.country().name()));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        assertThat(browser.follow(paid).header("Location")).isEqualTo("/dashboard/billing?checkout=success");
        return owner.subscription();
    }

    private void runPeriod(Cluster cluster, ExecutorService pool, List<Organization> orgs, int period)
            throws Exception {
        long started = System.nanoTime();
        StorageTraffic traffic = new StorageTraffic(random(4, period), orgs, Instant.now());
        samples += traffic.samples();
        boolean crash = period % 4 == 2 || PERIODS == 1;
        traffic.send(cluster, failures::add, () -> crash ? crash(cluster, period) : null);
        // plan changes one at a time (each makes the provider invoice, charge and send events at once), then the rest
        for (Organization org : orgs.stream().filter(Organization::billable).toList()) {
            changePlans(cluster, org, period);
        }
        forEach(pool, orgs.stream().filter(Organization::billable).toList(), org -> {
            beforeTheEnd(cluster, org, period);
            return null;
        });
        if (restarting != null) {
            cluster.join(restarting.awaitReady());
            restarting = null;
        }
        settle(cluster, orgs, "before the end of period " + period);
        List<Organization> billed = orgs.stream().filter(Organization::billable).toList();
        forEach(pool, billed, org -> {
            advance(cluster, org, period);
            return null;
        });
        replayEvents(cluster, pool);
        settle(cluster, orgs, "after the end of period " + period);
        System.out.printf(
                "period %d: %d samples in %d batches, %d organizations billed, %d s%n",
                period,
                traffic.samples(),
                traffic.batches().size(),
                billed.size(),
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }

    /**
     * {@code kill -9} of one instance a few milliseconds from now, while a batch of reports is on its way to it, and
     * a new one started in its place; answers the victim's base.
     */
    private String crash(Cluster cluster, int period) {
        List<String> bases = cluster.bases();
        String base = bases.get(period % bases.size());
        Thread killer = new Thread(
                () -> {
                    Cluster.pause(5 + random.nextInt(40));
                    ServiceProcess victim = cluster.kill(base);
                    System.out.println(
                            "period " + period + ": kill -9 of pid " + victim.pid() + " (" + victim.baseUrl() + ")");
                    restarting = cluster.launchLike(base);
                    System.out.println("period " + period + ": a new instance started at " + restarting.baseUrl());
                },
                "soak-killer");
        killer.start();
        return base;
    }

    /** The owner's plan changes of this period, before its end. */
    private void changePlans(Cluster cluster, Organization org, int period) {
        Random own = random(5, org.index, period);
        if (org.story.plans().upgradeIn() == period) {
            upgrade(cluster, own, org, period);
        }
        if (org.story.plans().downgradeIn() == period) {
            Api.Response downgrade = unlessUnavailable(() -> cluster.onAny(
                            own, base -> org.owner(base).post("/api/v1/billing/change-plan", Map.of("tier", "pro")))
                    .answer());
            if (downgrade.status() != 200
                    || !"pro"
                            .equals(downgrade
                                    .json()
                                    .path("subscription")
                                    .path("scheduled_change")
                                    .path("tier")
                                    .asString())) {
                failures.add(org.name() + ": the downgrade answered " + downgrade);
            }
        }
    }

    /** The owner's and the card's doings of this period, before its end. */
    private void beforeTheEnd(Cluster cluster, Organization org, int period) {
        Random own = random(2, org.index, period);
        if (org.story.cardFailsIn() == period) {
            card(cluster, own, org, "card_declined");
        }
        if (org.story.cardRecoversIn() == period) {
            card(cluster, own, org, "succeeded");
        }
        if (org.story.cancelIn() == period) {
            Api.Response cancel = unlessUnavailable(
                    () -> cluster.onAny(own, base -> org.owner(base).post("/api/v1/billing/cancel"))
                            .answer());
            if (cancel.status() != 200) {
                failures.add(org.name() + ": cancel answered " + cancel);
            }
        }
    }

    /**
     * Moves the organization from pro to team now. Out of a trial, a new period starts at once: the one cut short is
     * noted (on pro, with the samples known now, billed when the service learns of the change), and the change's
     * invoice is to credit pro's unused time. In a trial, the trial goes on to its end on team.
     */
    private void upgrade(Cluster cluster, Random own, Organization org, int period) {
        Subscription before = stripe(
                cluster, own, base -> cluster.stripe(base).v1().subscriptions().retrieve(org.subscription));
        Instant start = Instant.ofEpochSecond(before.getItems().getData().get(0).getCurrentPeriodStart());
        Instant end = Instant.ofEpochSecond(before.getItems().getData().get(0).getCurrentPeriodEnd());
        List<ExpectedOverage.Sample> known = org.acceptedSoFar();
        Api.Response changed = unlessUnavailable(() -> cluster.onAny(
                        own, base -> org.owner(base).post("/api/v1/billing/change-plan", Map.of("tier", "team")))
                .answer());
        if (changed.status() != 200
                || !"team"
                        .equals(changed.json()
                                .path("subscription")
                                .path("plan")
                                .path("tier")
                                .asString())) {
            failures.add(org.name() + ": the upgrade answered " + changed);
            return;
        }
        org.terms = Terms.TEAM;
        if (org.trialing) {
            return;
        }
        Instant at = Instant.parse(changed.json().get("effective_at").asString());
        synchronized (org) {
            org.periods.add(new Period(period, start, at, false, known, Terms.PRO, false, true, null));
            org.upgrades.add(new Organization.Upgrade(
                    at, ExpectedInvoice.unusedTimeCredit(Terms.PRO.priceCents, start, end, at)));
        }
    }

    private void card(Cluster cluster, Random own, Organization org, String outcome) {
        Api.Response card = cluster.onAny(own, base -> cluster.sandbox(base)
                        .post("/sandbox/customers/" + org.customer + "/card", Map.of("outcome", outcome)))
                .answer();
        if (card.status() != 200) {
            failures.add(org.name() + ": card " + outcome + " answered " + card);
        }
    }

    /**
     * Moves the subscription to its period's end at the provider, after noting the period and the samples known
     * now (those the service has when it bills it).
     */
    private void advance(Cluster cluster, Organization org, int period) {
        Random own = random(3, org.index, period);
        Subscription before = stripe(
                cluster, own, base -> cluster.stripe(base).v1().subscriptions().retrieve(org.subscription));
        Instant start = Instant.ofEpochSecond(before.getItems().getData().get(0).getCurrentPeriodStart());
        Instant end = Instant.ofEpochSecond(before.getItems().getData().get(0).getCurrentPeriodEnd());
        List<ExpectedOverage.Sample> known = org.acceptedSoFar();
        Api.Response advanced = cluster.onAny(own, base -> cluster.sandbox(base)
                        .post("/sandbox/subscriptions/" + org.subscription + "/advance"))
                .answer();
        if (advanced.status() != 200) {
            failures.add(org.name() + ": advance answered " + advanced);
            return;
        }
        JsonNode after = advanced.json();
        boolean last = "canceled".equals(after.get("status").asString());
        if (last != (org.story.cancelIn() == period)) {
            failures.add(org.name() + ": period " + period + " ended the subscription: " + last);
        }
        if (last) {
            // the provider's ended_at: the period's end, for a cancellation at period end
            end = Instant.ofEpochSecond(after.get("ended_at").asLong());
            org.ended = true;
        }
        Terms terms = org.terms;
        Terms next = last ? null : org.story.plans().downgradeIn() == period ? Terms.PRO : terms;
        synchronized (org) {
            org.periods.add(new Period(period, start, end, last, known, terms, org.trialing, false, next));
        }
        if (next != null) {
            org.terms = next;
        }
        org.trialing = false;
    }

    /**
     * The sandbox's newest events (exact bodies), posted again newest first to every instance at once, while its
     * own deliveries of the same events may still be under way: duplicates, out of order, concurrent.
     */
    private void replayEvents(Cluster cluster, ExecutorService pool) throws Exception {
        String base = cluster.pick(random);
        JsonNode list =
                cluster.sandbox(base).get("/sandbox/stripe/v1/events?limit=100").json();
        for (JsonNode listed : list.get("data")) {
            String id = listed.get("id").asString();
            Api.Response event = cluster.onAny(random, b -> cluster.sandbox(b).get("/sandbox/stripe/v1/events/" + id))
                    .answer();
            if (event.status() != 200) {
                failures.add("event " + id + " could not be read back: " + event);
                continue;
            }
            List<Callable<Void>> posts = new ArrayList<>();
            for (String target : cluster.bases()) {
                posts.add(() -> {
                    Api.Response answer = cluster.webhook(target).deliver(event.body());
                    // a 5xx asks for the news again, as the provider does: the service could not finish its part
                    // (the provider failed it meanwhile); the news must be taken in once delivered again
                    Instant giveUp = Instant.now().plus(REDELIVERED_WITHIN);
                    while (answer.status() / 100 == 5 && Instant.now().isBefore(giveUp)) {
                        redelivered.incrementAndGet();
                        Thread.sleep(1_000);
                        answer = cluster.webhook(target).deliver(event.body());
                    }
                    if (answer.status() != 200) {
                        failures.add("event " + id + " (" + listed.get("type").asString() + ") replayed to " + target
                                + " answered " + answer);
                    }
                    return null;
                });
            }
            for (Future<Void> post : pool.invokeAll(posts)) {
                get(post);
            }
            replayed++;
        }
    }

    /**
     * Waits until the service agrees with the provider on every paid organization: no renewal draft left, the
     * subscription's status and period (or its end), and every invoice with its status.
     */
    private void settle(Cluster cluster, List<Organization> orgs, String when) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        List<Organization> pending =
                new ArrayList<>(orgs.stream().filter(o -> o.story.paid()).toList());
        Map<Organization, String> why = new ConcurrentHashMap<>();
        while (!pending.isEmpty()) {
            pending.removeIf(org -> {
                String disagreement = disagreement(cluster, org);
                if (disagreement == null) {
                    return true;
                }
                why.put(org, disagreement);
                return false;
            });
            if (pending.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                pending.forEach(org -> failures.add(
                        org.name() + " unsettled " + when + " after " + SETTLE.toSeconds() + " s: " + why.get(org)));
                return;
            }
            Cluster.pause(500);
        }
    }

    /** What the service and the provider disagree on about the organization, or null. */
    private String disagreement(Cluster cluster, Organization org) {
        Subscription provider = stripe(
                cluster,
                random,
                base -> cluster.stripe(base).v1().subscriptions().retrieve(org.subscription));
        List<Invoice> invoices = invoices(cluster, org);
        for (Invoice invoice : invoices) {
            if ("draft".equals(invoice.getStatus())) {
                return "invoice " + invoice.getId() + " is still a draft";
            }
        }
        Api.Response subscription = cluster.onAny(
                        random, base -> org.owner(base).get("/api/v1/billing/subscription"))
                .answer();
        if ("canceled".equals(provider.getStatus())) {
            if (subscription.status() != 404) {
                return "ended at the provider, here " + subscription;
            }
        } else {
            if (subscription.status() != 200) {
                return provider.getStatus() + " at the provider, here " + subscription;
            }
            JsonNode ours = subscription.json().get("subscription");
            String start = Instant.ofEpochSecond(
                            provider.getItems().getData().get(0).getCurrentPeriodStart())
                    .toString();
            if (!ours.get("status").asString().equals(provider.getStatus())
                    || !ours.get("current_period_start").asString().equals(start)) {
                return "provider " + provider.getStatus() + " from " + start + ", here "
                        + ours.get("status").asString() + " from " + ours.get("current_period_start");
            }
        }
        Map<String, String> theirs = new TreeMap<>();
        invoices.forEach(i -> theirs.put(i.getId(), i.getStatus()));
        Map<String, String> ours = new TreeMap<>();
        cluster.onAny(random, base -> org.owner(base).get("/api/v1/billing/invoices"))
                .answer()
                .json()
                .get("invoices")
                .forEach(i -> ours.put(
                        i.get("provider_invoice_id").asString(), i.get("status").asString()));
        return theirs.equals(ours) ? null : "invoices at the provider " + theirs + ", here " + ours;
    }

    private List<Invoice> invoices(Cluster cluster, Organization org) {
        return stripe(cluster, random, base -> cluster.stripe(base)
                        .v1()
                        .invoices()
                        .list(InvoiceListParams.builder()
                                .setCustomer(org.customer)
                                .setLimit(100L)
                                .build()))
                .getData();
    }

    /**
     * The reckoning once every charge is at the provider: a final invoice's charge whose send after commit failed (or
     * whose instance was killed) is billed by the retry of queued usage charges, within {@link #RECORDED_WITHIN}.
     */
    private Reckoning reckonOnceSent(Cluster cluster, List<Organization> orgs) {
        long deadline = System.nanoTime() + RECORDED_WITHIN.toNanos();
        while (true) {
            Reckoning reckoning = reckon(cluster, orgs);
            if ((reckoning.failures().isEmpty()
                            && reckoning.differences().isEmpty()
                            && reckoning.invoiceDifferences().isEmpty())
                    || System.nanoTime() > deadline) {
                return reckoning;
            }
            Cluster.pause(1_000);
        }
    }

    private Reckoning reckon(Cluster cluster, List<Organization> orgs) {
        Reckoning reckoning = new Reckoning();
        for (Organization org : orgs) {
            List<Invoice> invoices = org.story.paid() ? invoices(cluster, org) : List.of();
            JsonNode periods = cluster.onAny(random, base -> org.owner(base).get("/api/v1/usage/periods"))
                    .answer()
                    .json()
                    .get("periods");
            JsonNode ours = cluster.onAny(random, base -> org.owner(base).get("/api/v1/billing/invoices"))
                    .answer()
                    .json()
                    .get("invoices");
            reckoning.reckon(org, invoices, periods, ours);
        }
        return reckoning;
    }

    /**
     * The operator's reconciliation ({@code /actuator/reconciliation}) over every period the run could have billed:
     * the sandbox's test clock moves periods a month ahead at each advance.
     */
    private JsonNode reconcile(Cluster cluster, Instant began) {
        Instant to = Instant.now().plus(Duration.ofDays(32L * (PERIODS + 2)));
        // a charge that a killed instance sent to the provider but did not record is recorded by the retry of the
        // queued charges (every 10 s, for charges queued 10 s ago or more): until then the reconciliation reports it
        long deadline = System.nanoTime() + RECORDED_WITHIN.toNanos();
        while (true) {
            Api.Response response = cluster.onAny(random, base -> Api.withKey(base, IntegrationTest.METRICS_TOKEN)
                            .get("/actuator/reconciliation?from=" + began + "&to=" + to))
                    .answer();
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
            if (response.json().get("differences").isEmpty() || System.nanoTime() > deadline) {
                return response.json();
            }
            Cluster.pause(1_000);
        }
    }

    /**
     * The request, sent again (up to five times, two seconds apart) while it is answered 503 {@code
     * database_unavailable}: the service found no database connection for it in time (a loaded machine) and asks to
     * retry in a few seconds.
     */
    private static Api.Response unlessUnavailable(java.util.function.Supplier<Api.Response> request) {
        Api.Response response = request.get();
        for (int attempt = 0; attempt < 5 && response.status() == 503; attempt++) {
            Cluster.pause(2_000);
            response = request.get();
        }
        return response;
    }

    /** A stripe-java call on either instance; a broken connection (a killed instance) tries the other. */
    private static <T> T stripe(Cluster cluster, Random random, StripeCall<T> call) {
        return cluster.onAny(random, (Function<String, T>) base -> {
                    try {
                        return call.on(base);
                    } catch (ApiConnectionException broken) {
                        throw new UncheckedIOException(new IOException(broken));
                    } catch (StripeException e) {
                        if (e.getStatusCode() != null && e.getStatusCode() >= 500) {
                            // a read the provider failed to answer (a stand-in starved of connections on a loaded
                            // machine): asked again, as stripe-java's own retries would
                            throw new UncheckedIOException(new IOException(e));
                        }
                        throw new IllegalStateException(e);
                    }
                })
                .answer();
    }

    @FunctionalInterface
    interface StripeCall<T> {
        T on(String base) throws StripeException;
    }

    private static <T> void forEach(ExecutorService pool, List<T> items, Function<T, Void> work) throws Exception {
        List<Callable<Void>> tasks = new ArrayList<>();
        items.forEach(item -> tasks.add(() -> work.apply(item)));
        for (Future<Void> done : pool.invokeAll(tasks)) {
            get(done);
        }
    }

    private static <T> T get(Future<T> future) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * A generator of its own for one part of the run, drawn from the seed through SplittableRandom's mixing:
     * {@code new Random(seed + i)} for neighbouring {@code i} start with nearly the same numbers.
     */
    static Random random(long... parts) {
        long seed = SEED;
        for (long part : parts) {
            seed = new SplittableRandom(seed ^ part).nextLong();
        }
        return new Random(seed);
    }

    private static long seed() {
        String given = System.getProperty("soak.seed");
        return given == null || given.isBlank() ? new SecureRandom().nextLong() : Long.parseLong(given.strip());
    }
}
