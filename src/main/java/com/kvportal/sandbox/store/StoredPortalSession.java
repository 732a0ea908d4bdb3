package com.kvportal.sandbox.store;

import org.jspecify.annotations.Nullable;

/** A customer portal session: its id is the secret of the portal page's URL. */
public record StoredPortalSession(String id, String customer, @Nullable String returnUrl, long created) {}
