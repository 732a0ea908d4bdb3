package com.kvportal.apikey.limits;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The columns of a key's limits, for queries on {@code api_keys}: appended to a select list (or a returning list),
 * they give each row its rate limits and credits, read back by {@link #hot} (for verify) or {@link #view} (for the
 * list).
 */
public final class LimitColumns {

    /** Two columns, {@code limits_ratelimits} and {@code limits_credits}; the query must name the table api_keys. */
    public static final String SELECT =
            """
            , (select r.ratelimits::text from api_key_ratelimits r where r.key_id = api_keys.id) as limits_ratelimits,
            (select json_build_object('remaining', c.remaining, 'generation', c.generation,
                'refill_amount', c.refill_amount, 'refill_interval', c.refill_interval, 'refill_day', c.refill_day,
                'next_refill_at', (extract(epoch from c.next_refill_at) * 1000)::bigint)::text
             from api_key_credits c where c.key_id = api_keys.id) as limits_credits"""
                    + " ";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LimitColumns() {}

    /** The limits verify enforces; one shared object for a key without any. */
    public static KeyLimits hot(ResultSet rs) throws SQLException {
        List<RateLimit> ratelimits = ratelimits(rs.getString("limits_ratelimits"));
        String credits = rs.getString("limits_credits");
        long generation =
                credits == null ? 0 : JSON.readTree(credits).get("generation").asLong();
        return ratelimits.isEmpty() && generation == 0 ? KeyLimits.NONE : new KeyLimits(ratelimits, generation);
    }

    /** The rate limits of a row. */
    public static List<RateLimit> ratelimits(ResultSet rs) throws SQLException {
        return ratelimits(rs.getString("limits_ratelimits"));
    }

    /** The credits of a row as the list shows them (a refill that is due counted as done), or null: unlimited. */
    public static @Nullable CreditsView view(ResultSet rs, Instant now) throws SQLException {
        String json = rs.getString("limits_credits");
        if (json == null) {
            return null;
        }
        JsonNode credits = JSON.readTree(json);
        long remaining = credits.get("remaining").asLong();
        JsonNode amount = credits.get("refill_amount");
        if (amount == null || amount.isNull()) {
            return new CreditsView(remaining, null, null);
        }
        JsonNode day = credits.get("refill_day");
        Credits.Refill refill = Credits.Refill.of(
                amount.asLong(), credits.get("refill_interval").asString(), day.isNull() ? null : day.asInt());
        Instant next = Instant.ofEpochMilli(credits.get("next_refill_at").asLong());
        if (!next.isAfter(now)) {
            return new CreditsView(refill.amountValue(), refill, refill.nextAfter(now));
        }
        return new CreditsView(remaining, refill, next);
    }

    static List<RateLimit> ratelimits(@Nullable String json) {
        if (json == null) {
            return List.of();
        }
        List<RateLimit> ratelimits = new ArrayList<>();
        for (JsonNode limit : JSON.readTree(json)) {
            ratelimits.add(new RateLimit(
                    limit.get("name").asString(),
                    limit.get("limit").asLong(),
                    limit.get("duration_ms").asLong()));
        }
        return List.copyOf(ratelimits);
    }

    static String json(List<RateLimit> ratelimits) {
        var array = JSON.createArrayNode();
        for (RateLimit limit : ratelimits) {
            array.addObject()
                    .put("name", limit.nameValue())
                    .put("limit", limit.limitValue())
                    .put("duration_ms", limit.duration());
        }
        return array.toString();
    }
}
