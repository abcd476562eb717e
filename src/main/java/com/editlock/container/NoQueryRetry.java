package com.editlock.container;

import java.util.logging.Logger;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionCustomizer;

/**
 * EclipseLink retries a read that failed on a lost database connection, by default twice with a
 * pause in between: a page or API call then waits about 10 s before it can say that the database is
 * down. Editlock promises an answer within 2 s (a 503 with Retry-After, or a sentence on the
 * screen), and the caller can try again itself.
 */
public class NoQueryRetry implements SessionCustomizer {

    private static final Logger LOG = Logger.getLogger(NoQueryRetry.class.getName());

    @Override
    public void customize(Session session) {
        session.getLogin().setQueryRetryAttemptCount(0);
        LOG.info("EclipseLink query retry off (NoQueryRetry)");
    }
}
