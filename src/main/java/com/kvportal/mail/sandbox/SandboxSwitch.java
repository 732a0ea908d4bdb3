package com.kvportal.mail.sandbox;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The one setting of the sandboxes that the mail sandbox reads ({@code SANDBOX}, mapped to {@code
 * kvportal.sandbox.mode} in {@code application.yml}): {@code on} lets it run where the base URL is not a loopback
 * address. The payment sandbox binds its own settings, this one among them, only while it runs; the mail sandbox
 * needs it while Stripe is configured too.
 *
 * @param mode {@code on}, or empty
 */
@ConfigurationProperties("kvportal.sandbox")
record SandboxSwitch(@DefaultValue("") String mode) {}
