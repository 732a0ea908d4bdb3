package com.kvportal.account.teams;

import com.kvportal.security.Role;
import java.util.UUID;

record CreatedOrganization(UUID id, String name, Role role, UUID projectId) {}
