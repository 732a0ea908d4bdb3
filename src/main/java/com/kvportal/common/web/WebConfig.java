package com.kvportal.common.web;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;
import tools.jackson.databind.type.LogicalType;

@Configuration(proxyBeanMethods = false)
class WebConfig {

    /**
     * The API's JSON conventions beyond snake_case:
     *
     * <ul>
     *   <li>each field takes its own JSON type only, never a coerced one (400 validation_failed naming the field):
     *       Jackson would otherwise read {@code {"name": 5}} as the name "5", {@code "60"} and {@code 60.0} as the
     *       integer 60, {@code "true"} and {@code 1} as true, a number as an enum's index or a date-time;
     *   <li>an object with a key twice is not read as its last value but refused (400 malformed_json): the sender
     *       meant one of them, and nobody can tell which;
     *   <li>a body field the endpoint does not know is refused (400 validation_failed naming it), never ignored: a
     *       typo such as {@code scopes} for {@code permissions} must not pass as a request without it;
     *   <li>timestamps in whole seconds, {@code 2026-11-21T10:15:30Z}, as docs/api.md states them (and GitHub
     *       writes them), not with the database's microseconds.
     * </ul>
     */
    @Bean
    JsonMapperBuilderCustomizer apiJsonConventions() {
        SimpleModule wholeSeconds =
                new SimpleModule("whole-second-instants").addSerializer(Instant.class, new WholeSeconds());
        return builder -> {
            builder.addModule(wholeSeconds)
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                    .enable(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS);
            refuse(
                    builder,
                    LogicalType.Textual,
                    CoercionInputShape.Integer,
                    CoercionInputShape.Float,
                    CoercionInputShape.Boolean);
            refuse(
                    builder,
                    LogicalType.Integer,
                    CoercionInputShape.String,
                    CoercionInputShape.EmptyString,
                    CoercionInputShape.Float,
                    CoercionInputShape.Boolean);
            refuse(
                    builder,
                    LogicalType.Float,
                    CoercionInputShape.String,
                    CoercionInputShape.EmptyString,
                    CoercionInputShape.Boolean);
            refuse(
                    builder,
                    LogicalType.Boolean,
                    CoercionInputShape.String,
                    CoercionInputShape.EmptyString,
                    CoercionInputShape.Integer,
                    CoercionInputShape.Float);
            refuse(
                    builder,
                    LogicalType.Enum,
                    CoercionInputShape.Integer,
                    CoercionInputShape.Float,
                    CoercionInputShape.Boolean);
            refuse(
                    builder,
                    LogicalType.DateTime,
                    CoercionInputShape.Integer,
                    CoercionInputShape.Float,
                    CoercionInputShape.Boolean);
        };
    }

    /** Values of these JSON shapes are not read into a field of the type: the field names what it takes instead. */
    private static void refuse(JsonMapper.Builder builder, LogicalType type, CoercionInputShape... shapes) {
        builder.withCoercionConfig(type, config -> {
            for (CoercionInputShape shape : shapes) {
                config.setCoercion(shape, CoercionAction.Fail);
            }
        });
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
