/**
 * API keys of a project: create, list, verify and revoke. Only a key's SHA-256 digest is stored;
 * {@link com.kvportal.apikey.ApiKeys} is the feature's public surface.
 */
@ApplicationModule(allowedDependencies = {"account", "billing", "common", "mail", "openapi", "security", "usage"})
@NullMarked
package com.kvportal.apikey;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
