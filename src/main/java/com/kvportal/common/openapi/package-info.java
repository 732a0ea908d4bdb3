/**
 * The OpenAPI document at {@code /v3/api-docs}, written from the controllers. To document an operation:
 *
 * <pre>{@code
 * @Tag(name = "API keys", description = "...")                   // once per controller: its feature
 * class ApiKeyController {
 *     @Operation(operationId = "createApiKey", summary = "Create an API key", description = "...")
 *     @ApiContract(success = 201, credentials = Credential.PORTAL, problems = {"key_limit_reached"})
 *     ResponseEntity<CreatedKey> create(Caller caller, @RequestBody NewApiKey body) { ... }
 * }
 * }</pre>
 *
 * <p>{@link com.kvportal.common.openapi.ApiContract} names the success status (its body is the method's return type,
 * as {@code application/json}), the credentials the operation accepts ({@code {}}: none, a public call) and the
 * problem codes it can answer; each code must be listed once in {@link com.kvportal.common.openapi.ProblemCatalogue}
 * (status, title, an example). Codes that follow from the operation's shape are added for you: a JSON body brings
 * {@code malformed_json}, {@code validation_failed}, {@code payload_too_large}, {@code unsupported_media_type}; a
 * path or query parameter {@code validation_failed}; {@link com.kvportal.common.openapi.Credential#PORTAL}
 * {@code unauthenticated}, {@code insufficient_permissions} and (for POST, PUT, PATCH, DELETE) {@code csrf_failed};
 * every operation {@code malformed_parameters}, {@code bad_request} and {@code database_unavailable}. Field formats, enums, lengths and
 * ranges come from the records' types, {@code @Schema} and Bean Validation annotations. An {@code /api/} operation
 * without {@code @Operation(operationId, summary, description)} and {@code @ApiContract} fails the document, and the
 * suite's HTTP client ({@code support/Api}) validates every exchange of the tests against it; then regenerate the
 * committed snapshot as {@code OpenApiDocumentTest} says.
 */
@NullMarked
package com.kvportal.common.openapi;

import org.jspecify.annotations.NullMarked;
