/**
 * Mail: an outbox written in the transaction of the change that causes a message and delivered after commit over
 * SMTP ({@code SMTP_URL}), or, without it, to the mail sandbox, a real SMTP server inside the service whose messages
 * a person reads at {@code /sandbox/mail}. {@link com.kvportal.mail.Mailer} is the feature's public surface.
 */
@ApplicationModule(allowedDependencies = {"common", "sandbox"})
@NullMarked
package com.kvportal.mail;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
