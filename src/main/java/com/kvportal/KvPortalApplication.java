package com.kvportal;

import com.kvportal.sandbox.SandboxWing;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurationExcludeFilter;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.modulith.Modulithic;

/**
 * kv-portal: the self-service portal for API keys and billing of a storage product. Its own {@code @ComponentScan}
 * replaces the one {@code @SpringBootApplication} brings (a scan declared on the class wins over a meta-present one),
 * so that the scan leaves the payment sandbox's tree to its one switch ({@link SandboxWing}); {@code
 * @SpringBootApplication} stays, for Spring Modulith's module tests find the application by it.
 */
@SpringBootApplication(exclude = UserDetailsServiceAutoConfiguration.class)
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
