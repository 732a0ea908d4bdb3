package com.kvportal.account.teams;

import com.kvportal.security.Role;
import java.util.UUID;

record Joined(UUID organizationId, Role role) {}
