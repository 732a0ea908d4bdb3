/**
 * The OpenAPI document at {@code /v3/api-docs}, written from the controllers. To document an operation:
 *
 * <pre>{@code
 * @Tag(name = "API keys", description = "...")                   // once per controller: its feature
 * class ApiKeyController {
 *     @ApiContract(success = HttpStatus.CREATED, credentials = Credential.PORTAL, permission = Permission.MANAGE_KEYS)
 *     @ApiKeyProblem.Codes(ApiKeyProblem.KEY_LIMIT_REACHED)          // the feature's problem codes it answers
 *     ResponseEntity<CreatedKey> createApiKey(Caller caller, @RequestBody NewApiKey body) { ... }  // a Location header
 * }
 * }</pre>
 *
 * and in {@code src/main/resources/openapi/operations.yaml}, under the operationId (springdoc's: the method's name):
 *
 * <pre>{@code
 * createApiKey:
 *   summary: Create an API key
 *   description: >-
 *     Creates a key in the active project ...
 * }</pre>
 *
 * <p>{@link com.kvportal.security.ApiContract} names the success status (its body is the method's return type,
 * as {@code application/json}; the handler answers it too, so a handler returns its body, or nothing for 204, and
 * builds a {@code ResponseEntity} only for headers) and the credentials the operation accepts ({@code {}}: none, a
 * public call); a {@link com.kvportal.security.Credential#PORTAL} operation also names the one {@link
 * com.kvportal.security.Permission} (a row of the roles table) that the caller's role must hold, which the
 * security layer enforces on every request and the document states as the operation's roles (implying {@code
 * insufficient_role}), and, with {@code verifiedEmail = true}, that the caller's email address must be verified
 * (implying {@code email_unverified}). The problem
 * codes it can answer are constants of its feature's enum of {@link com.kvportal.common.web.ProblemCode}s (code,
 * status, meaning, an example detail), named with the enum's nested {@code Codes} annotation (one per enum: the
 * shared ones with {@code @CommonProblem.Codes}); {@link com.kvportal.openapi.ProblemCatalogue} is every
 * constant of those enums, found on the class path. Codes that follow from the operation's shape are added for you: a JSON body brings
 * {@code malformed_json}, {@code validation_failed}, {@code payload_too_large}, {@code unsupported_media_type}; a
 * path or query parameter {@code validation_failed}; {@link com.kvportal.security.Credential#PORTAL}
 * {@code unauthenticated}, {@code insufficient_permissions} and (for POST, PUT, PATCH, DELETE) {@code csrf_failed};
 * every operation {@code malformed_parameters}, {@code bad_request} and {@code database_unavailable}. Field formats, enums, lengths and
 * ranges come from the records' types, {@code @Schema} and Bean Validation annotations. An {@code /api/} operation
 * without {@code @ApiContract} or an entry in {@code operations.yaml} fails the document, as does an entry no
 * operation has ({@link com.kvportal.openapi.OperationTexts}). A handler that reads its body itself names the
 * body's type with {@link com.kvportal.openapi.JsonBody}; {@code @Operation} never carries the texts. The
 * suite's HTTP client ({@code support/Api}) validates every exchange of the tests against it; then regenerate the
 * committed snapshot as {@code OpenApiDocumentTest} says.
 */
@ApplicationModule(allowedDependencies = {"common", "security"})
@NullMarked
package com.kvportal.openapi;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
