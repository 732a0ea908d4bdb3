package com.kvportal.common.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Errors raised outside Spring MVC (the servlet container, the security firewall) reach {@code /error};
 * they too answer with a problem document, never an HTML page or a stack trace.
 */
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping(path = "/error", produces = MediaType.ALL_VALUE)
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status;
        if (code == null) {
            // /error asked for directly: there is no error to report, and no such resource
            status = HttpStatus.NOT_FOUND;
        } else {
            status = code instanceof Integer value && HttpStatus.resolve(value) != null
                    ? HttpStatus.valueOf(value)
                    : HttpStatus.INTERNAL_SERVER_ERROR;
        }
        ProblemDetail problem = status == HttpStatus.BAD_REQUEST
                ? RefusedRequests.badPath((String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI))
                : Problems.of(status, Problems.defaultCode(status), status.getReasonPhrase());
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
