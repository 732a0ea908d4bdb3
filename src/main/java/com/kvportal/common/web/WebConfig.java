package com.kvportal.common.web;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;
import tools.jackson.databind.type.LogicalType;

@Configuration(proxyBeanMethods = false)
class WebConfig {

    /**
     * The API's JSON conventions beyond snake_case:
     *
     * <ul>
     *   <li>a string field takes a JSON string only: Jackson would otherwise read {@code {"name": 5}} as the name
     *       "5"; a number or boolean where the API says string is a client mistake (400 validation_failed);
     *   <li>a body field the endpoint does not know is refused (400 validation_failed naming it), never ignored: a
     *       typo such as {@code scopes} for {@code permissions} must not pass as a request without it;
     *   <li>timestamps in whole seconds, {@code 2026-11-21T10:15:30Z}, as the contract shows them (and GitHub
     *       writes them), not with the database's microseconds.
     * </ul>
     */
    @Bean
    JsonMapperBuilderCustomizer apiJsonConventions() {
        SimpleModule wholeSeconds =
                new SimpleModule("whole-second-instants").addSerializer(Instant.class, new WholeSeconds());
        return builder -> builder.addModule(wholeSeconds)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .withCoercionConfig(LogicalType.Textual, config -> config.setCoercion(
                                CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    private static final class WholeSeconds extends StdSerializer<Instant> {
        WholeSeconds() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator generator, SerializationContext context) {
            generator.writeString(DateTimeFormatter.ISO_INSTANT.format(value.truncatedTo(ChronoUnit.SECONDS)));
        }
    }
}
