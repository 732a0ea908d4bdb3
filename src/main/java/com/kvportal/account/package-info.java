/**
 * Customers, organizations, projects and sessions: signup, login with throttling, the active project.
 * {@link com.kvportal.account.Accounts} is the feature's public surface.
 */
@NullMarked
package com.kvportal.account;

import org.jspecify.annotations.NullMarked;
