package com.kvportal;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/** Fails the build when a feature reaches into another feature's internals or a cycle appears. */
class ModularityTests {

    @Test
    void featuresOnlyUseEachOthersPublicSurface() {
        ApplicationModules.of(KvPortalApplication.class).verify();
    }
}
