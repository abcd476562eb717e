package com.editlock.api;

import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonException;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;

/** How locks look in JSON. Owner ids and views never leave the server. */
final class LockJson {

    private LockJson() {
    }

    static JsonObject lock(Lock lock) {
        return Json.createObjectBuilder()
                .add("resource", lock.key().toString())
                .add("mode", lock.mode().name())
                .add("holder", holder(lock))
                .add("acquiredAt", iso(lock.acquiredAt()))
                .add("expiresAt", iso(lock.expiresAt()))
                .add("token", lock.fencingToken())
                .build();
    }

    static JsonObject locked(String message, List<Lock> holders) {
        Lock first = holders.get(0);
        var all = Json.createArrayBuilder();
        holders.forEach(l -> all.add(Json.createObjectBuilder().add("resource", l.key().toString())
                .add("mode", l.mode().name()).add("holder", holder(l)).add("since", iso(l.acquiredAt()))
                .add("expiresAt", iso(l.expiresAt()))));
        return Json.createObjectBuilder()
                .add("error", "locked")
                .add("message", message)
                .add("holder", holder(first))
                .add("since", iso(first.acquiredAt()))
                .add("expiresAt", iso(first.expiresAt()))
                .add("holders", all)
                .build();
    }

    static JsonObject event(LockEvent e) {
        JsonObjectBuilder b = Json.createObjectBuilder().add("id", e.id()).add("at", iso(e.at()))
                .add("type", e.type().name()).add("resource", e.resource());
        optional(b, "mode", e.mode());
        optional(b, "user", e.userLogin());
        optional(b, "name", e.displayName());
        if (e.fencingToken() != null) {
            b.add("token", e.fencingToken());
        }
        optional(b, "actor", e.actor());
        optional(b, "reason", e.reason());
        return b.build();
    }

    private static void optional(JsonObjectBuilder b, String name, String value) {
        if (value != null) {
            b.add(name, value);
        }
    }

    /** The request body as a JSON object, or a 400 that says what was wrong and what {@code shape} is expected. */
    static JsonObject object(String body, String shape) {
        if (body == null || body.isBlank()) {
            throw new BadRequestException(shape);
        }
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                throw new BadRequestException(shape);
            }
            return value.asJsonObject();
        } catch (JsonException e) {
            throw new BadRequestException("The body is not valid JSON. " + shape);
        }
    }

    static JsonObject error(String message) {
        return Json.createObjectBuilder().add("error", message).build();
    }

    private static JsonObjectBuilder holder(Lock lock) {
        return Json.createObjectBuilder().add("user", lock.userLogin()).add("name", lock.displayName());
    }

    private static String iso(Instant instant) {
        return instant.toString();
    }
}
