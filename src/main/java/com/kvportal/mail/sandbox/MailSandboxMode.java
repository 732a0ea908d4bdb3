package com.kvportal.mail.sandbox;

import com.kvportal.mail.MailProperties;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Registers a bean only while the mail sandbox is the transport ({@code SMTP_URL} unset), so that with an SMTP
 * server configured every {@code /sandbox/mail} path is a plain 404 and no embedded server starts.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Conditional(MailSandboxMode.Active.class)
@interface MailSandboxMode {

    final class Active implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String url = context.getEnvironment().getProperty(MailProperties.SMTP_URL);
            return url == null || url.isBlank();
        }
    }
}
