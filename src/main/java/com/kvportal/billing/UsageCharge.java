package com.kvportal.billing;

/**
 * What usage answers billing for a period ({@link UsageCharges}): the measure and what it costs, in
 * {@link Plan#CURRENCY}.
 *
 * @param averageBytes the storage the period held, averaged over its length
 * @param quantity the units billed (0: nothing to bill)
 * @param unitAmountCents the price of one unit
 * @param amountCents what the units cost: {@code quantity × unitAmountCents}
 * @param description the line's text on the invoice
 */
public record UsageCharge(
        long averageBytes, long quantity, long unitAmountCents, long amountCents, String description) {

    public UsageCharge {
        if (averageBytes < 0 || quantity < 0 || unitAmountCents < 0 || amountCents != quantity * unitAmountCents) {
            throw new IllegalArgumentException("a usage charge of " + quantity + " × " + unitAmountCents + " is not "
                    + amountCents + " (average " + averageBytes + ")");
        }
    }
}
