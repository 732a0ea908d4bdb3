package com.kvportal;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * Fails the build when a feature reaches into another feature's internals, depends on a module its
 * {@code package-info.java} does not allow ({@code @ApplicationModule(allowedDependencies = ...)}), or a cycle
 * appears. A new module declares its own allowed dependencies; a module that starts to depend on it adds it to
 * its own list.
 */
class ModularityTests {

    private static final ApplicationModules MODULES = ApplicationModules.of(KvPortalApplication.class);

    @Test
    void featuresOnlyUseEachOthersPublicSurface() {
        MODULES.verify();
    }

    /** The module diagram (PlantUML, C4 style) and one canvas per module, in {@code target/spring-modulith-docs}. */
    @Test
    void writesTheModuleDiagramIntoTarget() {
        new Documenter(MODULES)
                .writeModulesAsPlantUml()
                .writeIndividualModulesAsPlantUml()
                .writeModuleCanvases();
    }
}
