package com.kvportal.soak;

import com.kvportal.soak.Organization.Period;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceLineItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The end of the soak: per organization and period, what the provider was asked to bill (the overage lines on its
 * invoices, by their {@code period_start}) against {@link ExpectedOverage}, to the cent; every flat fee; nothing
 * billed twice, outside a period, or to a free organization. Prints the table and the seed.
 */
final class Reckoning {

    static final long FLAT_CENTS = 2000;

    /** One row: an organization's period, or a free organization's whole run. */
    record Row(
            Organization org,
            Period period,
            ExpectedOverage expected,
            long billedCents,
            long portalCents,
            String note) {

        long difference() {
            return billedCents - expected.cents();
        }

        /** {@code org 003 (pro, cancels in 1) period 1, final: expected $12.00 (6 units), billed $0.00}. */
        String describe() {
            return org.name() + " (" + org.story.label() + ") period " + period.number()
                    + (period.last() ? ", final" : "")
                    + ": expected " + cents(expected.cents()) + " (" + expected.units() + " units), billed "
                    + cents(billedCents);
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private long flatExpected;
    private long flatBilled;

    /** Reckons one organization: its provider invoices (paid ones) and what the portal says it billed. */
    void reckon(Organization org, List<Invoice> invoices, JsonNode portalPeriods, JsonNode portalInvoices) {
        if (!org.story.paid()) {
            if (!portalPeriods.isEmpty() || !portalInvoices.isEmpty()) {
                failures.add(
                        org.name() + " (free) was billed: periods " + portalPeriods + ", invoices " + portalInvoices);
            }
            long billed = 0;
            for (JsonNode period : portalPeriods) {
                billed += period.get("overage_cents").asLong();
            }
            rows.add(new Row(org, null, null, billed, billed, "free: nothing to bill"));
            return;
        }
        Map<String, List<InvoiceLineItem>> overage = new HashMap<>();
        int flatLines = 0;
        for (Invoice invoice : invoices) {
            long sum = 0;
            for (InvoiceLineItem line : invoice.getLines().getData()) {
                sum += line.getAmount();
                if ("storage_overage".equals(line.getMetadata().get("kind"))) {
                    if (!org.id.toString().equals(line.getMetadata().get("organization_id"))) {
                        failures.add(org.name() + ": an overage line of "
                                + line.getMetadata().get("organization_id") + " on its invoice " + invoice.getId());
                    }
                    if (line.getAmount() != line.getQuantity() * ExpectedOverage.UNIT_CENTS) {
                        failures.add(org.name() + ": overage line " + line.getId() + " of " + line.getQuantity()
                                + " units for " + line.getAmount() + " cents");
                    }
                    overage.computeIfAbsent(line.getMetadata().get("period_start"), p -> new ArrayList<>())
                            .add(line);
                } else {
                    flatLines++;
                    flatBilled += line.getAmount();
                    if (line.getAmount() != FLAT_CENTS) {
                        failures.add(org.name() + ": a flat fee of " + line.getAmount() + " on " + invoice.getId());
                    }
                }
            }
            if (sum != invoice.getAmountDue()) {
                failures.add(org.name() + ": invoice " + invoice.getId() + " is due " + invoice.getAmountDue()
                        + " for lines of " + sum);
            }
        }
        long renewals = org.periods.stream().filter(p -> !p.last()).count();
        // the first period's fee at checkout, and one at each renewal
        flatExpected += (1 + renewals) * FLAT_CENTS;
        if (flatLines != 1 + renewals) {
            failures.add(org.name() + ": " + flatLines + " flat fees billed for " + (1 + renewals) + " periods begun");
        }
        Map<String, Long> portal = new HashMap<>();
        portalPeriods.forEach(p -> portal.merge(
                p.get("period_start").asString(), p.get("overage_cents").asLong(), Long::sum));
        for (Period period : org.periods) {
            List<InvoiceLineItem> lines = overage.remove(period.start().toString());
            long billed = lines == null
                    ? 0
                    : lines.stream().mapToLong(InvoiceLineItem::getAmount).sum();
            if (lines != null && lines.size() > 1) {
                failures.add(org.name() + ": period " + period.number() + " billed " + lines.size() + " times");
            }
            ExpectedOverage expected = period.expected();
            String note = period.last() ? "final period, to the provider's ended_at " + period.end() : "";
            rows.add(new Row(
                    org,
                    period,
                    expected,
                    billed,
                    portal.getOrDefault(period.start().toString(), 0L),
                    note));
        }
        overage.forEach(
                (start, lines) -> failures.add(org.name() + ": overage billed for " + start + ", none of its periods: "
                        + lines.stream().map(InvoiceLineItem::getId).toList()));
    }

    List<Row> differences() {
        return rows.stream()
                .filter(r -> r.period() != null && r.difference() != 0)
                .toList();
    }

    /** The periods billed differently from docs/billing.md's overage rule, described: the final ones of a subscription, or the others. */
    List<String> differences(boolean finalPeriods) {
        return differences().stream()
                .filter(r -> r.period().last() == finalPeriods)
                .map(Row::describe)
                .toList();
    }

    List<String> failures() {
        return failures;
    }

    /** The table, the totals and the seed, as text; with {@code all} false, only the rows that differ. */
    String table(long seed, boolean all, int samples) {
        StringBuilder out = new StringBuilder();
        String format = "%-8s %-52s %-3s %-23s %7s %17s %5s %9s %9s %9s %9s  %s%n";
        out.append(String.format(
                format,
                "org",
                "story",
                "per",
                "span (UTC days)",
                "samples",
                "expected average",
                "units",
                "expected",
                "billed",
                "diff",
                "portal",
                "note"));
        long expected = 0;
        long billed = 0;
        int periods = 0;
        for (Row row : rows) {
            Period p = row.period();
            if (p == null) {
                if (all) {
                    out.append(String.format(
                            format,
                            row.org().name(),
                            row.org().story.label(),
                            "-",
                            "-",
                            "-",
                            "-",
                            "-",
                            "0",
                            row.billedCents(),
                            row.billedCents(),
                            "-",
                            row.note()));
                }
                continue;
            }
            periods++;
            expected += row.expected().cents();
            billed += row.billedCents();
            if (all || row.difference() != 0) {
                out.append(String.format(
                        format,
                        row.org().name(),
                        row.org().story.label(),
                        p.number(),
                        day(p.start()) + " - " + day(p.end()),
                        p.known().size(),
                        row.expected().averageBytes(),
                        row.expected().units(),
                        cents(row.expected().cents()),
                        cents(row.billedCents()),
                        row.difference() == 0 ? "0" : "<< " + cents(row.difference()),
                        cents(row.portalCents()),
                        row.note()));
            }
        }
        long organizations = rows.stream().map(Row::org).distinct().count();
        out.append(String.format(
                "%d organizations, %d billed periods, %d samples reported; overage expected %s, billed %s;"
                        + " flat fees expected %s, billed %s; %d periods differ (%d of them final periods of an"
                        + " ending subscription); %d other failures%n",
                organizations,
                periods,
                samples,
                cents(expected),
                cents(billed),
                cents(flatExpected),
                cents(flatBilled),
                differences().size(),
                differences().stream().filter(r -> r.period().last()).count(),
                failures.size()));
        out.append("seed ")
                .append(seed)
                .append(" (replay: -Dsoak.seed=")
                .append(seed)
                .append(")\n");
        return out.toString();
    }

    private static String day(Instant instant) {
        return instant.toString().substring(0, 10);
    }

    private static String cents(long cents) {
        return String.format("%s$%d.%02d", cents < 0 ? "-" : "", Math.abs(cents) / 100, Math.abs(cents) % 100);
    }
}
