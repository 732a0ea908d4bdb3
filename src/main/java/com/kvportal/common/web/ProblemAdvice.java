package com.kvportal.common.web;

import com.kvportal.common.database.DatabaseFailures;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.BindingResult;
import org.springframework.validation.FieldError;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The one place where failures become RFC 9457 problem details with a stable {@code code}, each saying what to send
 * instead.
 */
@RestControllerAdvice
@RequiredArgsConstructor
class ProblemAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);
    private static final String INVALID_FIELDS = "The request has invalid fields.";
    /** How Jackson's parser words a key met twice in one object ({@code STRICT_DUPLICATE_DETECTION}). */
    private static final Pattern DUPLICATE_KEY = Pattern.compile("Duplicate Object property \"(.*)\"");

    private final MisplacedIds misplacedIds;

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
        return ResponseEntity.badRequest().body(Problems.validation(INVALID_FIELDS, errors));
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = new ArrayList<>();
        ex.getParameterValidationResults().forEach(result -> result.getResolvableErrors()
                .forEach(error -> errors.add(
                        fieldError(result.getMethodParameter().getParameterName(), error.getDefaultMessage()))));
        return ResponseEntity.badRequest().body(Problems.validation(INVALID_FIELDS, errors));
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(
            TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String field = ex.getPropertyName() == null ? "value" : ex.getPropertyName();
        return ResponseEntity.badRequest()
                .body(Problems.validation(
                        INVALID_FIELDS, List.of(fieldError(field, "must be " + expected(ex.getRequiredType())))));
    }

    /** No route for the path: 404, or 400 when the path is an id route's with something else where the UUID goes. */
    @Override
    protected ResponseEntity<Object> handleNoResourceFoundException(
            NoResourceFoundException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return noRoute(ex, request);
    }

    @Override
    protected ResponseEntity<Object> handleNoHandlerFoundException(
            NoHandlerFoundException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return noRoute(ex, request);
    }

    private ResponseEntity<Object> noRoute(Exception ex, WebRequest request) {
        HttpServletRequest servlet = ((ServletWebRequest) request).getRequest();
        Optional<String> id = misplacedIds.of(servlet);
        Object body = id.isPresent()
                ? Problems.validation(INVALID_FIELDS, List.of(fieldError(id.get(), "must be " + expected(UUID.class))))
                : Problems.notFound(servlet.getMethod(), servlet.getRequestURI());
        HttpStatusCode status = id.isPresent() ? HttpStatus.BAD_REQUEST : HttpStatus.NOT_FOUND;
        return handleExceptionInternal(ex, body, new HttpHeaders(), status, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpRequestMethodNotSupported(
            HttpRequestMethodNotSupportedException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<String> allowed = ex.getSupportedHttpMethods() == null
                ? List.of()
                : ex.getSupportedHttpMethods().stream()
                        .map(HttpMethod::name)
                        .filter(method -> !method.equals("HEAD") && !method.equals("OPTIONS"))
                        .toList();
        return handleExceptionInternal(
                ex, Problems.methodNotAllowed(ex.getMethod(), allowed), headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(
            HttpMediaTypeNotSupportedException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return handleExceptionInternal(
                ex,
                Problems.unsupportedMediaType(request.getHeader(HttpHeaders.CONTENT_TYPE)),
                headers,
                status,
                request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (cause(ex, BodySizeLimitFilter.BodyTooLarge.class) != null) {
            return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
                    .body(Problems.payloadTooLarge(((ServletWebRequest) request).getRequest()));
        }
        if (cause(ex, StrictTextFilter.MalformedText.class) != null) {
            return ResponseEntity.badRequest().body(Problems.malformedJson());
        }
        String duplicate = duplicateKey(ex);
        if (duplicate != null) {
            return ResponseEntity.badRequest().body(Problems.duplicateKey(duplicate));
        }
        if (ex.getCause() instanceof UnrecognizedPropertyException unknown) {
            return invalidBodyField(fieldPath(unknown), FieldErrors.unknownField(knownFields(unknown)));
        }
        if (ex.getCause() instanceof MismatchedInputException mismatch
                && !mismatch.getPath().isEmpty()) {
            return invalidBodyField(fieldPath(mismatch), "must be " + expected(mismatch.getTargetType()));
        }
        return ResponseEntity.badRequest().body(Problems.malformedJson());
    }

    /** The key an object of the body holds twice (the parser refuses such a body), or null. */
    private static @Nullable String duplicateKey(HttpMessageNotReadableException ex) {
        StreamReadException read = cause(ex, StreamReadException.class);
        if (read == null || read.getOriginalMessage() == null) {
            return null;
        }
        Matcher duplicate = DUPLICATE_KEY.matcher(read.getOriginalMessage());
        return duplicate.matches() ? duplicate.group(1) : null;
    }

    /** 400 {@code validation_failed} for one field of the body, named by its path as the API names it. */
    private static ResponseEntity<Object> invalidBodyField(String path, String message) {
        return ResponseEntity.badRequest()
                .body(Problems.validation(INVALID_FIELDS, List.of(Map.of("field", path, "message", message))));
    }

    /** Where in the body, as the API names it: {@code samples[1].bytes}. */
    private static String fieldPath(DatabindException ex) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : ex.getPath()) {
            if (reference.getPropertyName() == null) {
                path.append('[').append(reference.getIndex()).append(']');
            } else {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            }
        }
        return path.isEmpty() ? "body" : path.toString();
    }

    /** The fields of the object, as the API names them, in the order the request record declares them. */
    private static List<String> knownFields(UnrecognizedPropertyException ex) {
        RecordComponent[] components =
                ex.getReferringClass() == null ? null : ex.getReferringClass().getRecordComponents();
        if (components != null) {
            return Arrays.stream(components)
                    .map(component -> snakeCase(component.getName()))
                    .toList();
        }
        return ex.getKnownPropertyIds() == null
                ? List.of()
                : ex.getKnownPropertyIds().stream()
                        .map(String::valueOf)
                        .sorted()
                        .toList();
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

    /** The first throwable of the type in the chain of causes, or null. */
    private static <T extends Throwable> @Nullable T cause(Throwable ex, Class<T> type) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** What a value of the type is sent as, for "must be ...". */
    private static String expected(@Nullable Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == UUID.class) {
            return "a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6";
        }
        if (CharSequence.class.isAssignableFrom(type) || type.isEnum()) {
            return "a string";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == double.class || type == float.class || type == Double.class || type == Float.class) {
            return "a number";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return "an integer";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "an object";
    }

    static Map<String, String> fieldError(String field, @Nullable String message) {
        return Map.of("field", snakeCase(field), "message", message == null ? "is invalid" : message);
    }

    private static String snakeCase(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
    }
}
