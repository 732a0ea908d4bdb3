package com.kvportal.sandbox;

import com.kvportal.common.PaymentProperties;
import com.kvportal.common.PaymentProvider;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.core.type.filter.TypeFilter;

/**
 * The payment sandbox's one switch: every bean of the package tree {@code com.kvportal.sandbox} is registered here
 * and only here, while {@link On} holds ({@code STRIPE_SECRET_KEY} unset, {@code PaymentProvider}'s rule). The
 * application's component scan leaves the tree out ({@link OutsideTheAppScan}), so a new sandbox class cannot run
 * beside real Stripe by being forgotten; with Stripe configured no sandbox bean exists and {@code /sandbox/**} is a
 * plain 404. Where it may then run at all is {@link SandboxExposure}'s start-up check.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(SandboxWing.On.class)
@ComponentScan(basePackageClasses = SandboxWing.class)
public class SandboxWing {

    /** Bound here rather than found by the application's properties scan, which would bind it with Stripe too. */
    @Bean
    SandboxProperties sandboxProperties(Environment environment) {
        return Binder.get(environment).bindOrCreate(SandboxProperties.PREFIX, SandboxProperties.class);
    }

    /** The sandbox is the payment provider: {@code STRIPE_SECRET_KEY} is unset. */
    static final class On implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return PaymentProvider.selectsSandbox(
                    context.getEnvironment().getProperty(PaymentProperties.STRIPE_SECRET_KEY));
        }
    }

    /**
     * The exclude filter of the application's component scan: the sandbox's tree but this class, which brings in
     * the rest when {@link On} holds.
     */
    public static final class OutsideTheAppScan implements TypeFilter {

        private static final Pattern TREE =
                Pattern.compile(Pattern.quote(SandboxWing.class.getPackageName()) + "\\..+");

        @Override
        public boolean match(MetadataReader reader, MetadataReaderFactory factory) {
            String name = reader.getClassMetadata().getClassName();
            return TREE.matcher(name).matches() && !name.equals(SandboxWing.class.getName());
        }
    }
}
