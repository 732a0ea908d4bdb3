package com.kvportal.openapi;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.type.filter.AssignableTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * Every problem code of the API, generated from the enums that implement {@link ProblemCode} (one per feature, found
 * on the class path: {@code common} cannot name the features' types), and the codes an operation names with its
 * {@code @...Problem.Codes} annotations (each marked {@link ProblemCodes}). An operation names enum constants, so a
 * code it answers is in the catalogue by construction.
 */
public final class ProblemCatalogue {

    private static final String BASE_PACKAGE = "com.kvportal";

    private ProblemCatalogue() {}

    /**
     * Every constant of every {@link ProblemCode} enum, by code and status.
     *
     * @throws IllegalStateException when two constants share a code and a status, or a ProblemCode is not an enum
     */
    public static List<ProblemCode> entries() {
        return Scanned.ENTRIES;
    }

    /** The codes that a handler method names, in the order of its annotations and their values. */
    static List<ProblemCode> declaredBy(Method method) {
        List<ProblemCode> codes = new ArrayList<>();
        for (Annotation annotation : method.getAnnotations()) {
            if (annotation.annotationType().isAnnotationPresent(ProblemCodes.class)) {
                if (!(AnnotationUtils.getValue(annotation) instanceof ProblemCode[] constants)) {
                    throw new IllegalStateException(
                            "@" + annotation.annotationType().getName()
                                    + " is marked @ProblemCodes but its value() is not an array of a ProblemCode enum");
                }
                codes.addAll(List.of(constants));
            }
        }
        return codes;
    }

    /** Scanned on first use (the document is built on its first request), once. */
    private static final class Scanned {
        private static final List<ProblemCode> ENTRIES = scan();
    }

    private static List<ProblemCode> scan() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AssignableTypeFilter(ProblemCode.class));
        List<ProblemCode> entries = new ArrayList<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents(BASE_PACKAGE)) {
            Class<?> type = ClassUtils.resolveClassName(
                    String.valueOf(candidate.getBeanClassName()), ProblemCatalogue.class.getClassLoader());
            ProblemCode[] constants = (ProblemCode[]) type.getEnumConstants();
            if (constants == null) {
                throw new IllegalStateException(type.getName() + " implements ProblemCode but is not an enum");
            }
            entries.addAll(List.of(constants));
        }
        entries.sort(Comparator.comparing(ProblemCode::code)
                .thenComparing(p -> p.status().value()));
        return requireUnique(entries);
    }

    /** The codes, unless two of them share a code and a status (one meaning per answer). */
    static List<ProblemCode> requireUnique(List<ProblemCode> entries) {
        Map<String, ProblemCode> byCodeAndStatus = new HashMap<>();
        for (ProblemCode entry : entries) {
            ProblemCode other = byCodeAndStatus.putIfAbsent(entry.status().value() + " " + entry.code(), entry);
            if (other != null) {
                throw new IllegalStateException(
                        "Problem code " + entry.code() + " at " + entry.status().value() + " is defined twice: "
                                + name(other) + " and " + name(entry) + "; keep one");
            }
        }
        return List.copyOf(entries);
    }

    private static String name(ProblemCode code) {
        return code instanceof Enum<?> constant
                ? constant.getDeclaringClass().getSimpleName() + "." + constant.name()
                : code.toString();
    }
}
