package com.kvportal;

import com.kvportal.sandbox.SandboxWing;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationExcludeFilter;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.modulith.Modulithic;

/**
 * kv-portal: the self-service portal for API keys and billing of a storage product. {@code @SpringBootApplication}
 * spelled out (and {@code @Modulithic}, which it implied for the module checks), so that the component scan leaves
 * the payment sandbox's tree to its one switch ({@link SandboxWing}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration(exclude = UserDetailsServiceAutoConfiguration.class)
@ComponentScan(
        excludeFilters = {
            @ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class),
            @ComponentScan.Filter(type = FilterType.CUSTOM, classes = AutoConfigurationExcludeFilter.class),
            @ComponentScan.Filter(type = FilterType.CUSTOM, classes = SandboxWing.OutsideTheAppScan.class)
        })
@ConfigurationPropertiesScan
@Modulithic
public class KvPortalApplication {

    public static void main(String[] args) {
        SpringApplication.run(KvPortalApplication.class, args);
    }
}
