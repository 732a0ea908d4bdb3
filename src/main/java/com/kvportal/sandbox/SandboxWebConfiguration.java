package com.kvportal.sandbox;

import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Lets the Stripe API's handler methods take their authenticated {@link StripeCall}. */
@Configuration(proxyBeanMethods = false)
@SandboxMode
class SandboxWebConfiguration implements WebMvcConfigurer {

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new StripeCallResolver());
    }
}
