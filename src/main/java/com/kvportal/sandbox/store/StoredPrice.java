package com.kvportal.sandbox.store;

/** A recurring price the sandbox knows (seeded by the migration: {@code price_sandbox_pro}). */
public record StoredPrice(
        String id, String product, String nickname, long unitAmount, String currency, String interval, long created) {}
