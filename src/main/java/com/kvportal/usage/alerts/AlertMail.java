package com.kvportal.usage.alerts;

import com.kvportal.billing.Plan;
import com.kvportal.mail.Mail;
import com.kvportal.usage.UsageLimits;
import com.kvportal.usage.WriteRefusal;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The words of a usage alert's mail (template {@code mail/notice}): what happened to which organization, what it
 * means on its plan and what the reader can do, with a link to the billing page's limits and alerts.
 */
public final class AlertMail {

    private static final BigDecimal GIB = BigDecimal.valueOf(1L << 30);

    private AlertMail() {}

    static Mail thresholdCrossed(String to, String organization, int percent, long usedBytes, Plan plan, String link) {
        String next = plan.overageBytes() > 0
                ? "Storage above the allowance is billed as overage at " + dollars(plan.overagePriceCents()) + " per "
                        + gib(plan.overageBytes())
                        + " (on the period's average), up to your overage cap if you set one."
                : "When storage reaches the allowance, writes are refused until you delete data or upgrade.";
        return mail(
                to,
                organization + ": storage reached " + percent + " % of the allowance",
                organization + " stores " + gib(usedBytes) + ", which reached your alert threshold of " + percent
                        + " % of the " + gib(plan.storageBytes()) + " allowance of the " + plan.name() + " plan.",
                next,
                link);
    }

    static Mail writesRefused(
            String to,
            String organization,
            WriteRefusal reason,
            long usedBytes,
            Plan plan,
            UsageLimits limits,
            String link) {
        String why =
                switch (reason) {
                    case STORAGE_CAP ->
                        "its storage (" + gib(usedBytes) + ") reached your storage cap of "
                                + gib(required(limits.storageCapBytes())) + ".";
                    case OVERAGE_CAP ->
                        "the period's projected overage reached your overage cap of "
                                + dollars(required(limits.overageCapCents())) + " (storage " + gib(usedBytes)
                                + ", allowance " + gib(plan.storageBytes()) + ").";
                    case ALLOWANCE_REACHED ->
                        "its storage (" + gib(usedBytes) + ") reached the " + gib(plan.storageBytes())
                                + " allowance of the " + plan.name() + " plan.";
                };
        String next =
                switch (reason) {
                    case STORAGE_CAP -> "Raise or remove the storage cap, or delete data, to write again.";
                    case OVERAGE_CAP -> "Raise or remove the overage cap, or delete data, to write again.";
                    case ALLOWANCE_REACHED -> "Upgrade to a plan with more storage, or delete data, to write again.";
                };
        return mail(
                to,
                organization + ": writes are refused (" + reason.wire() + ")",
                "Writes to " + organization + " are refused: " + why + " Reads go on.",
                next,
                link);
    }

    static Mail writesAllowed(String to, String organization, long usedBytes, String link) {
        return mail(
                to,
                organization + ": writes are allowed again",
                organization + " stores " + gib(usedBytes) + " and writes are accepted again.",
                "No action is needed.",
                link);
    }

    private static Mail mail(String to, String subject, String what, String next, String link) {
        return new Mail(
                to,
                subject,
                "notice",
                Map.of("subject", subject, "what", what, "next", next, "linkLabel", "Limits and alerts", "link", link));
    }

    /** {@code 92.5 GiB}: bytes in GiB to two decimals, trailing zeros dropped; under 0.01 GiB in bytes. */
    static String gib(long bytes) {
        if (bytes < (1L << 30) / 100) {
            return bytes + (bytes == 1 ? " byte" : " bytes");
        }
        return BigDecimal.valueOf(bytes)
                        .divide(GIB, 2, RoundingMode.HALF_UP)
                        .stripTrailingZeros()
                        .toPlainString()
                + " GiB";
    }

    /** {@code $12.50}. */
    static String dollars(long cents) {
        return "$" + BigDecimal.valueOf(cents, 2).toPlainString();
    }

    private static long required(@Nullable Long value) {
        if (value == null) {
            throw new IllegalStateException("a refusal by a cap without that cap");
        }
        return value;
    }
}
