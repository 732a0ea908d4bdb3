package com.kvportal.openapi;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.kvportal.common.validation.DisplayName;
import com.kvportal.common.validation.EmailAddress;
import com.kvportal.security.Role;
import com.kvportal.security.RoleName;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import jakarta.validation.constraints.NotNull;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.validator.constraints.CodePointLength;
import org.jspecify.annotations.Nullable;

/**
 * swagger-core's resolver of the schemas springdoc derives from records, with the API's snake_case property names.
 * swagger-core reads the standard Bean Validation annotations of a field, by name only; this one also states what the
 * shared constraints of {@code common.validation} check: a constraint composed of {@code @NotNull} (such as {@link
 * com.kvportal.common.validation.Required}) makes the field required, as {@code @NotNull} itself does (unless its
 * {@code @Schema} sets a required mode), one composed of {@code @CodePointLength} bounds its length (JSON Schema
 * counts code points too), and a {@link DisplayName} or an {@link EmailAddress} gives its bounds and whether it is
 * required; a {@link RoleName} lists the roles it takes as the field's enum and pattern.
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
        if (annotations == null) {
            return applied;
        }
        for (Annotation annotation : annotations) {
            if (annotation instanceof RoleName role) {
                List<String> allowed = Role.wiresExcept(role.except());
                property.setEnum(new ArrayList<>(allowed));
                property.setPattern(String.join("|", allowed));
            }
            Rule rule = Rule.of(annotation);
            if (rule == null) {
                continue;
            }
            if (rule.minLength() != null) {
                property.setMinLength(rule.minLength());
            }
            if (rule.maxLength() != null) {
                property.setMaxLength(rule.maxLength());
            }
            if (rule.required() && applyNotNullAnnotations) {
                applied = updateRequiredItem(parent, property.getName()) || applied;
            }
        }
        return applied;
    }

    /** What a constraint of ours checks, as the document states it. */
    private record Rule(boolean required, @Nullable Integer minLength, @Nullable Integer maxLength) {

        static @Nullable Rule of(Annotation constraint) {
            if (constraint instanceof DisplayName name) {
                return new Rule(name.required(), 1, name.max());
            }
            if (constraint instanceof EmailAddress) {
                return new Rule(true, null, EmailAddress.MAX_LENGTH);
            }
            Class<? extends Annotation> type = constraint.annotationType();
            boolean notNull = type.isAnnotationPresent(NotNull.class);
            CodePointLength length = type.getAnnotation(CodePointLength.class);
            if (length == null) {
                return notNull ? new Rule(true, null, null) : null;
            }
            return new Rule(
                    notNull,
                    length.min() > 0 ? length.min() : null,
                    length.max() < Integer.MAX_VALUE ? length.max() : null);
        }
    }
}
