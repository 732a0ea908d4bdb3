package com.kvportal.usage.limits;

import com.kvportal.billing.OrganizationPlans;
import com.kvportal.common.web.ProblemException;
import com.kvportal.usage.StorageStanding;
import com.kvportal.usage.UsageEvent.UsageLimitsUpdated;
import com.kvportal.usage.UsageLimits;
import com.kvportal.usage.UsageProblem;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads and replaces an organization's usage limits. Verify learns a change through {@link StorageStanding}'s
 * refresh on every instance; the biller reads the cap in force when it bills.
 */
@Service
@RequiredArgsConstructor
public class Limits {

    private final StoredLimits stored;
    private final OrganizationPlans plans;
    private final ApplicationEventPublisher events;

    public UsageLimits of(UUID organizationId) {
        return stored.of(organizationId);
    }

    /** Replaces the limits; an overage cap only on a plan with overage (else 400 {@code not_on_this_plan}). */
    @Transactional
    public UsageLimits replace(UUID organizationId, UsageLimits limits) {
        if (limits.overageCapCents() != null
                && !plans.entitlement(organizationId).billsOverage()) {
            throw new ProblemException(
                    UsageProblem.NOT_ON_THIS_PLAN,
                    "The current plan has no overage, so an overage cap does not apply: send overage_cap_cents null,"
                            + " or use storage_cap_bytes to stop writes at a size.");
        }
        UsageLimits previous = stored.of(organizationId);
        stored.save(organizationId, limits);
        events.publishEvent(new UsageLimitsUpdated(organizationId, previous, limits));
        return limits;
    }
}
