package com.kvportal.billing.ids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.common.Parsed;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The provider's typed ids: each takes only its own type's ids, and two are equal only when of one type. */
class ProviderIdTest {

    static Stream<Arguments> types() {
        return Stream.of(
                Arguments.of((Function<String, ProviderId>) ProviderCustomerId::new, "cus_NffrFeUfNV2Hib", "sub_1"),
                Arguments.of(
                        (Function<String, ProviderId>) ProviderSubscriptionId::new,
                        "sub_1MowQVLkdIwHu7ixeRlqHVzs",
                        "sub_sched_1Mr3YdLkdIwHu7ixjop3qtff"),
                Arguments.of(
                        (Function<String, ProviderId>) ProviderInvoiceId::new,
                        "in_1MtHbELkdIwHu7ixl4OzzPMv",
                        "ii_1MtHbELkdIwHu7ixl4OzzPMv"),
                Arguments.of((Function<String, ProviderId>) ProviderInvoiceItemId::new, "ii_Test", "in_Test"));
    }

    @ParameterizedTest
    @MethodSource("types")
    void takesAnIdOfItsTypeAsTheProviderWroteItAndRefusesAnyOther(
            Function<String, ProviderId> type, String ofItsType, String ofAnother) {
        ProviderId id = type.apply(ofItsType);

        assertThat(id.value()).isEqualTo(ofItsType);
        assertThat(id).hasToString(ofItsType).isEqualTo(type.apply(ofItsType));
        assertThat(Parsed.orEmpty(ofItsType, type)).contains(id);
        for (String refused : new String[] {ofAnother, "", "cus_", "in_a-b", "in_a b", "IN_x"}) {
            if (!refused.equals(ofItsType)) {
                assertThatThrownBy(() -> type.apply(refused)).isInstanceOf(IllegalArgumentException.class);
                assertThat(Parsed.orEmpty(refused, type)).isEmpty();
            }
        }
        assertThat(Parsed.orEmpty(null, type)).isEmpty();
    }

    @Test
    void idsOfDifferentTypesAreNeverEqual() {
        assertThat(new ProviderInvoiceId("in_1")).isNotEqualTo(new ProviderInvoiceItemId("ii_1"));
        assertThat((Object) new ProviderInvoiceId("in_1")).isNotEqualTo("in_1");
        assertThat(new ProviderInvoiceId("in_1").hashCode()).isEqualTo(new ProviderInvoiceId("in_1").hashCode());
    }

    @Test
    void anAbsentIdIsNoTextAndNoTextIsNoId() {
        assertThat(ProviderId.valueOf(null)).isNull();
        assertThat(ProviderId.valueOf(new ProviderCustomerId("cus_1"))).isEqualTo("cus_1");
        assertThat(ProviderId.ofNullable(null, ProviderInvoiceId::new)).isNull();
        assertThat(ProviderId.ofNullable("in_1", ProviderInvoiceId::new)).isEqualTo(new ProviderInvoiceId("in_1"));
        assertThatThrownBy(() -> ProviderId.ofNullable("cus_1", ProviderInvoiceId::new))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
