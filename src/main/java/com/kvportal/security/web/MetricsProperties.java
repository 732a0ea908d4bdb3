package com.kvportal.security.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param token the bearer token that opens every actuator endpoint but health ({@code METRICS_TOKEN}); empty: they
 *     answer 404 as if absent
 */
@ConfigurationProperties("kvportal.metrics")
record MetricsProperties(@DefaultValue("") String token) {}
