package com.kvportal.billing.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.PropertiesContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** {@code TRIAL_DAYS}: unset means no trials; 1 to 90 gives paid plans a trial; anything else stops the start. */
@Tag("spring")
class PlanPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(PlanProperties.class)
    static class Settings {}

    private final ApplicationContextRunner runner = PropertiesContext.of(Settings.class);

    @Test
    void unsetGivesNoPlanATrial() {
        runner.withPropertyValues("kvportal.billing.plans.trial-days=").run(context -> {
            assertThat(context).hasNotFailed();
            PlanProperties plans = context.getBean(PlanProperties.class);
            assertThat(plans.trialDaysOf(2000)).isZero();
            assertThat(plans.trialDaysOf(0)).isZero();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 14, 90})
    void daysFromOneToNinetyGoToThePaidPlansOnly(int days) {
        runner.withPropertyValues("kvportal.billing.plans.trial-days=" + days).run(context -> {
            assertThat(context).hasNotFailed();
            PlanProperties plans = context.getBean(PlanProperties.class);
            assertThat(plans.trialDaysOf(2000)).isEqualTo(days);
            assertThat(plans.trialDaysOf(10000)).isEqualTo(days);
            assertThat(plans.trialDaysOf(0)).as("free never has a trial").isZero();
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "91", "-1", "two weeks"})
    void anythingElseStopsTheStartAndSaysWhatToSet(String days) {
        runner.withPropertyValues("kvportal.billing.plans.trial-days=" + days).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isNotNull();
        });
    }
}
