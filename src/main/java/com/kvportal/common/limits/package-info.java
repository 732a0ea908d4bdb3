/**
 * Abuse limits: how many signups and logins one client address (and everyone together) may attempt, counted in the
 * database so that every instance enforces the same budget.
 */
@NullMarked
package com.kvportal.common.limits;

import org.jspecify.annotations.NullMarked;
