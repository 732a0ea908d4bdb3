package com.kvportal.sandbox;

/** A recurring price the sandbox knows (seeded by the migration: {@code price_sandbox_pro}). */
record StoredPrice(
        String id, String product, String nickname, long unitAmount, String currency, String interval, long created) {}
