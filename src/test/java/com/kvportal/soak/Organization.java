package com.kvportal.soak;

import com.kvportal.soak.ExpectedInvoice.Country;
import com.kvportal.soak.ExpectedInvoice.Coupon;
import com.kvportal.soak.ExpectedOverage.Sample;
import com.kvportal.soak.ExpectedOverage.Terms;
import com.kvportal.support.Api;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * One organization of the soak: its story (free, or pro that may trial, upgrade, downgrade, cancel, redeem a coupon,
 * pay tax and whose card may fail), its owner's
 * session (shared by both instances), its projects, its subscription at the provider, the samples the service
 * accepted from it, and the periods the provider was to bill with the samples known when each was billed.
 */
final class Organization {

    /**
     * What happens to the organization. Periods count from 1; 0: never.
     *
     * @param paid pro from the start (else free throughout)
     * @param cancelIn the period in which the owner cancels at period end, so that it is the last
     * @param cardFailsIn the period before whose end the card starts to be declined
     * @param cardRecoversIn the period in which a working card is put back (paying what is open)
     * @param plans what it does with plans, coupons and tax
     */
    record Story(boolean paid, int cancelIn, int cardFailsIn, int cardRecoversIn, Plans plans) {

        Story(boolean paid, int cancelIn, int cardFailsIn, int cardRecoversIn) {
            this(paid, cancelIn, cardFailsIn, cardRecoversIn, Plans.NONE);
        }

        String label() {
            if (!paid) {
                return "free";
            }
            String label = (plans.trial() ? "pro trial" : "pro") + plans.changes();
            label += cancelIn == 0 ? "" : ", cancels in " + cancelIn;
            if (cardFailsIn > 0) {
                label += ", card fails in " + cardFailsIn
                        + (cardRecoversIn > 0 ? ", recovers in " + cardRecoversIn : ", never recovers");
            }
            return label;
        }
    }

    /**
     * An organization's plans, coupon and tax. Periods count from 1; 0: never.
     *
     * @param trial its checkout starts a trial (on an instance with {@code TRIAL_DAYS})
     * @param upgradeIn the period in which it moves from pro to team, at once
     * @param downgradeIn the period at whose end it goes back from team to pro (scheduled before the end)
     * @param coupon the coupon of the promotion code it enters at checkout
     * @param country its billing address's country, which sets the tax
     */
    record Plans(boolean trial, int upgradeIn, int downgradeIn, Coupon coupon, Country country) {

        static final Plans NONE = new Plans(false, 0, 0, Coupon.NONE, Country.US);

        String changes() {
            return (upgradeIn == 0 ? "" : ", team in " + upgradeIn)
                    + (downgradeIn == 0 ? "" : ", pro after " + downgradeIn);
        }

        String label() {
            return country + ", " + coupon.label();
        }
    }

    /**
     * A period the provider was to bill: its span, whether it was the subscription's last, the samples then known,
     * the plan it was on, whether it was a trial or cut short by an upgrade, and the plan of the period that follows
     * it at a renewal (null when none follows by renewal).
     */
    record Period(
            int number,
            Instant start,
            Instant end,
            boolean last,
            List<Sample> known,
            Terms terms,
            boolean trial,
            boolean cutShort,
            @Nullable Terms renewsOn) {

        ExpectedOverage expected() {
            ExpectedOverage overage = ExpectedOverage.of(known, start.getEpochSecond(), end.getEpochSecond(), terms);
            // a trial's period bills no overage
            return trial ? new ExpectedOverage(overage.averageBytes(), 0, 0) : overage;
        }
    }

    /** An upgrade at {@code at}: its invoice's service period starts there, crediting the old plan's unused time. */
    record Upgrade(Instant at, long creditCents) {}

    final int index;
    final Story story;
    final UUID id;
    final List<UUID> projects;
    private final String session;
    private final String xsrf;
    private final Map<String, Api> owners = new ConcurrentHashMap<>();
    /** Accepted samples by id, first one wins. */
    private final Map<String, Sample> accepted = new LinkedHashMap<>();
    /** The seconds taken by each project's samples (sent or about to be), so that no two share one. */
    private final Map<UUID, Set<Long>> seconds = new ConcurrentHashMap<>();

    final List<Period> periods = new ArrayList<>();
    final List<Upgrade> upgrades = new ArrayList<>();
    String customer;
    String subscription;
    /** The start of its subscription: when its coupon was redeemed. */
    Instant subscribedAt;
    /** The plan it is on now, and whether in its trial. */
    volatile Terms terms = Terms.PRO;

    volatile boolean trialing;
    Instant periodStart;
    Instant periodEnd;
    boolean ended;

    Organization(int index, Story story, Api owner, UUID id, List<UUID> projects) {
        this.index = index;
        this.story = story;
        this.id = id;
        this.projects = List.copyOf(projects);
        this.session = owner.cookie("SESSION");
        this.xsrf = owner.cookie("XSRF-TOKEN");
    }

    /** The owner's session on that instance (sessions live in the shared database). */
    Api owner(String base) {
        return owners.computeIfAbsent(base, b -> {
            Api api = new Api(b);
            api.setCookie("SESSION", session);
            api.setCookie("XSRF-TOKEN", xsrf);
            return api;
        });
    }

    /** True when the subscription is live: billed at the next advance. */
    boolean billable() {
        return story.paid() && !ended;
    }

    /** Claims a free second of the project for a new sample at or after {@code second}; answers it. */
    long claimSecond(UUID project, long second) {
        Set<Long> taken = seconds.computeIfAbsent(project, p -> new HashSet<>());
        synchronized (taken) {
            long s = second;
            while (!taken.add(s)) {
                s++;
            }
            return s;
        }
    }

    /** Records a sample the service accepted; answers false when its id was accepted before (a duplicate). */
    synchronized boolean accept(Sample sample) {
        return accepted.putIfAbsent(sample.id(), sample) == null;
    }

    synchronized boolean knows(String sampleId) {
        return accepted.containsKey(sampleId);
    }

    synchronized List<Sample> acceptedSoFar() {
        return List.copyOf(accepted.values());
    }

    String name() {
        return String.format("org %03d", index);
    }
}
