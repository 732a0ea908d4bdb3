package com.kvportal.account;

import java.time.Instant;
import java.util.UUID;

public record Project(UUID id, UUID organizationId, String name, Instant createdAt) {}
