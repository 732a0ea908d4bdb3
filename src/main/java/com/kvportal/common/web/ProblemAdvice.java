package com.kvportal.common.web;

import com.kvportal.common.database.DatabaseFailures;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.BindingResult;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.databind.exc.MismatchedInputException;

/** The one place where failures become RFC 9457 problem details with a stable {@code code}. */
@RestControllerAdvice
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception ex) {
        if (DatabaseFailures.isUnavailable(ex)) {
            log.warn("The database is unavailable: {}", rootMessage(ex));
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseFailures.RETRY_AFTER_SECONDS))
                    .body(Problems.databaseUnavailable());
        }
        log.error("Unexpected failure", ex);
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
                .body(Problems.of(
                        HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", "Something went wrong on our side."));
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = new ArrayList<>();
        ex.getBindingResult().getFieldErrors().stream()
                .sorted(Comparator.comparingInt(error -> declarationIndex(ex.getBindingResult(), error)))
                .forEach(error -> errors.add(fieldError(error.getField(), error.getDefaultMessage())));
        ex.getBindingResult()
                .getGlobalErrors()
                .forEach(error -> errors.add(fieldError(error.getObjectName(), error.getDefaultMessage())));
        return ResponseEntity.badRequest().body(Problems.validation("The request has invalid fields.", errors));
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = new ArrayList<>();
        ex.getParameterValidationResults().forEach(result -> result.getResolvableErrors()
                .forEach(error -> errors.add(
                        fieldError(result.getMethodParameter().getParameterName(), error.getDefaultMessage()))));
        return ResponseEntity.badRequest().body(Problems.validation("The request has invalid fields.", errors));
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(
            TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String field = ex.getPropertyName() == null ? "value" : ex.getPropertyName();
        return ResponseEntity.badRequest()
                .body(Problems.validation(
                        "The request has invalid fields.",
                        List.of(fieldError(field, "is not a valid " + describe(ex.getRequiredType())))));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (causedByOversizedBody(ex)) {
            return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
                    .body(Problems.of(
                            HttpStatus.CONTENT_TOO_LARGE, "payload_too_large", "The request body is too large."));
        }
        if (causedBy(ex, StrictTextFilter.MalformedText.class)) {
            return ResponseEntity.badRequest()
                    .body(Problems.of(
                            HttpStatus.BAD_REQUEST,
                            "malformed_json",
                            "The request body is not valid Unicode text (malformed UTF-8, a lone surrogate or NUL)."));
        }
        if (ex.getCause() instanceof MismatchedInputException mismatch
                && !mismatch.getPath().isEmpty()) {
            String field = mismatch.getPath().stream()
                    .map(ref -> ref.getPropertyName() == null ? String.valueOf(ref.getIndex()) : ref.getPropertyName())
                    .reduce((a, b) -> a + "." + b)
                    .orElse("body");
            return ResponseEntity.badRequest()
                    .body(Problems.validation(
                            "The request has invalid fields.", List.of(fieldError(field, "has the wrong type"))));
        }
        return ResponseEntity.badRequest()
                .body(Problems.of(HttpStatus.BAD_REQUEST, "malformed_json", "The request body is not valid JSON."));
    }

    /** Gives every problem that Spring MVC itself raises (404, 405, 415, ...) its stable code. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(
            @Nullable Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        if (body instanceof ProblemDetail problem
                && (problem.getProperties() == null || !problem.getProperties().containsKey("code"))) {
            HttpStatus status = HttpStatus.valueOf(statusCode.value());
            String detail = problem.getDetail() != null ? problem.getDetail() : status.getReasonPhrase();
            body = Problems.of(status, Problems.defaultCode(status), detail);
        }
        return super.createResponseEntity(body, headers, statusCode, request);
    }

    /** Field errors in the order the request record declares its fields, as a person reads the form. */
    private static int declarationIndex(BindingResult result, FieldError error) {
        Object target = result.getTarget();
        RecordComponent[] components = target == null ? null : target.getClass().getRecordComponents();
        if (components != null) {
            for (int i = 0; i < components.length; i++) {
                if (components[i].getName().equals(error.getField())) {
                    return i;
                }
            }
        }
        return Integer.MAX_VALUE;
    }

    static String rootMessage(Throwable ex) {
        Throwable root = ex;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static boolean causedByOversizedBody(Throwable ex) {
        return causedBy(ex, BodySizeLimitFilter.BodyTooLarge.class);
    }

    private static boolean causedBy(Throwable ex, Class<? extends Throwable> type) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static String describe(@Nullable Class<?> type) {
        return type == null ? "value" : type.getSimpleName().equals("UUID") ? "UUID" : type.getSimpleName();
    }

    static Map<String, String> fieldError(String field, @Nullable String message) {
        return Map.of("field", snakeCase(field), "message", message == null ? "is invalid" : message);
    }

    private static String snakeCase(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
    }
}
