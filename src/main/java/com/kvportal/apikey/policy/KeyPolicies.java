package com.kvportal.apikey.policy;

import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Each organization's {@link KeyPolicy}, kept in key_policies (no row: the default policy). */
@Service
@RequiredArgsConstructor
public class KeyPolicies {

    private final JdbcClient jdbc;

    public KeyPolicy of(UUID organizationId) {
        return jdbc.sql("select max_lifetime_days, require_allowed_ips from key_policies where organization_id = ?")
                .param(organizationId)
                .query((rs, n) -> new KeyPolicy(
                        rs.getObject("max_lifetime_days", Integer.class), rs.getBoolean("require_allowed_ips")))
                .optional()
                .orElse(KeyPolicy.DEFAULT);
    }

    /** Replaces the organization's policy. */
    void replace(UUID organizationId, KeyPolicy policy) {
        jdbc.sql(
                        """
                        insert into key_policies (organization_id, max_lifetime_days, require_allowed_ips)
                        values (?, ?, ?)
                        on conflict (organization_id) do update
                        set max_lifetime_days = excluded.max_lifetime_days,
                            require_allowed_ips = excluded.require_allowed_ips, updated_at = now()""")
                .params(organizationId, policy.maxLifetimeDays(), policy.requireAllowedIps())
                .update();
    }
}
