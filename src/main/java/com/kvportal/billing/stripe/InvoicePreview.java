package com.kvportal.billing.stripe;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * What an invoice the provider would make now comes to: the provider's own preview, nothing made.
 *
 * @param amountDueCents what the customer would be charged now (the lines' total, credits taken off)
 */
public record InvoicePreview(
        @Schema(description = "What would be charged now, in cents; the lines' total, credits taken off.")
                long amountDueCents,
        @Schema(example = "usd") String currency,
        List<Line> lines) {

    public InvoicePreview {
        lines = List.copyOf(lines);
    }

    /** Nothing charged now (a change that waits for the renewal), in the plans' currency, US dollars. */
    public static InvoicePreview nothing() {
        return new InvoicePreview(0, "usd", List.of());
    }

    /** One line: the new plan's period, or the credit of the old plan's unused time (negative). */
    public record Line(
            @Schema(example = "Unused time on Pro after 26 Nov 2026") String description,
            @Schema(description = "In cents; negative for a credit.") long amountCents) {}
}
