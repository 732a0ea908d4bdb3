package com.kvportal.usage;

import com.kvportal.common.web.FieldErrors;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An organization's usage limits: the alert thresholds (percent of the allowance), a storage cap in
 * bytes (any plan) and an overage cap in cents (plans with overage). A null cap is no cap.
 */
@Schema(name = "UsageLimits")
public record UsageLimits(
        @ArraySchema(
                        maxItems = UsageLimits.MAX_THRESHOLDS,
                        uniqueItems = true,
                        schema = @Schema(minimum = "1", maximum = "100"),
                        arraySchema =
                                @Schema(
                                        description =
                                                "Percent of the plan's allowance at which an alert is sent (a mail to the owners and billing members,"
                                                        + " the audit line usage.threshold_crossed), once per crossing;"
                                                        + " re-armed 5 % of the allowance below."))
                List<Integer> alertThresholdsPercent,
        @Schema(
                        description = "Writes are refused once the organization's storage reaches it; null: no cap.",
                        minimum = "0",
                        nullable = true)
                @Nullable
                Long storageCapBytes,
        @Schema(
                        description = "Writes are refused once the period's projected overage"
                                + " reaches it, and the overage billed for one period never exceeds it (0: writes"
                                + " stop at the allowance, no overage billed); null: no cap. Plans with overage only.",
                        minimum = "0",
                        nullable = true)
                @Nullable
                Long overageCapCents) {

    static final int MAX_THRESHOLDS = 5;
    public static final UsageLimits DEFAULTS = new UsageLimits(List.of(75, 90, 100), null, null);
    private static final List<String> FIELDS =
            List.of("alert_thresholds_percent", "storage_cap_bytes", "overage_cap_cents");

    public UsageLimits {
        alertThresholdsPercent = List.copyOf(alertThresholdsPercent);
    }

    /**
     * Reads a PUT body: the whole object, an omitted field taking its default. Fails with one 400
     * {@code validation_failed} naming every bad field (a field it does not know among them).
     */
    public static UsageLimits parse(@Nullable JsonNode body) {
        FieldErrors errors = new FieldErrors();
        if (body == null || !body.isObject()) {
            errors.add("body", "must be an object {alert_thresholds_percent, storage_cap_bytes, overage_cap_cents}")
                    .throwIfAny();
        }
        errors.unknownFields(body, "", FIELDS);
        List<Integer> thresholds = thresholds(body.get("alert_thresholds_percent"), errors);
        Long storageCap = amount(body, "storage_cap_bytes", errors);
        Long overageCap = amount(body, "overage_cap_cents", errors);
        errors.throwIfAny();
        return new UsageLimits(thresholds, storageCap, overageCap);
    }

    private static List<Integer> thresholds(@Nullable JsonNode node, FieldErrors errors) {
        String field = "alert_thresholds_percent";
        if (node == null) {
            return DEFAULTS.alertThresholdsPercent();
        }
        String shape = "must be an array of 0 to " + MAX_THRESHOLDS + " distinct integers from 1 to 100";
        if (!node.isArray() || node.size() > MAX_THRESHOLDS) {
            errors.add(field, shape);
            return List.of();
        }
        List<Integer> thresholds = new ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isIntegralNumber() || !item.canConvertToInt() || item.intValue() < 1 || item.intValue() > 100) {
                errors.add(field, shape);
                return List.of();
            }
            thresholds.add(item.intValue());
        }
        if (new HashSet<>(thresholds).size() != thresholds.size()) {
            errors.add(field, shape + " (a threshold appears twice)");
            return List.of();
        }
        return thresholds.stream().sorted().toList();
    }

    /** null (absent or JSON null: no cap) or an integer of at least 0. */
    private static @Nullable Long amount(JsonNode body, String field, FieldErrors errors) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
            errors.add(field, "must be null (no cap) or an integer of at least 0");
            return null;
        }
        return node.longValue();
    }

    /**
     * The storage at which an alert threshold of {@code percent} % of the allowance is reached: the fewest bytes
     * that are at least that share, ⌈percent × allowance / 100⌉.
     */
    public static long thresholdBytes(int percent, long allowanceBytes) {
        long scaled = Math.multiplyExact(allowanceBytes, (long) percent);
        return scaled / 100 + (scaled % 100 == 0 ? 0 : 1);
    }
}
