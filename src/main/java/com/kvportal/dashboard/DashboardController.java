package com.kvportal.dashboard;

import java.nio.charset.StandardCharsets;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * Serves the dashboard's pages at clean paths. The pages are static: their scripts ask the API who is signed in
 * and send the browser to {@code /login} on a 401, so no page here needs to know about the session.
 */
@Controller
class DashboardController {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);

    @GetMapping("/")
    ResponseEntity<Void> home() {
        return ResponseEntity.status(HttpStatus.FOUND)
                .header(HttpHeaders.LOCATION, "/dashboard")
                .build();
    }

    @GetMapping("/login")
    ResponseEntity<Resource> login() {
        return page("login.html");
    }

    @GetMapping("/signup")
    ResponseEntity<Resource> signup() {
        return page("signup.html");
    }

    @GetMapping("/dashboard")
    ResponseEntity<Resource> keys() {
        return page("keys.html");
    }

    @GetMapping("/dashboard/billing")
    ResponseEntity<Resource> billing() {
        return page("billing.html");
    }

    /** Pages change with each release and carry no data, so the browser revalidates them every time. */
    private static ResponseEntity<Resource> page(String file) {
        return ResponseEntity.ok()
                .contentType(HTML)
                .cacheControl(CacheControl.noCache())
                .body(new ClassPathResource("dashboard/" + file));
    }
}
