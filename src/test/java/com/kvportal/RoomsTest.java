package com.kvportal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The rooms inside usage and billing: no domain class imports its module's endpoints ({@code web}), and billing's
 * sub-packages import downwards only (endpoints and the provider's events on top, the stripe-java adapter at the
 * bottom), so that no import runs back up.
 */
class RoomsTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("com.kvportal.usage", "com.kvportal.billing");

    @Test
    void noDomainClassOfUsageOrBillingImportsItsModulesEndpoints() {
        noClasses()
                .that()
                .resideInAPackage("com.kvportal.usage..")
                .and()
                .resideOutsideOfPackage("com.kvportal.usage.web..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("com.kvportal.usage.web..")
                .check(CLASSES);
        noClasses()
                .that()
                .resideInAPackage("com.kvportal.billing..")
                .and()
                .resideOutsideOfPackage("com.kvportal.billing.web..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("com.kvportal.billing.web..")
                .check(CLASSES);
    }

    @Test
    void billingsSubPackagesImportDownwardsOnly() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("web")
                .definedBy("com.kvportal.billing.web..")
                .layer("providerevents")
                .definedBy("com.kvportal.billing.providerevents..")
                .layer("checkout")
                .definedBy("com.kvportal.billing.checkout..")
                .layer("invoice")
                .definedBy("com.kvportal.billing.invoice..")
                .layer("subscription")
                .definedBy("com.kvportal.billing.subscription..")
                .layer("stripe")
                .definedBy("com.kvportal.billing.stripe..")
                .whereLayer("web")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("providerevents")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("checkout")
                .mayOnlyBeAccessedByLayers("web", "providerevents")
                .whereLayer("invoice")
                .mayOnlyBeAccessedByLayers("web", "providerevents")
                .whereLayer("subscription")
                .mayOnlyBeAccessedByLayers("web", "providerevents", "checkout", "invoice")
                .check(CLASSES);
    }
}
