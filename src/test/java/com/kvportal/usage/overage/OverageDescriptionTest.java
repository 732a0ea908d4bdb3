package com.kvportal.usage.overage;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.usage.reporting.StorageModel.Overage;
import com.kvportal.usage.reporting.StorageModel.Period;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OverageDescriptionTest {

    static final long GIB = 1L << 30;

    @Test
    void theInvoiceLineSaysHowManyUnitsAboveWhichAllowanceForWhichPeriod() {
        Plan pro = new Plan(UUID.randomUUID(), "Pro", Tier.PRO, 100 * GIB, 2000, 10 * GIB, 200);
        Period period = new Period(Instant.parse("2026-11-21T09:30:00Z"), Instant.parse("2026-12-21T09:30:00Z"));

        assertThat(StorageCharges.description(pro, new Overage(150 * GIB, 5, 1000), period))
                .isEqualTo("Storage overage: 5 × 10 GiB above 100 GiB (2026-11-21 – 2026-12-21)");
    }
}
