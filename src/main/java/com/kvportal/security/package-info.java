/**
 * Security wiring: who a request is (a session or an API key), CSRF for sessions, and which calls need
 * which credential. Features read the result as a {@link com.kvportal.security.Caller}.
 */
@ApplicationModule(allowedDependencies = {"common"})
@NullMarked
package com.kvportal.security;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
