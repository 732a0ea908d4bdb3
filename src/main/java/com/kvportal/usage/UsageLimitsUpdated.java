package com.kvportal.usage;

import java.util.UUID;

/** An organization replaced its usage limits (published inside the transaction that stores them). */
public record UsageLimitsUpdated(UUID organizationId, UsageLimits previous, UsageLimits limits) {}
