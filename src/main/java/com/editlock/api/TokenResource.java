package com.editlock.api;

import com.editlock.security.ApiTokens;
import com.editlock.security.CurrentOwner;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.util.Set;

/**
 * {@code /api/tokens}: personal API tokens (see {@link ApiTokens}). {@code POST} makes one and
 * answers its secret this once; {@code GET} lists the caller's (an admin: everyone's, or {@code
 * ?user=}'s); {@code DELETE /api/tokens/{id}} revokes one (called with a token: only that token
 * itself, so a leaked token cannot revoke its user's other tokens).
 */
@Path("tokens")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class TokenResource {

    private static final String BODY_HINT =
            "The body must be a JSON object like {\"name\":\"nightly import\",\"days\":90} "
                    + "(an admin may add \"user\":\"sara\").";

    @Inject ApiTokens tokens;

    @Inject CurrentOwner owner;

    @Context UriInfo uris;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String body) {
        if (owner.byToken()) {
            throw new ForbiddenException(
                    "A token cannot make tokens: log in with your password to make one.");
        }
        JsonObject request = LockJson.object(body, BODY_HINT, Set.of("name", "days", "user"));
        String me = owner.get().login();
        String user = text(request, "user", me);
        Integer days = null;
        JsonValue d = request.get("days");
        if (d != null && d.getValueType() != JsonValue.ValueType.NULL) {
            if (!(d instanceof JsonNumber n) || !n.isIntegral()) {
                throw new BadRequestException("\"days\" must be a whole number. " + BODY_HINT);
            }
            days = n.bigIntegerValue().bitLength() > 31 ? Integer.MAX_VALUE : n.intValue();
        }
        ApiTokens.Created created =
                tokens.create(user, text(request, "name", ""), days, me, owner.isAdmin());
        CacheControl noStore = new CacheControl();
        noStore.setNoStore(true);
        return Response.created(
                        uris.getBaseUriBuilder()
                                .path(TokenResource.class)
                                .path(String.valueOf(created.token().id()))
                                .build())
                .cacheControl(noStore)
                .entity(json(created.token()).add("token", created.secret()).build())
                .build();
    }

    @GET
    public JsonValue list(@QueryParam("user") String user) {
        String me = owner.get().login();
        String whose;
        if (owner.isAdmin()) {
            whose = user == null || user.isEmpty() ? null : user;
        } else if (user == null || user.isEmpty() || user.equals(me)) {
            whose = me;
        } else {
            throw new ForbiddenException("Only an admin may list someone else's tokens.");
        }
        JsonArrayBuilder all = Json.createArrayBuilder();
        tokens.list(whose).forEach(t -> all.add(json(t)));
        return all.build();
    }

    @DELETE
    @Path("{id}")
    public Response revoke(@PathParam("id") String id) {
        long number;
        try {
            number = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new BadRequestException(
                    "A token's id is a whole number, as GET /api/tokens lists.");
        }
        java.util.OptionalLong presented = owner.tokenId();
        if (presented.isPresent() && presented.getAsLong() != number) {
            // a leaked token must not be able to lock its user's other scripts out
            throw new ForbiddenException(
                    "A token may revoke only itself: log in with your password to revoke others.");
        }
        tokens.revoke(number, owner.get().login(), owner.isAdmin());
        return Response.noContent().build();
    }

    static JsonObjectBuilder json(ApiTokens.Token t) {
        JsonObjectBuilder b =
                Json.createObjectBuilder()
                        .add("id", t.id())
                        .add("user", t.login())
                        .add("name", t.name())
                        .add("hint", t.hint())
                        .add("createdAt", t.createdAt().toString())
                        .add("createdBy", t.createdBy())
                        .add("expiresAt", t.expiresAt().toString())
                        .add("active", t.active(Instant.now()));
        if (t.lastUsedAt() != null) {
            b.add("lastUsedAt", t.lastUsedAt().toString());
        }
        if (t.revokedAt() != null) {
            b.add("revokedAt", t.revokedAt().toString()).add("revokedBy", t.revokedBy());
        }
        return b;
    }

    private static String text(JsonObject request, String field, String fallback) {
        JsonValue value = request.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return fallback;
        }
        if (!(value instanceof JsonString s)) {
            throw new BadRequestException("\"" + field + "\" must be a string. " + BODY_HINT);
        }
        return s.getString();
    }
}
