/**
 * The web dashboard: static pages at clean paths whose scripts call {@code /api/v1} with the session, so that a
 * person can do everything the API offers (sign up, log in, projects, API keys, billing). It reads the session
 * ({@code security}) only to send a visitor without one to the log-in page.
 */
@ApplicationModule(allowedDependencies = {"security"})
@NullMarked
package com.kvportal.dashboard;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
