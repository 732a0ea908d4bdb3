package com.kvportal.sandbox.api;

import com.kvportal.sandbox.SandboxKey;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Lets the Stripe API's handler methods take their authenticated {@link StripeCall}. */
@Configuration(proxyBeanMethods = false)
@RequiredArgsConstructor
public class SandboxWebConfiguration implements WebMvcConfigurer {

    private final SandboxKey key;

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new StripeCallResolver(key));
    }
}
