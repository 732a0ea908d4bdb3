package com.kvportal.sandbox.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The sandbox's arithmetic of an invoice: subtotal, discount, tax and amount due, as its lines change. */
class StoredInvoiceAmountsTest {

    private static StoredInvoice draftOf(long subtotal) {
        return StoredInvoice.standalone("in_Test", "cus_Test", false, null, 0).withLineOf(subtotal);
    }

    @Test
    void shouldTakeAPercentageOffTheWholeSubtotalRoundedHalfUpAndFollowNewLines() {
        StoredInvoice invoice = draftOf(2150).withDiscount("di_Test", new BigDecimal("12.5"), null);

        assertThat(invoice.discountAmount()).isEqualTo(269); // 268.75
        assertThat(invoice.amountDue()).isEqualTo(2150 - 269);
        StoredInvoice grown = invoice.withLineOf(850);
        assertThat(grown.subtotal()).isEqualTo(3000);
        assertThat(grown.discountAmount()).isEqualTo(375);
        assertThat(grown.amountDue()).isEqualTo(2625);
    }

    @Test
    void shouldCapAnAmountOffAtTheSubtotalAndTakeNothingOffACredit() {
        assertThat(draftOf(300).withDiscount("di_Test", null, 500L).amountDue()).isZero();
        StoredInvoice credit = draftOf(-400).withDiscount("di_Test", new BigDecimal("50"), null);
        assertThat(credit.discountAmount()).isZero();
        assertThat(credit.amountDue()).isEqualTo(-400);
    }

    @Test
    void shouldTaxTheSubtotalAfterTheDiscountRoundedHalfUpAwayFromZero() {
        // 2150 at 19 %: 408.5 -> 409 (half-even would say 408)
        StoredInvoice taxed = draftOf(2150).withTax("DE", new BigDecimal("19"));
        assertThat(taxed.tax()).isEqualTo(409);
        assertThat(taxed.amountDue()).isEqualTo(2559);
        // 1800 after a 10 % discount, 20 %: 360
        StoredInvoice discounted =
                draftOf(2000).withDiscount("di_Test", BigDecimal.TEN, null).withTax("GB", BigDecimal.valueOf(20));
        assertThat(discounted.tax()).isEqualTo(360);
        assertThat(discounted.amountDue()).isEqualTo(2160);
        assertThat(draftOf(-2150).withTax("DE", new BigDecimal("19")).tax()).isEqualTo(-409);
        assertThat(draftOf(2000).withTax("US", BigDecimal.ZERO).amountDue()).isEqualTo(2000);
    }

    @Test
    void shouldChargeNothingForATrialsFirstInvoiceWhateverItsDiscountAndTax() {
        // the trial's $0 line: a coupon and the tax are priced onto it after it was made, as at checkout
        StoredInvoice trial = draftOf(2000)
                .ofTrial()
                .withDiscount("di_Test", new BigDecimal("15"), null)
                .withTax("GB", BigDecimal.valueOf(20));

        assertThat(trial.subtotal()).isZero();
        assertThat(trial.discountAmount()).isZero();
        assertThat(trial.tax()).isZero();
        assertThat(trial.amountDue()).isZero();
        assertThat(draftOf(2000).ofTrial().withTax("US", BigDecimal.ZERO).amountDue())
                .isZero();
    }

    @Test
    void shouldTellATrialsFirstInvoiceFromAFirstInvoiceACouponTakesToZero() {
        StoredPrice pro = new StoredPrice("price_pro", "prod_pro", "Pro", 2000, "usd", "month", 0);
        StoredSubscription subscription = new StoredSubscription(
                "sub_Test",
                "cus_Test",
                "active",
                pro.id(),
                1,
                "si_Test",
                0,
                0,
                0,
                100,
                false,
                null,
                null,
                null,
                java.util.Map.of(),
                null,
                0,
                null,
                null);
        StoredInvoice first =
                StoredInvoice.draft("in_Test", subscription, "subscription_create", pro, 0, 0, 0, 100, 0, null);

        StoredInvoice freeOfCharge = first.withDiscount("di_Test", null, 3000L);
        assertThat(freeOfCharge.amountDue()).isZero();
        assertThat(freeOfCharge.isTrialStart())
                .as("pro's price, all of it discounted")
                .isFalse();
        assertThat(first.ofTrial().isTrialStart()).isTrue();
    }
}
