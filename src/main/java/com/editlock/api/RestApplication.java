package com.editlock.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Mounts the JSON API at {@code /api}. */
@ApplicationPath("api")
public class RestApplication extends Application {}
