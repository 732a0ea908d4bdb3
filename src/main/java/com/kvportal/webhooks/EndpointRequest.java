package com.kvportal.webhooks;

import com.kvportal.common.validation.ReadableText;
import com.kvportal.common.web.FieldErrors;
import com.kvportal.webhooks.delivery.TargetPolicy;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.LinkedHashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The bodies of create and update, and the rules of their fields. */
final class EndpointRequest {

    static final int MAX_DESCRIPTION_LENGTH = 500;

    private EndpointRequest() {}

    record Create(
            @Schema(
                            requiredMode = Schema.RequiredMode.REQUIRED,
                            maxLength = TargetPolicy.MAX_URL_LENGTH,
                            description =
                                    "https:// only; never a loopback, private, link-local or multicast" + " address.",
                            example = "https://example.com/hooks/kv-portal")
                    @Nullable
                    String url,
            @ArraySchema(
                            arraySchema =
                                    @Schema(
                                            description = "The types to get; left out or [\"*\"]: every type, now"
                                                    + " and future."),
                            minItems = 1,
                            schema = @Schema(example = "api_key.created"))
                    @Nullable
                    List<String> events,
            @Schema(maxLength = MAX_DESCRIPTION_LENGTH, description = "Free text; default empty.") @Nullable
                    String description) {}

    record Update(
            @Schema(maxLength = TargetPolicy.MAX_URL_LENGTH, description = "Left out: unchanged.") @Nullable String url,
            @ArraySchema(arraySchema = @Schema(description = "Left out: unchanged; [\"*\"]: every type."), minItems = 1)
                    @Nullable
                    List<String> events,
            @Schema(maxLength = MAX_DESCRIPTION_LENGTH, description = "Left out: unchanged.") @Nullable
                    String description,
            @Schema(description = "true: no delivery is attempted; false: enabled again (pending deliveries resume).")
                    @Nullable
                    Boolean disabled) {}

    /** A url that may be saved, or a field error. */
    static void checkUrl(@Nullable String url, boolean required, TargetPolicy policy, FieldErrors errors) {
        if (url == null) {
            if (required) {
                errors.add("url", "is required: the https:// URL deliveries are POSTed to");
            }
            return;
        }
        policy.refusal(url).ifPresent(why -> errors.add("url", why));
    }

    /** The event filter to store for a sent list: null for every type ({@code ["*"]}), else the types, each once. */
    static @Nullable List<String> events(List<String> events, FieldErrors errors) {
        if (events.isEmpty()) {
            errors.add("events", "must name at least one type, or be [\"*\"] for every type");
            return null;
        }
        if (events.contains(EventTypes.ALL)) {
            if (events.size() > 1) {
                errors.add("events", "\"*\" stands for every type: send it alone");
            }
            return null;
        }
        for (String type : events) {
            if (type == null || !EventTypes.KNOWN.contains(type)) {
                errors.add("events", "must be types of: " + String.join(", ", EventTypes.KNOWN) + " (or [\"*\"])");
                return null;
            }
        }
        return List.copyOf(new LinkedHashSet<>(events));
    }

    static void checkDescription(@Nullable String description, FieldErrors errors) {
        if (description == null) {
            return;
        }
        if (description.codePointCount(0, description.length()) > MAX_DESCRIPTION_LENGTH) {
            errors.add("description", "must be at most " + MAX_DESCRIPTION_LENGTH + " characters");
        } else if (description.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\t')) {
            errors.add("description", "must not hold control characters (but line breaks and tabs)");
        } else if (ReadableText.hasHiddenCharacters(description)) {
            errors.add("description", ReadableText.HIDDEN_CHARACTERS);
        }
    }
}
