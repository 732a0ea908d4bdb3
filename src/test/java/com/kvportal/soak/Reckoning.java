package com.kvportal.soak;

import com.kvportal.soak.ExpectedOverage.Terms;
import com.kvportal.soak.Organization.Period;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceLineItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The end of the soak: per organization and period, what the provider was asked to bill (the overage lines on its
 * invoices, by their {@code period_start}) against {@link ExpectedOverage}, to the cent, on the plan the period had;
 * nothing billed twice, outside a period, or to a free organization. Per invoice, its plan's line (pro's or team's
 * price, a trial's $0), an upgrade's credit of unused time, and its subtotal, discount, tax and amount due against
 * {@link ExpectedInvoice}, at the provider and in the service, to the cent. Prints the tables and the seed.
 */
final class Reckoning {

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

    /** One invoice: what it should be, and what the provider and the service say it is (null: not there). */
    record InvoiceRow(
            Organization org,
            String invoice,
            String reason,
            ExpectedInvoice expected,
            ExpectedInvoice provider,
            @Nullable ExpectedInvoice service) {

        boolean differs() {
            return !expected.equals(provider) || !expected.equals(service);
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<InvoiceRow> invoiceRows = new ArrayList<>();
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
        Map<String, Period> periods = new HashMap<>();
        org.periods.forEach(p -> periods.put(p.start().toString(), p));
        Map<String, JsonNode> ours = new HashMap<>();
        portalInvoices.forEach(i -> ours.put(i.get("provider_invoice_id").asString(), i));
        Map<String, List<InvoiceLineItem>> overage = new HashMap<>();
        int subscriptionInvoices = 0;
        for (Invoice invoice : invoices) {
            long sum = 0;
            long flat = 0;
            long overageExpected = 0;
            List<InvoiceLineItem> plain = new ArrayList<>();
            for (InvoiceLineItem line : invoice.getLines().getData()) {
                sum += line.getAmount();
                if ("storage_overage".equals(line.getMetadata().get("kind"))) {
                    if (!org.id.toString().equals(line.getMetadata().get("organization_id"))) {
                        failures.add(org.name() + ": an overage line of "
                                + line.getMetadata().get("organization_id") + " on its invoice " + invoice.getId());
                    }
                    overage.computeIfAbsent(line.getMetadata().get("period_start"), p -> new ArrayList<>())
                            .add(line);
                    Period period = periods.get(line.getMetadata().get("period_start"));
                    overageExpected += period == null ? 0 : period.expected().cents();
                } else {
                    plain.add(line);
                }
            }
            if (sum != invoice.getSubtotal()) {
                failures.add(org.name() + ": invoice " + invoice.getId() + " has a subtotal of " + invoice.getSubtotal()
                        + " for lines of " + sum);
            }
            Instant start = Instant.ofEpochSecond(invoice.getPeriodStart());
            // the lines its plan is to bill, and the start of the service period its coupon is judged by (null: a
            // standalone invoice of overage, which no subscription discount reaches)
            List<Long> lines = new ArrayList<>();
            Instant servicePeriod = null;
            switch (invoice.getBillingReason()) {
                case "subscription_create" -> {
                    lines.add(org.story.plans().trial() ? 0 : Terms.PRO.priceCents);
                    servicePeriod = org.subscribedAt;
                }
                case "subscription_cycle" -> {
                    Period ended = periods.get(start.toString());
                    if (ended == null || ended.renewsOn() == null) {
                        failures.add(org.name() + ": renewal invoice " + invoice.getId() + " of no period renewed, "
                                + start);
                    } else {
                        lines.add(ended.renewsOn().priceCents);
                        servicePeriod = ended.end();
                    }
                }
                case "subscription_update" -> {
                    Organization.Upgrade upgrade = org.upgrades.stream()
                            .filter(u -> u.at().equals(start))
                            .findFirst()
                            .orElse(null);
                    if (upgrade == null) {
                        failures.add(
                                org.name() + ": plan change invoice " + invoice.getId() + " of no upgrade, " + start);
                    } else {
                        lines.add(Terms.TEAM.priceCents);
                        lines.add(upgrade.creditCents());
                        servicePeriod = upgrade.at();
                    }
                }
                default -> {}
            }
            if (servicePeriod != null) {
                subscriptionInvoices++;
            }
            List<Long> billedLines =
                    plain.stream().map(InvoiceLineItem::getAmount).sorted().toList();
            List<Long> expectedLines = lines.stream().sorted().toList();
            if (!billedLines.equals(expectedLines)) {
                failures.add(org.name() + ": invoice " + invoice.getId() + " (" + invoice.getBillingReason()
                        + ") bills the lines " + billedLines + ", expected " + expectedLines);
            }
            flatExpected += lines.stream().mapToLong(Long::longValue).sum();
            flatBilled += billedLines.stream().mapToLong(Long::longValue).sum();
            long subtotal = expectedLines.stream().mapToLong(Long::longValue).sum() + overageExpected;
            boolean discounted =
                    servicePeriod != null && org.story.plans().coupon().appliesAt(org.subscribedAt, servicePeriod);
            ExpectedInvoice expected = ExpectedInvoice.of(
                    subtotal,
                    org.story.plans().coupon(),
                    discounted,
                    org.story.plans().country());
            ExpectedInvoice provider = new ExpectedInvoice(
                    invoice.getSubtotal(),
                    invoice.getTotalDiscountAmounts().stream()
                            .mapToLong(Invoice.TotalDiscountAmount::getAmount)
                            .sum(),
                    invoice.getTotalTaxes().stream()
                            .mapToLong(Invoice.TotalTax::getAmount)
                            .sum(),
                    invoice.getAmountDue());
            JsonNode our = ours.get(invoice.getId());
            ExpectedInvoice service = our == null
                    ? null
                    : new ExpectedInvoice(
                            our.get("subtotal_cents").asLong(),
                            our.get("discount_cents").asLong(),
                            our.get("tax_cents").asLong(),
                            our.get("amount_due_cents").asLong());
            invoiceRows.add(
                    new InvoiceRow(org, invoice.getId(), invoice.getBillingReason(), expected, provider, service));
        }
        long begun = 1 + org.periods.stream().filter(p -> p.renewsOn() != null).count() + org.upgrades.size();
        if (subscriptionInvoices != begun) {
            failures.add(org.name() + ": " + subscriptionInvoices + " invoices of the subscription for " + begun
                    + " periods begun (checkout, renewals, upgrades)");
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
            if (lines != null) {
                for (InvoiceLineItem line : lines) {
                    if (line.getAmount() != line.getQuantity() * period.terms().unitCents) {
                        failures.add(org.name() + ": overage line " + line.getId() + " of " + line.getQuantity()
                                + " units for " + line.getAmount() + " cents on " + period.terms().tier);
                    }
                }
            }
            ExpectedOverage expected = period.expected();
            String note = period.last()
                    ? "final period, to the provider's ended_at " + period.end()
                    : period.cutShort() ? "cut short by the upgrade" : period.trial() ? "trial" : "";
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

    /** The invoices whose figures differ from the rules at the provider or in the service, described. */
    List<String> invoiceDifferences() {
        return invoiceRows.stream()
                .filter(InvoiceRow::differs)
                .map(r -> r.org().name() + " (" + r.org().story.label() + "; "
                        + r.org().story.plans().label()
                        + ") invoice " + r.invoice() + " (" + r.reason() + "): expected " + r.expected()
                        + ", provider " + r.provider() + ", service " + r.service())
                .toList();
    }

    /** The table, the totals and the seed, as text; with {@code all} false, only the rows that differ. */
    String table(long seed, boolean all, int samples) {
        StringBuilder out = new StringBuilder();
        String format = "%-8s %-64s %-24s %-3s %-4s %-23s %7s %17s %5s %9s %9s %9s %9s  %s%n";
        out.append(String.format(
                format,
                "org",
                "story",
                "country, coupon",
                "per",
                "plan",
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
                        row.org().story.plans().label(),
                        p.number() + (p.cutShort() ? "a" : ""),
                        p.trial() ? "trial" : p.terms().tier,
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
                        + " plan lines (fees, trials, credits) expected %s, billed %s; %d periods differ (%d of them"
                        + " final periods of an ending subscription); %d other failures%n",
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
        out.append(invoiceTable(all));
        out.append("seed ")
                .append(seed)
                .append(" (replay: -Dsoak.seed=")
                .append(seed)
                .append(")\n");
        return out.toString();
    }

    /**
     * Each invoice (with {@code all} false, only those that differ): subtotal, discount, tax and amount due as
     * computed here, at the provider and in the service.
     */
    private String invoiceTable(boolean all) {
        StringBuilder out = new StringBuilder();
        String format = "%-8s %-24s %-19s %-31s %-42s %-42s %s%n";
        out.append(String.format(
                format,
                "org",
                "country, coupon",
                "reason",
                "invoice",
                "expected subtotal - discount + tax = due",
                "provider",
                "service"));
        long due = 0;
        long discounts = 0;
        long taxes = 0;
        for (InvoiceRow row : invoiceRows) {
            due += row.expected().amountDue();
            discounts += row.expected().discount();
            taxes += row.expected().tax();
            if (all || row.differs()) {
                out.append(String.format(
                        format,
                        row.org().name(),
                        row.org().story.plans().label(),
                        row.reason(),
                        row.invoice(),
                        figures(row.expected()),
                        row.provider().equals(row.expected()) ? "same" : "<< " + figures(row.provider()),
                        row.service() == null
                                ? "<< not listed"
                                : row.service().equals(row.expected()) ? "same" : "<< " + figures(row.service())));
            }
        }
        out.append(String.format(
                "%d invoices compared at the provider and in the service: discounts %s, tax %s, due %s expected;"
                        + " %d differ%n",
                invoiceRows.size(),
                cents(discounts),
                cents(taxes),
                cents(due),
                invoiceDifferences().size()));
        return out.toString();
    }

    private static String figures(ExpectedInvoice i) {
        return cents(i.subtotal()) + " - " + cents(i.discount()) + " + " + cents(i.tax()) + " = "
                + cents(i.amountDue());
    }

    private static String day(Instant instant) {
        return instant.toString().substring(0, 10);
    }

    private static String cents(long cents) {
        return String.format("%s$%d.%02d", cents < 0 ? "-" : "", Math.abs(cents) / 100, Math.abs(cents) % 100);
    }
}
