package com.editlock.api;

import com.editlock.configurator.Drafts;
import com.editlock.lock.LockKey;
import com.editlock.lock.ResourceCatalog;
import com.editlock.security.CurrentOwner;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.util.Set;

/**
 * {@code /api/drafts/{resource}}: the caller's own unsaved draft of a record (see {@link Drafts}).
 * {@code PUT} keeps it, {@code GET} reads it back, {@code DELETE} discards it. There is no way to
 * name another person: every call is about the caller's own draft.
 */
@Path("drafts/{resource}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class DraftResource {

    /** Form fields a draft may have (each of the two objects). */
    static final int MAX_FIELDS = 2_000;

    private static final String BODY_HINT =
            "The body must be a JSON object like {\"fields\":{\"edit:name\":\"Road bike\"},"
                    + "\"base\":{\"edit:name\":\"Road\"}}: the form's fields as typed, and as the "
                    + "page showed them when it opened, every value a string.";

    @Inject Drafts drafts;

    @Inject ResourceCatalog catalog;

    @Inject CurrentOwner owner;

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject keep(@PathParam("resource") String resource, String body) {
        LockKey key = existing(resource);
        JsonObject draft = LockJson.object(body, BODY_HINT, Set.of("fields", "base"));
        String fields = strings(draft, "fields");
        String base = strings(draft, "base");
        try {
            var at = drafts.save(owner.get().login(), key, fields, base);
            return Json.createObjectBuilder()
                    .add("resource", key.toString())
                    .add("savedAt", at.toString())
                    .build();
        } catch (Drafts.TooLargeException e) {
            throw new BadRequestException(e.getMessage());
        }
    }

    @GET
    public JsonObject read(@PathParam("resource") String resource) {
        LockKey key = existing(resource);
        Drafts.Draft d =
                drafts.find(owner.get().login(), key)
                        .orElseThrow(
                                () -> new NotFoundException("You have no draft of " + key + "."));
        return Json.createObjectBuilder()
                .add("resource", key.toString())
                .add("savedAt", d.savedAt().toString())
                .add("fields", Json.createReader(new StringReader(d.fields())).readObject())
                .add("base", Json.createReader(new StringReader(d.base())).readObject())
                .build();
    }

    @DELETE
    public Response discard(@PathParam("resource") String resource) {
        LockKey key = existing(resource);
        if (!drafts.delete(owner.get().login(), key)) {
            throw new NotFoundException("You have no draft of " + key + ".");
        }
        return Response.noContent().build();
    }

    private LockKey existing(String resource) {
        LockKey key = LockKey.parse(resource);
        catalog.aggregateOf(key); // 404 when the record does not exist
        return key;
    }

    /** The object {@code name} of {@code draft} (strings only, bounded), as JSON text. */
    private static String strings(JsonObject draft, String name) {
        JsonValue value = draft.get(name);
        if (!(value instanceof JsonObject object)) {
            throw new BadRequestException("\"" + name + "\" must be an object. " + BODY_HINT);
        }
        if (object.size() > MAX_FIELDS) {
            throw new BadRequestException(
                    "\""
                            + name
                            + "\" has "
                            + object.size()
                            + " fields; at most "
                            + MAX_FIELDS
                            + ".");
        }
        for (var e : object.entrySet()) {
            if (!(e.getValue() instanceof JsonString)) {
                throw new BadRequestException(
                        "\"" + name + "." + e.getKey() + "\" must be a string. " + BODY_HINT);
            }
        }
        return object.toString();
    }
}
