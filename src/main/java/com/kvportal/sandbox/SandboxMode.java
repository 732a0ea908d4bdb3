package com.kvportal.sandbox;

import com.kvportal.common.PaymentProperties;
import com.kvportal.common.PaymentProvider;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Registers a bean only while the sandbox is the payment provider ({@code STRIPE_SECRET_KEY} unset, the same
 * rule as {@code PaymentProvider}), so that with Stripe configured every {@code /sandbox/**} path is a plain 404.
 * Where it may then run at all is {@link SandboxExposure}'s start-up check.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Conditional(SandboxMode.Active.class)
@interface SandboxMode {

    final class Active implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return PaymentProvider.selectsSandbox(
                    context.getEnvironment().getProperty(PaymentProperties.STRIPE_SECRET_KEY));
        }
    }
}
