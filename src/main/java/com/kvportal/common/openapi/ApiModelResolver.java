package com.kvportal.common.openapi;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import jakarta.validation.constraints.NotNull;
import java.lang.annotation.Annotation;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * swagger-core's resolver of the schemas springdoc derives from records, with the API's snake_case property names.
 * It reads a constraint composed of {@code @NotNull} (such as {@link com.kvportal.common.validation.Required}) as
 * swagger-core reads {@code @NotNull} itself, which it matches by name only: the property is required, unless its
 * {@code @Schema} sets a required mode.
 */
final class ApiModelResolver extends ModelResolver {

    ApiModelResolver() {
        super(Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
    }

    @Override
    protected boolean applyBeanValidatorAnnotations(
            Schema property,
            Annotation @Nullable [] annotations,
            @Nullable Schema parent,
            boolean applyNotNullAnnotations) {
        boolean applied = super.applyBeanValidatorAnnotations(property, annotations, parent, applyNotNullAnnotations);
        if (applyNotNullAnnotations
                && annotations != null
                && Arrays.stream(annotations).anyMatch(ApiModelResolver::composedOfNotNull)) {
            return updateRequiredItem(parent, property.getName()) || applied;
        }
        return applied;
    }

    private static boolean composedOfNotNull(Annotation annotation) {
        return annotation.annotationType().isAnnotationPresent(NotNull.class);
    }
}
