package com.kvportal.mail;

import java.util.Map;

/**
 * A message to send: its recipient, subject and the template that renders its two parts ({@code mail/<template>.txt}
 * and {@code mail/<template>.html}, Thymeleaf) from the model. Values in the model are escaped in the HTML part.
 */
public record Mail(String to, String subject, String template, Map<String, Object> model) {

    public Mail {
        model = Map.copyOf(model);
    }
}
