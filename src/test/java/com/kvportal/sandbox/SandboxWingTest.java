package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.IntegrationTest;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.util.ClassUtils;

/**
 * With the sandbox on (no {@code STRIPE_SECRET_KEY}), its one switch registers every component of its tree, and its
 * tables are in its own schema.
 */
class SandboxWingTest extends IntegrationTest {

    @Autowired
    ApplicationContext context;

    /** Every class of the sandbox's tree that a component scan takes: with or without Stripe, none is left out. */
    static List<Class<?>> componentsOfTheTree() {
        ClassPathScanningCandidateComponentProvider scan = new ClassPathScanningCandidateComponentProvider(true);
        return scan.findCandidateComponents(SandboxWing.class.getPackageName()).stream()
                .map(BeanDefinition::getBeanClassName)
                .map(Objects::requireNonNull)
                .<Class<?>>map(name -> ClassUtils.resolveClassName(name, SandboxWingTest.class.getClassLoader()))
                .toList();
    }

    /** The names of the context's beans whose class lies in the sandbox's tree. */
    static List<String> sandboxBeans(ApplicationContext context) {
        String tree = SandboxWing.class.getPackageName() + ".";
        return List.of(context.getBeanDefinitionNames()).stream()
                .filter(name -> {
                    Class<?> type = context.getType(name);
                    return type != null
                            && ClassUtils.getUserClass(type).getName().startsWith(tree);
                })
                .toList();
    }

    @Test
    void shouldRegisterEveryComponentOfTheTree() {
        List<Class<?>> components = componentsOfTheTree();

        assertThat(components).hasSizeGreaterThan(20).contains(SandboxWing.class, SandboxKey.class);
        for (Class<?> component : components) {
            assertThat(context.getBeanNamesForType(component))
                    .as(component.getName())
                    .isNotEmpty();
        }
        assertThat(context.getBeanNamesForType(SandboxProperties.class)).hasSize(1);
    }

    @Test
    void shouldKeepItsTablesInItsOwnSchema() {
        assertThat(SandboxSchemaTest.sandboxTables(jdbc))
                .hasSize(16)
                .allMatch(table -> table.startsWith(SandboxDatabase.SCHEMA + "."));
        assertThat(count("select count(*) from information_schema.tables where table_schema = 'sandbox'"
                        + " and table_name = 'flyway_schema_history'"))
                .isEqualTo(1);
    }
}
