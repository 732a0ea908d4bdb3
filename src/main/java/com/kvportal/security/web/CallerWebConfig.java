package com.kvportal.security.web;

import com.kvportal.security.Caller;
import com.kvportal.security.CallerRoles;
import com.kvportal.security.EmailVerifications;
import com.kvportal.security.Memberships;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets controllers take the request's {@link Caller} as a method parameter (the OpenAPI document leaves it out, as it
 * is no parameter of the API), and enforces every portal operation's declared permission ({@link
 * PermissionInterceptor}).
 */
@Configuration(proxyBeanMethods = false)
@RequiredArgsConstructor
class CallerWebConfig implements WebMvcConfigurer {

    private final Memberships memberships;
    private final CallerRoles roles;
    private final EmailVerifications emails;

    static {
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new CallerArgumentResolver());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new PermissionInterceptor(memberships, roles, emails));
    }
}
