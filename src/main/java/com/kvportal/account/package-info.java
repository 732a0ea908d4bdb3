/**
 * Customers, organizations, projects and sessions: signup, login with throttling, the active project.
 * {@link com.kvportal.account.Accounts} is the feature's public surface.
 */
@ApplicationModule(allowedDependencies = {"common", "mail", "security"})
@NullMarked
package com.kvportal.account;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
