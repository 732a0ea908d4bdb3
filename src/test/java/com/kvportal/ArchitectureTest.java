package com.kvportal;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.CanBeAnnotated.Predicates.annotatedWith;
import static com.tngtech.archunit.lang.conditions.ArchPredicates.are;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.kvportal.common.web.ProblemException;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;
import org.springframework.stereotype.Controller;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * How every feature is built inside, checked on the compiled classes (no Spring context): the HTTP edge is a leaf
 * that nothing else calls, and a service's failures and HTTP bodies are types of their own, not nested in it.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("com.kvportal");

    /** A controller: annotated as one, or named so. */
    private static final DescribedPredicate<JavaClass> CONTROLLER = DescribedPredicate.describe(
            "a controller",
            c -> c.isAnnotatedWith(RestController.class)
                    || c.isAnnotatedWith(Controller.class)
                    || c.getSimpleName().endsWith("Controller"));

    /** Part of the HTTP edge: a controller, a type nested in one, or a class of a {@code web} package. */
    private static final DescribedPredicate<JavaClass> HTTP_EDGE = DescribedPredicate.describe(
            "part of the HTTP edge (a controller or its advice, or in a web package)",
            c -> CONTROLLER.test(c)
                    || c.isAnnotatedWith(ControllerAdvice.class)
                    || c.isAnnotatedWith(RestControllerAdvice.class)
                    || c.getEnclosingClass().map(CONTROLLER::test).orElse(false)
                    || c.getPackageName().endsWith(".web")
                    || c.getPackageName().contains(".web."));

    @Test
    void shouldLetOnlyTheHttpEdgeUseAController() {
        noClasses()
                .that(not(HTTP_EDGE))
                .should()
                .dependOnClassesThat(CONTROLLER)
                .because("a controller is the HTTP edge of its feature: services, jobs and listeners do not call it;"
                        + " what both need lives in the feature's service or a type of its own")
                .check(CLASSES);
    }

    @Test
    void shouldKeepExceptionsOutOfServices() {
        classes()
                .that(are(assignableTo(ProblemException.class)))
                .should(notBeNestedIn(annotatedWith(Service.class)))
                .because("a feature's failures live beside its problem codes (e.g. AccountProblem), where every"
                        + " part of the feature finds them, not inside the service that throws them first")
                .check(CLASSES);
    }

    /**
     * Every module shows a small public face at its top and keeps the rest in rooms by job below: no module's top
     * package holds more than 15 source files (package-info.java included). Read from the sources, since that is
     * what a reader opens.
     */
    @Test
    void shouldKeepEveryModulesTopToFifteenFilesAtMost() throws java.io.IOException {
        java.nio.file.Path root = java.nio.file.Path.of("src/main/java/com/kvportal");
        java.util.Map<String, Long> crowded = new java.util.TreeMap<>();
        try (var modules = java.nio.file.Files.list(root)) {
            for (java.nio.file.Path module :
                    modules.filter(java.nio.file.Files::isDirectory).toList()) {
                try (var files = java.nio.file.Files.list(module)) {
                    long count =
                            files.filter(f -> f.toString().endsWith(".java")).count();
                    if (count > 15) {
                        crowded.put(module.getFileName().toString(), count);
                    }
                }
            }
        }
        org.assertj.core.api.Assertions.assertThat(crowded)
                .as("modules whose top holds more than 15 files: move what is not their public face into a room")
                .isEmpty();
    }

    private static ArchCondition<JavaClass> notBeNestedIn(DescribedPredicate<? super JavaClass> outer) {
        return new ArchCondition<>("not be nested in a class that is " + outer.getDescription()) {
            @Override
            public void check(JavaClass item, ConditionEvents events) {
                item.getEnclosingClass()
                        .filter(outer)
                        .ifPresent(enclosing -> events.add(SimpleConditionEvent.violated(
                                item, item.getName() + " is nested in " + enclosing.getName())));
            }
        };
    }
}
