package com.kvportal.billing.subscription;

import com.kvportal.billing.BillingProblem.TierNotPurchasable;
import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.common.PaymentProvider;
import com.kvportal.common.database.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The plans: the SQL of the plans table (seeded by the migration, never written here), and the one mapping between a
 * plan and its price at the provider.
 */
@Repository
@RequiredArgsConstructor
public class Plans {

    private static final String COLUMNS =
            "id, name, tier, storage_bytes, price_cents, overage_bytes, overage_price_cents";

    private static final Logger log = LoggerFactory.getLogger(Plans.class);

    private final JdbcClient jdbc;
    private final PaymentProvider provider;
    private final PlanProperties properties;

    /**
     * The provider's price of a tier that can be bought.
     *
     * @throws TierNotPurchasable for free, and for team on Stripe without {@code STRIPE_PRICE_TEAM}
     */
    public String providerPrice(Tier tier) {
        return switch (tier) {
            case FREE -> throw new TierNotPurchasable(tier);
            case PRO -> provider.pricePro();
            case TEAM -> provider.priceTeam().orElseThrow(() -> new TierNotPurchasable(tier));
        };
    }

    /** The plan of a provider price; a price we do not sell grants nothing beyond free. */
    public Plan ofProviderPrice(@Nullable String priceId) {
        if (provider.pricePro().equals(priceId)) {
            return byTier(Tier.PRO);
        }
        if (priceId != null && provider.priceTeam().filter(priceId::equals).isPresent()) {
            return byTier(Tier.TEAM);
        }
        log.warn(
                "Provider price {} is neither the pro price {} nor the team price {}: recording the free plan",
                priceId,
                provider.pricePro(),
                provider.priceTeam().orElse("(none)"));
        return byTier(Tier.FREE);
    }

    /** Every plan, cheapest first. */
    public List<Plan> all() {
        return jdbc.sql("select " + COLUMNS + " from plans order by price_cents, tier")
                .query(this::plan)
                .list();
    }

    public Plan byTier(Tier tier) {
        return jdbc.sql("select " + COLUMNS + " from plans where tier = ?")
                .param(tier.wire())
                .query(this::plan)
                .single();
    }

    public Plan byId(UUID id) {
        return jdbc.sql("select " + COLUMNS + " from plans where id = ?")
                .param(id)
                .query(this::plan)
                .single();
    }

    Plan plan(ResultSet rs, int row) throws SQLException {
        return plan(rs, "");
    }

    /**
     * The plan in the row's columns whose names start with {@code prefix} ({@code p_tier} for {@code p_}), with the
     * trial days it offers ({@code TRIAL_DAYS}).
     */
    Plan plan(ResultSet rs, String prefix) throws SQLException {
        long priceCents = rs.getLong(prefix + "price_cents");
        return new Plan(
                rs.getObject(prefix + "id", UUID.class),
                rs.getString(prefix + "name"),
                Sql.wire(rs, prefix + "tier", Tier.class),
                rs.getLong(prefix + "storage_bytes"),
                priceCents,
                rs.getLong(prefix + "overage_bytes"),
                rs.getLong(prefix + "overage_price_cents"),
                properties.trialDaysOf(priceCents));
    }
}
