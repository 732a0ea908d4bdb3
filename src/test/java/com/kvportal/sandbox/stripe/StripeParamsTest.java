package com.kvportal.sandbox.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.gson.JsonParser;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

/** How the sandbox reads Stripe's form parameters, without the product's context. */
class StripeParamsTest {

    private static StripeParams params(String... keysAndValues) {
        Map<String, String[]> raw = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            raw.put(keysAndValues[i], new String[] {keysAndValues[i + 1]});
        }
        return StripeParams.of(raw);
    }

    /** The call is refused with Stripe's 400 naming this parameter. */
    private static void assertRefused(ThrowingSupplier<?> call, String param) {
        assertThatThrownBy(call::get).isInstanceOfSatisfying(StripeError.class, error -> {
            assertThat(error.status()).isEqualTo(400);
            assertThat(JsonParser.parseString(error.body())
                            .getAsJsonObject()
                            .getAsJsonObject("error")
                            .get("param")
                            .getAsString())
                    .isEqualTo(param);
        });
    }

    @Test
    void shouldReadAnEmptyValueAsUnsetAndTheFirstOfRepeatedValues() {
        StripeParams params =
                StripeParams.of(Map.of("email", new String[] {"a@b.c", "x@y.z"}, "name", new String[] {""}));

        assertThat(params.text("email")).isEqualTo("a@b.c");
        assertThat(params.text("name")).isNull();
        assertThat(params.has("name")).isTrue();
        assertRefused(() -> params.required("name"), "name");
    }

    @Test
    void shouldReadListsInStripeJavasTwoEncodingsIndexedFirst() {
        StripeParams params = params("expand[]", "c", "expand[1]", "b", "expand[0]", "a", "expanded", "x");

        assertThat(params.list("expand")).containsExactly("a", "b", "c");
    }

    @Test
    void shouldKeepLimitsAsStripeDoes() {
        assertThat(params().limit()).isEqualTo(10);
        assertThat(params("limit", "100").limit()).isEqualTo(100);
        assertRefused(() -> params("limit", "0").limit(), "limit");
        assertRefused(() -> params("limit", "101").limit(), "limit");
        assertRefused(() -> params("limit", "ten").limit(), "limit");
        assertThat(params("amount_decimal", "0.000000000001").decimal("amount_decimal"))
                .isEqualByComparingTo(new BigDecimal("0.000000000001"));
        assertRefused(() -> params("amount_decimal", "0.0000000000001").decimal("amount_decimal"), "amount_decimal");
        assertRefused(() -> params("amount_decimal", "-1").decimal("amount_decimal"), "amount_decimal");
        assertRefused(() -> params("paid", "yes").bool("paid"), "paid");
        assertRefused(() -> params("email", "not-an-address").email("email"), "email");
        assertRefused(() -> params("description", "x".repeat(501)).shortText("description"), "description");
    }

    @Test
    void shouldReadUnsetValuesAsNullAndNameTheKindAndValueItCannotRead() {
        assertThat(params().bool("paid")).isNull();
        assertThat(params().integer("amount")).isNull();
        assertThat(params().decimal("amount_decimal")).isNull();
        assertThat(params("paid", "false").bool("paid")).isFalse();
        assertThat(params("amount", "-5").integer("amount")).isEqualTo(-5L);
        assertThat(message(() -> params("paid", "yes").bool("paid"))).isEqualTo("Invalid boolean: yes");
        assertThat(message(() -> params("amount", "1.5").integer("amount"))).isEqualTo("Invalid integer: 1.5");
        assertThat(message(() -> params("amount_decimal", "1,5").decimal("amount_decimal")))
                .isEqualTo("Invalid decimal: 1,5");
    }

    private static String message(ThrowingSupplier<?> call) {
        StripeError error = (StripeError) catchThrowable(call::get);
        return JsonParser.parseString(error.body())
                .getAsJsonObject()
                .getAsJsonObject("error")
                .get("message")
                .getAsString();
    }

    @Test
    void shouldMergeMetadataRemovingEmptyValuesWithinFiftyKeys() {
        Map<String, String> changes =
                params("metadata[plan]", "pro", "metadata[old]", "").metadata("metadata");

        assertThat(StripeParams.merged(Map.of("old", "1", "keep", "2"), changes))
                .containsExactlyInAnyOrderEntriesOf(Map.of("keep", "2", "plan", "pro"));
        assertRefused(() -> params("metadata[a[b]]", "x").metadata("metadata"), "metadata[a[b]]");
        Map<String, String> fifty = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            fifty.put("k" + i, "v");
        }
        assertRefused(() -> StripeParams.merged(fifty, Map.of("one-more", "v")), "metadata");
        Map<String, String[]> fiftyOne = new LinkedHashMap<>();
        for (int i = 0; i < 51; i++) {
            fiftyOne.put("metadata[k" + i + "]", new String[] {"v"});
        }
        assertRefused(() -> StripeParams.of(fiftyOne).metadata("metadata"), "metadata");
    }

    @Test
    void shouldRefuseAnUnknownParameterButTakeTheCommonAndIgnoredOnes() {
        StripeParams params = params("email", "a@b.c", "expand[0]", "x", "metadata[k]", "v", "tax_exempt", "none");

        params.allowOnly(List.of("email", "metadata"), List.of("tax_exempt"));
        assertThatThrownBy(() -> params.allowOnly(List.of("email", "metadata"), List.of()))
                .isInstanceOfSatisfying(
                        StripeError.class, error -> assertThat(error.body()).contains("tax_exempt"));
    }

    @Test
    void shouldFingerprintTheSameParametersAlikeWhateverTheirOrder() {
        assertThat(params("a", "1", "b", "2").fingerprint())
                .isEqualTo(params("b", "2", "a", "1").fingerprint())
                .isNotEqualTo(params("a", "1", "b", "3").fingerprint())
                .isNotEqualTo(params("a", "1=b", "2").fingerprint());
    }
}
