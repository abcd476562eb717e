package com.editlock.live;

import java.io.Serializable;

/**
 * One open page looking at a record: the person, and the session (server-side only) it belongs to.
 */
public record Viewer(String viewToken, String ownerId, String userLogin, String displayName)
        implements Serializable {}
