/** Two-step login: TOTP set-up, the second step of a login, recovery codes and the lock after wrong codes. */
@NullMarked
package com.kvportal.account.twostep;

import org.jspecify.annotations.NullMarked;
