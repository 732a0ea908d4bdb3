package com.kvportal.billing.subscription;

import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the plans table (seeded by the migration, never written here). */
@Repository
@RequiredArgsConstructor
public class Plans {

    private static final String COLUMNS =
            "id, name, tier, storage_bytes, price_cents, overage_bytes, overage_price_cents";

    private final JdbcClient jdbc;

    /** Every plan, cheapest first. */
    public List<Plan> all() {
        return jdbc.sql("select " + COLUMNS + " from plans order by price_cents, tier")
                .query(Plans::plan)
                .list();
    }

    public Plan byTier(Tier tier) {
        return jdbc.sql("select " + COLUMNS + " from plans where tier = ?")
                .param(tier.wire())
                .query(Plans::plan)
                .single();
    }

    public Plan byId(UUID id) {
        return jdbc.sql("select " + COLUMNS + " from plans where id = ?")
                .param(id)
                .query(Plans::plan)
                .single();
    }

    static Plan plan(ResultSet rs, int row) throws SQLException {
        return plan(rs, "");
    }

    /** The plan in the row's columns whose names start with {@code prefix} ({@code p_tier} for {@code p_}). */
    static Plan plan(ResultSet rs, String prefix) throws SQLException {
        return new Plan(
                rs.getObject(prefix + "id", UUID.class),
                rs.getString(prefix + "name"),
                Tier.of(rs.getString(prefix + "tier")).orElseThrow(),
                rs.getLong(prefix + "storage_bytes"),
                rs.getLong(prefix + "price_cents"),
                rs.getLong(prefix + "overage_bytes"),
                rs.getLong(prefix + "overage_price_cents"));
    }
}
