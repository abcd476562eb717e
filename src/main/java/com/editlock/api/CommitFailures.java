package com.editlock.api;

import com.editlock.lock.LockStoreException;
import jakarta.annotation.Priority;
import jakarta.transaction.TransactionalException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A transaction that could not commit (the database went away at that moment): it was rolled back,
 * so nothing changed, and trying again is safe — a {@code 503} with {@code Retry-After}, like any
 * other lock-store failure. Its own mapper because Jersey brings one for this exception that, for a
 * failed commit, fails itself (a bare 500).
 */
@Provider
@Priority(1)
public class CommitFailures implements ExceptionMapper<TransactionalException> {

    private static final Logger LOG = Logger.getLogger(CommitFailures.class.getName());

    @Override
    public Response toResponse(TransactionalException failure) {
        Throwable cause = failure.getCause();
        if (cause != null && !LockStoreException.isDatabaseFailure(failure)) {
            return new ApiErrors().toResponse(cause);
        }
        LOG.log(
                Level.WARNING,
                "A transaction could not commit; the client is told to try again",
                failure);
        return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .header("Retry-After", "2")
                .type(MediaType.APPLICATION_JSON)
                .entity(LockJson.error(LockStoreException.userMessage()))
                .build();
    }
}
