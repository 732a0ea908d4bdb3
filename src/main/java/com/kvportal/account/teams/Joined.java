package com.kvportal.account.teams;

import com.kvportal.common.openapi.Role;
import java.util.UUID;

record Joined(UUID organizationId, Role role) {}
