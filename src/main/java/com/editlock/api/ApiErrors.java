package com.editlock.api;

import com.editlock.configurator.ConcurrentModificationException;
import com.editlock.configurator.InvalidDraftException;
import com.editlock.lock.InvalidLockKeyException;
import com.editlock.lock.LockLimitException;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockStoreException;
import com.editlock.lock.LockUnavailableException;
import com.editlock.lock.UnknownResourceException;
import com.editlock.security.ApiTokens;
import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns every failure into a JSON error: 400 for bad input, 404 for records that do not exist, 409
 * with the holder for a lock that is taken, 503 with {@code Retry-After} when the lock store cannot
 * answer now, the JAX-RS status for the rest, and a 500 that tells nothing internal for the
 * unexpected (logged here with its stack trace).
 */
@Provider
public class ApiErrors implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(ApiErrors.class.getName());

    @Override
    public Response toResponse(Throwable failure) {
        try {
            return answer(failure);
        } catch (RuntimeException
                | Error e) { // never let the mapper itself fail: Jersey would answer a bare 500
            LOG.log(Level.SEVERE, "Could not map a failure of the JSON API: " + failure, e);
            return Response.status(500)
                    .type(MediaType.APPLICATION_JSON)
                    .entity(
                            "{\"error\":\"Something went wrong "
                                    + "on the server; nothing was changed.\"}")
                    .build();
        }
    }

    private Response answer(Throwable failure) {
        if (failure instanceof LockUnavailableException e) {
            return json(
                    Response.Status.CONFLICT.getStatusCode(),
                    LockJson.locked(e.getMessage(), e.holders()));
        }
        if (failure instanceof LockNotHeldException
                || failure instanceof ConcurrentModificationException
                || failure instanceof LockLimitException) {
            return json(
                    Response.Status.CONFLICT.getStatusCode(), LockJson.error(failure.getMessage()));
        }
        if (LockStoreException.isDatabaseFailure(
                failure)) { // the lock store, JDBC, JPA or JTA: nothing changed
            LOG.log(
                    Level.WARNING,
                    "The lock store failed; the client is told to try again",
                    failure);
            return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                    .header("Retry-After", "2")
                    .type(MediaType.APPLICATION_JSON)
                    .entity(LockJson.error(LockStoreException.userMessage()))
                    .build();
        }
        if (failure instanceof InvalidDraftException e) {
            var problems = Json.createArrayBuilder();
            e.problems()
                    .forEach(
                            p ->
                                    problems.add(
                                            Json.createObjectBuilder()
                                                    .add("field", p.field())
                                                    .add("message", p.message())));
            return json(
                    400,
                    Json.createObjectBuilder()
                            .add("error", e.getMessage())
                            .add("problems", problems)
                            .build());
        }
        if (failure instanceof com.editlock.lock.HandoverRefusedException e) {
            int status =
                    switch (e.reason()) {
                        case TOO_MANY -> 429;
                        case UNKNOWN -> 404;
                        case NOT_YOURS -> 403;
                        default -> 409;
                    };
            return json(
                    status,
                    Json.createObjectBuilder()
                            .add("error", e.reason().name().toLowerCase().replace('_', '-'))
                            .add("message", e.getMessage())
                            .build());
        }
        if (failure instanceof com.editlock.security.People.PersonException e) {
            return json(e.status(), LockJson.error(e.getMessage()));
        }
        if (failure instanceof ApiTokens.TokenException e) {
            return json(e.status(), LockJson.error(e.getMessage()));
        }
        if (failure instanceof InvalidLockKeyException e) {
            return json(400, LockJson.error(e.getMessage()));
        }
        if (failure instanceof UnknownResourceException e) {
            return json(404, LockJson.error(e.getMessage()));
        }
        if (failure instanceof WebApplicationException e) {
            int status = e.getResponse().getStatus();
            String message =
                    e.getMessage() == null || e.getMessage().startsWith("HTTP ")
                            ? defaultMessage(status)
                            : e.getMessage();
            return json(status, LockJson.error(message));
        }
        if (failure instanceof java.nio.charset.UnsupportedCharsetException
                || failure instanceof java.nio.charset.IllegalCharsetNameException) {
            // The container rewrites the request's charset, so the request guard cannot see a
            // bad one; the body reader meets it here, before anything is done.
            return json(
                    415,
                    LockJson.error(
                            "Send the body in UTF-8: this server reads no other character set."));
        }
        LOG.log(Level.SEVERE, "Unexpected failure in the JSON API", failure);
        return json(
                500,
                LockJson.error(
                        "Something went wrong on the server; nothing was changed. Try again, and "
                                + "tell an administrator if it keeps happening."));
    }

    private static String defaultMessage(int status) {
        return switch (status) {
            case 404 -> "There is no such API resource.";
            case 405 -> "This method is not allowed here.";
            case 406 -> "This API answers in JSON only.";
            case 415 -> "Send the body as application/json.";
            default -> "The request failed with HTTP status " + status + ".";
        };
    }

    private static Response json(int status, Object entity) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(entity).build();
    }
}
