package com.kvportal.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swagger.v3.oas.models.Operation;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The operations' texts file: read strictly, and a text missing or left over fails (the served document's
 * operations are held against the committed file in {@code OpenApiDocumentTest}).
 */
class OperationTextsTest {

    private static final String TWO =
            """
            createThing:
              summary: Create a thing
              description: >-
                Makes a thing,
                at once.
            listThings:
              summary: List the things
              description: Every thing.
            """;

    @Test
    void shouldFoldADescriptionsLinesIntoOneText() {
        Operation operation = new Operation().operationId("createThing");
        parse(TWO).describe(operation, "ThingController.createThing");
        assertThat(operation.getSummary()).isEqualTo("Create a thing");
        assertThat(operation.getDescription()).isEqualTo("Makes a thing, at once.");
    }

    @Test
    void shouldFailAnOperationWithoutAnEntry() {
        assertThatThrownBy(() -> parse(TWO).describe(new Operation().operationId("deleteThing"), "ThingController.x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ThingController.x")
                .hasMessageContaining("deleteThing")
                .hasMessageContaining(OperationTexts.RESOURCE);
    }

    @Test
    void shouldFailAnEntryWithoutAnOperation() {
        parse(TWO).requireExactly(Set.of("createThing", "listThings"));
        assertThatThrownBy(() -> parse(TWO).requireExactly(Set.of("createThing", "deleteThing")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[listThings]");
    }

    @Test
    void shouldRefuseAnOperationIdTwice() {
        assertThatThrownBy(() -> parse(TWO + TWO.lines().limit(3).reduce("", (a, b) -> a + b + "\n")))
                .hasMessageContaining("createThing");
    }

    @Test
    void shouldRefuseAMissingBlankOrUnknownField() {
        for (String entry : new String[] {
            "a:\n  summary: A\n",
            "a:\n  summary: A\n  description: ' '\n",
            "a:\n  summary: A\n  description: B\n  operationId: b\n",
            "a:\n  summary: [A]\n  description: B\n",
            "a: A\n"
        }) {
            assertThatThrownBy(() -> parse(entry))
                    .as(entry)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("a needs a summary and a description");
        }
    }

    @Test
    void shouldReadTheCommittedFile() {
        assertThat(OperationTexts.load().operationIds()).contains("createApiKey", "signUp", "listAuditEvents");
    }

    private static OperationTexts parse(String yaml) {
        return OperationTexts.parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }
}
