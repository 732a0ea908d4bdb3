package com.kvportal.apikey.web;

import com.kvportal.apikey.fields.Checked;
import com.kvportal.apikey.fields.Checked.Rule;
import io.swagger.v3.oas.annotations.media.Schema;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;

/**
 * The optional body of verify: the address of the client the storage backend is serving ({@code client_ip}, which a
 * key's allowed addresses must hold) and what this use costs ({@code cost}, 0-1,000, by default 1).
 */
public record VerifyRequest(
        @Schema(
                        description = "The IPv4 or IPv6 address of the client the storage backend is serving; needed"
                                + " for a key with allowed_ips.",
                        example = "203.0.113.7")
                @Checked(Rule.CLIENT_IP)
                @Nullable
                String clientIp,
        @Schema(
                        description = "What this use costs against the key's rate limits and credits.",
                        minimum = "0",
                        maximum = "1000",
                        defaultValue = "1")
                @Range(min = 0, max = MAX_COST, message = COST_RULE)
                @Nullable
                Integer cost) {

    static final int MAX_COST = 1000;
    private static final String COST_RULE = "must be an integer from 0 to " + MAX_COST;

    public int costOrDefault() {
        return cost == null ? 1 : cost;
    }

    /** A verify without a body. */
    static final VerifyRequest NONE = new VerifyRequest(null, null);
}
