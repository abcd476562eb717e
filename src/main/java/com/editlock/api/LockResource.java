package com.editlock.api;

import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import com.editlock.lock.ResourceCatalog;
import com.editlock.security.CurrentOwner;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Optional;

/** {@code /api/locks}: take, inspect, renew and release locks as the calling session. */
@Path("locks")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LockResource {

    private static final String BODY_HINT = "The body must be a JSON object like "
            + "{\"resource\":\"configurator:1\",\"mode\":\"WRITE\"}.";

    @Inject
    LockManager locks;

    @Inject
    ResourceCatalog catalog;

    @Inject
    CurrentOwner owner;

    @Context
    UriInfo uris;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response acquire(String body) {
        JsonObject request = LockJson.object(body, BODY_HINT);
        LockKey key = LockKey.parse(text(request, "resource", null));
        LockMode mode;
        try {
            mode = LockMode.parse(text(request, "mode", "WRITE"));
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
        Lock lock = locks.acquire(key, mode, owner.get(), null);
        return Response.created(uris.getBaseUriBuilder().path(LockResource.class).path("{resource}")
                        .build(key.toString()))
                .entity(LockJson.lock(lock)).build();
    }

    @GET
    public JsonValue list() {
        JsonArrayBuilder all = Json.createArrayBuilder();
        (owner.isAdmin() ? locks.allLocks() : locks.locksOf(owner.get().ownerId()))
                .forEach(l -> all.add(LockJson.lock(l)));
        return all.build();
    }

    @GET
    @Path("{resource}")
    public JsonObject get(@PathParam("resource") String resource) {
        LockKey key = existing(resource);
        return locks.holder(key).map(LockJson::lock)
                .orElseThrow(() -> new NotFoundException(key + " is not locked."));
    }

    @DELETE
    @Path("{resource}")
    public Response release(@PathParam("resource") String resource, @QueryParam("reason") String reason) {
        LockKey key = existing(resource);
        LockOwner me = owner.get();
        if (locks.release(key, me.ownerId(), null)) {
            return Response.noContent().build();
        }
        Optional<Lock> holder = locks.holder(key);
        if (holder.isEmpty()) {
            throw new NotFoundException("You hold no lock on " + key + ", and nobody else does either.");
        }
        if (!owner.isAdmin()) {
            throw new ForbiddenException(key + " is held by " + holder.get().displayName()
                    + "; only an admin may release someone else's lock.");
        }
        if (reason == null || reason.isBlank()) {
            throw new BadRequestException("Say why you force-release " + holder.get().displayName() + "'s lock on "
                    + key + ": add ?reason=… (it is shown to them and kept in the history).");
        }
        try {
            locks.forceRelease(key, me.login(), reason);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
        return Response.noContent().build();
    }

    /** Admins: the history of one resource ({@code ?resource=}) or of all, newest first. */
    @GET
    @Path("events")
    public JsonValue history(@QueryParam("resource") String resource, @QueryParam("limit") Integer limit) {
        if (!owner.isAdmin()) {
            throw new ForbiddenException("Only an admin may read the lock history.");
        }
        if (limit != null && (limit < 1 || limit > 1000)) {
            throw new BadRequestException("limit must be from 1 to 1000.");
        }
        LockKey key = resource == null ? null : LockKey.parse(resource);
        JsonArrayBuilder all = Json.createArrayBuilder();
        locks.history(key, limit == null ? 100 : limit).forEach(e -> all.add(LockJson.event(e)));
        return all.build();
    }

    /** Renews the session's leases; {@code ?view=} (an editor page's own token) limits it to that tab's locks. */
    @POST
    @Path("heartbeat")
    public Response heartbeat(@QueryParam("view") String view) {
        if (view != null && !view.matches("[0-9a-f-]{36}")) {
            throw new BadRequestException("view must be the token of one of your tabs.");
        }
        locks.renew(owner.get().ownerId(), view);
        return Response.noContent().build();
    }

    private LockKey existing(String resource) {
        LockKey key = LockKey.parse(resource);
        catalog.aggregateOf(key); // 404 when the record does not exist
        return key;
    }

    private static String text(JsonObject request, String field, String fallback) {
        JsonValue value = request.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            if (fallback == null) {
                throw new BadRequestException("\"" + field + "\" is missing. " + BODY_HINT);
            }
            return fallback;
        }
        if (!(value instanceof JsonString s)) {
            throw new BadRequestException("\"" + field + "\" must be a string. " + BODY_HINT);
        }
        return s.getString();
    }
}
