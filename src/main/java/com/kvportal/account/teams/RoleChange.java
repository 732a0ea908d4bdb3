package com.kvportal.account.teams;

import com.kvportal.common.validation.Required;
import com.kvportal.security.RoleName;
import org.jspecify.annotations.Nullable;

record RoleChange(@Required @RoleName @Nullable String role) {}
