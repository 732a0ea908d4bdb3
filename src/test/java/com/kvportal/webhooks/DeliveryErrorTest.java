package com.kvportal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DeliveryErrorTest {

    @Test
    void shouldDocumentEveryCodeOfTheVocabularyAndNoOther() throws Exception {
        Schema schema = Delivery.class.getDeclaredField("lastError").getAnnotation(Schema.class);

        assertThat(schema.allowableValues())
                .containsExactly(Arrays.stream(DeliveryError.values())
                        .map(DeliveryError::code)
                        .toArray(String[]::new));
    }
}
