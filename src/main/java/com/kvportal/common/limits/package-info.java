/**
 * Abuse limits: how many signups and logins one client address (and everyone together) may attempt, and limits of
 * "at most N within any window" on other requests ({@link com.kvportal.common.limits.WindowLimits}), counted in the
 * database so that every instance enforces the same budget.
 */
@NullMarked
package com.kvportal.common.limits;

import org.jspecify.annotations.NullMarked;
