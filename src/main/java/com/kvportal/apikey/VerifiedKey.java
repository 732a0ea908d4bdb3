package com.kvportal.apikey;

import java.util.List;
import java.util.UUID;

/** What verify answers for a usable key. */
public record VerifiedKey(UUID customerId, UUID projectId, UUID organizationId, List<String> permissions) {}
