package com.kvportal.mail;

import java.util.Locale;
import org.springframework.stereotype.Component;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

/** Renders a message's text and HTML parts from {@code mail/<name>.txt} and {@code mail/<name>.html}. */
@Component
class MailTemplates {

    record Rendered(String text, String html) {}

    private final TemplateEngine text = engine(TemplateMode.TEXT, ".txt");
    private final TemplateEngine html = engine(TemplateMode.HTML, ".html");

    Rendered render(Mail mail) {
        Context context = new Context(Locale.ENGLISH, mail.model());
        return new Rendered(text.process(mail.template(), context), html.process(mail.template(), context));
    }

    private static TemplateEngine engine(TemplateMode mode, String suffix) {
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver();
        resolver.setPrefix("mail/");
        resolver.setSuffix(suffix);
        resolver.setTemplateMode(mode);
        resolver.setCharacterEncoding("UTF-8");
        resolver.setCheckExistence(true);
        TemplateEngine engine = new TemplateEngine();
        engine.setTemplateResolver(resolver);
        return engine;
    }
}
