package com.kvportal.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.account.AccountProblem;
import com.kvportal.apikey.ApiKeyProblem;
import com.kvportal.billing.BillingProblem;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import com.kvportal.support.ApiDocument;
import com.kvportal.support.IntegrationTest;
import com.kvportal.usage.UsageProblem;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The catalogue of problem codes, generated from the features' enums: one meaning per code and status, every code
 * documented by an operation, and the codes an operation names taken from the catalogue.
 */
class ProblemCatalogueTest extends IntegrationTest {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    private RequestMappingHandlerMapping handlers;

    @Test
    void shouldHoldEveryConstantOfEveryFeaturesEnumEachCodeOncePerStatus() {
        List<ProblemCode> entries = ProblemCatalogue.entries();
        for (ProblemCode[] values : List.<ProblemCode[]>of(
                CommonProblem.values(),
                AccountProblem.values(),
                ApiKeyProblem.values(),
                BillingProblem.values(),
                UsageProblem.values())) {
            assertThat(entries).contains(values);
        }
        Set<String> seen = new HashSet<>();
        entries.forEach(entry -> assertThat(seen.add(entry.status().value() + " " + entry.code()))
                .as("%s defined once at %s", entry.code(), entry.status())
                .isTrue());
        // a code answered with two statuses is two constants
        assertThat(ApiKeyProblem.API_KEY_REVOKED.code()).isEqualTo(ApiKeyProblem.PRESENTED_KEY_REVOKED.code());
        assertThat(ApiKeyProblem.API_KEY_REVOKED.status()).isNotEqualTo(ApiKeyProblem.PRESENTED_KEY_REVOKED.status());
    }

    @Test
    void shouldRefuseACodeDefinedTwiceAtOneStatus() {
        ProblemCode copy = () -> ApiKeyProblem.KEY_LIMIT_REACHED.getDefinition();
        assertThatThrownBy(() -> ProblemCatalogue.requireUnique(List.of(ApiKeyProblem.KEY_LIMIT_REACHED, copy)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("key_limit_reached at 409 is defined twice: ApiKeyProblem.KEY_LIMIT_REACHED");
        assertThat(ProblemCatalogue.requireUnique(
                        List.of(AccountProblem.INVALID_CODE, AccountProblem.INVALID_LOGIN_CODE)))
                .hasSize(2);
    }

    @Test
    void shouldDocumentEveryCodeOfTheCatalogueWithItsStatusMeaningAndExample() {
        JsonNode paths = com.kvportal.support.Api.JSON
                .readTree(ApiDocument.fetch(baseUrl()))
                .get("paths");
        Set<String> documented = new HashSet<>();
        paths.forEach(item -> item.forEach(
                operation -> operation.path("responses").properties().forEach(response -> response.getValue()
                        .at("/content/application~1problem+json/examples")
                        .properties()
                        .forEach(example -> {
                            JsonNode value = example.getValue().get("value");
                            documented.add(value.get("status").asInt() + " "
                                    + value.get("code").asString() + " "
                                    + example.getValue().get("summary").asString());
                        }))));
        List<String> missing = new ArrayList<>();
        for (ProblemCode entry : ProblemCatalogue.entries()) {
            String expected = entry.status().value() + " " + entry.code() + " "
                    + entry.getDefinition().meaning();
            if (!documented.contains(expected)) {
                missing.add(expected);
            }
        }
        assertThat(missing)
                .as("codes of the catalogue that no operation documents")
                .isEmpty();
    }

    @Test
    void shouldTakeEveryCodeAnOperationNamesFromTheCatalogue() {
        List<ProblemCode> named = new ArrayList<>();
        for (HandlerMethod handler : handlers.getHandlerMethods().values()) {
            named.addAll(ProblemCatalogue.declaredBy(handler.getMethod()));
        }
        assertThat(named)
                .as("the codes the operations name")
                .contains(
                        ApiKeyProblem.KEY_LIMIT_REACHED,
                        CommonProblem.TOO_MANY_REQUESTS,
                        UsageProblem.NOT_ON_THIS_PLAN);
        assertThat(ProblemCatalogue.entries()).containsAll(named);
    }

    @Test
    void shouldRefuseAMarkedAnnotationWhoseValueIsNotProblemCodes() throws NoSuchMethodException {
        Method method = ProblemCatalogueTest.class.getDeclaredMethod("markedWithStrings");
        assertThatThrownBy(() -> ProblemCatalogue.declaredBy(method))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("StringCodes is marked @ProblemCodes but its value() is not an array");
    }

    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    @interface StringCodes {
        String[] value();
    }

    @StringCodes("key_limit_reached")
    void markedWithStrings() {}
}
