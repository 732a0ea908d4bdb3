package com.kvportal.common.web;

import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/**
 * The answer that holds a secret shown this once (a raw API key, a webhook endpoint's signing secret): {@code
 * Cache-Control: no-store}, so that no cache along the way keeps it.
 */
public final class ShownOnce {

    private ShownOnce() {}

    /** 201, with the new resource's {@code Location}. */
    public static <T> ResponseEntity<T> created(String location, T body) {
        return ResponseEntity.created(URI.create(location))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(body);
    }

    /** 200. */
    public static <T> ResponseEntity<T> ok(T body) {
        return ResponseEntity.ok().header(HttpHeaders.CACHE_CONTROL, "no-store").body(body);
    }
}
