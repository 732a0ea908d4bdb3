package com.kvportal.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.soak.ExpectedInvoice.Country;
import com.kvportal.soak.ExpectedInvoice.Coupon;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The soak's own reading of docs/billing.md's coupons, tax and proration, checked by hand before it judges invoices. */
class ExpectedInvoiceTest {

    private static final Instant SUBSCRIBED = Instant.parse("2026-01-31T10:00:00Z");

    @Test
    void shouldTakeTheCouponOffTheSubtotalThenTaxWhatIsLeftRoundedHalfUp() {
        // 2200 less 12.5 % (275) = 1925; 19 %: 365.75 -> 366
        assertThat(ExpectedInvoice.of(2200, Coupon.FOREVER_12_5_PERCENT, true, Country.DE))
                .isEqualTo(new ExpectedInvoice(2200, 275, 366, 2291));
        // 15 % of 2150: 322.5 -> 323; 1827 at 20 %: 365.4 -> 365
        assertThat(ExpectedInvoice.of(2150, Coupon.ONCE_15_PERCENT, true, Country.GB))
                .isEqualTo(new ExpectedInvoice(2150, 323, 365, 2192));
        // an amount off at most the subtotal
        assertThat(ExpectedInvoice.of(2000, Coupon.FOREVER_3000_OFF, true, Country.GB))
                .isEqualTo(new ExpectedInvoice(2000, 2000, 0, 0));
        // no coupon off a trial's 0, no tax in the US; a coupon that no longer applies takes nothing
        assertThat(ExpectedInvoice.of(0, Coupon.TWO_MONTHS_750_OFF, true, Country.DE))
                .isEqualTo(new ExpectedInvoice(0, 0, 0, 0));
        assertThat(ExpectedInvoice.of(2000, Coupon.TWO_MONTHS_750_OFF, false, Country.US))
                .isEqualTo(new ExpectedInvoice(2000, 0, 0, 2000));
    }

    @Test
    void shouldApplyACouponByItsDurationFromTheSubscriptionsStart() {
        assertThat(Coupon.ONCE_15_PERCENT.appliesAt(SUBSCRIBED, SUBSCRIBED)).isTrue();
        assertThat(Coupon.ONCE_15_PERCENT.appliesAt(SUBSCRIBED, SUBSCRIBED.plusSeconds(60)))
                .isFalse();
        // two calendar months from 31 January: to 31 March
        assertThat(Coupon.TWO_MONTHS_750_OFF.appliesAt(SUBSCRIBED, Instant.parse("2026-03-31T09:59:59Z")))
                .isTrue();
        assertThat(Coupon.TWO_MONTHS_750_OFF.appliesAt(SUBSCRIBED, Instant.parse("2026-03-31T10:00:00Z")))
                .isFalse();
        assertThat(Coupon.FOREVER_3000_OFF.appliesAt(SUBSCRIBED, Instant.parse("2030-01-01T00:00:00Z")))
                .isTrue();
        assertThat(Coupon.NONE.appliesAt(SUBSCRIBED, SUBSCRIBED)).isFalse();
    }

    @Test
    void shouldCreditTheUnusedTimeToTheSecondRoundedHalfUp() {
        Instant start = Instant.parse("2026-11-01T00:00:00Z");
        Instant end = start.plusSeconds(30 * 86_400);
        // 2000 × 1/3 = 666.67 -> 667
        assertThat(ExpectedInvoice.unusedTimeCredit(2000, start, end, start.plusSeconds(20 * 86_400)))
                .isEqualTo(-667);
        // 2000 × 3/2592000 = 0.0023 -> 0; 2000 × 1296/2592000 = 1 exactly; × 648/2592000 = 0.5 -> 1
        assertThat(ExpectedInvoice.unusedTimeCredit(2000, start, end, end.minusSeconds(3)))
                .isZero();
        assertThat(ExpectedInvoice.unusedTimeCredit(2000, start, end, end.minusSeconds(648)))
                .isEqualTo(-1);
        assertThat(ExpectedInvoice.unusedTimeCredit(2000, start, end, start)).isEqualTo(-2000);
    }
}
