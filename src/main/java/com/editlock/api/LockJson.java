package com.editlock.api;

import com.editlock.lock.Lock;
import com.editlock.lock.LockEvent;
import com.editlock.platform.PlainText;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.ws.rs.BadRequestException;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/** How locks look in JSON. Owner ids and views never leave the server. */
final class LockJson {

    private LockJson() {}

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
        holders.forEach(
                l ->
                        all.add(
                                Json.createObjectBuilder()
                                        .add("resource", l.key().toString())
                                        .add("mode", l.mode().name())
                                        .add("holder", holder(l))
                                        .add("since", iso(l.acquiredAt()))
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
        JsonObjectBuilder b =
                Json.createObjectBuilder()
                        .add("id", e.id())
                        .add("at", iso(e.at()))
                        .add("type", e.type().name())
                        .add("resource", e.resource());
        optional(b, "mode", e.mode());
        optional(b, "user", e.userLogin());
        optional(b, "name", e.displayName());
        if (e.fencingToken() != null) {
            b.add("token", e.fencingToken());
        }
        optional(b, "actor", e.actor());
        optional(b, "reason", e.reason());
        if (e.repeats() > 0) {
            b.add("repeats", e.repeats());
        }
        return b.build();
    }

    private static void optional(JsonObjectBuilder b, String name, String value) {
        if (value != null) {
            b.add(name, value);
        }
    }

    /** How deeply a request body may nest arrays and objects (a configurator needs 3). */
    static final int MAX_DEPTH = 16;

    /**
     * The request body as a JSON object, or a 400 that says what was wrong and what {@code shape}
     * is expected: not JSON, nested deeper than {@link #MAX_DEPTH} (checked by a streaming pass
     * first, so no depth can exhaust the stack), a string with a control or broken character (the
     * field is named), or a field not in {@code fields}.
     */
    static JsonObject object(String body, String shape, Set<String> fields) {
        if (body == null || body.isBlank()) {
            throw new BadRequestException(shape);
        }
        try {
            checkDepth(body);
            try (JsonReader reader = Json.createReader(new StringReader(body))) {
                JsonValue value = reader.readValue();
                if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                    throw new BadRequestException(shape);
                }
                checkStrings(value, "");
                JsonObject object = value.asJsonObject();
                knownFields(object, "", fields);
                return object;
            }
        } catch (JsonException e) {
            throw new BadRequestException("The body is not valid JSON. " + shape);
        } catch (RuntimeException e) {
            if (e instanceof BadRequestException) {
                throw e;
            }
            throw new BadRequestException(
                    "The body is not valid JSON. " + shape); // Parsson's own limits
        }
    }

    /** A 400 naming the first field of {@code object} that is not one of {@code fields}. */
    static void knownFields(JsonObject object, String path, Set<String> fields) {
        for (String name : object.keySet()) {
            if (!fields.contains(name)) {
                throw new BadRequestException(
                        "Unknown field \""
                                + path
                                + name
                                + "\": the fields are "
                                + fields.stream().sorted().toList()
                                + ".");
            }
        }
    }

    private static void checkDepth(String body) {
        try (JsonParser parser = Json.createParser(new StringReader(body))) {
            int depth = 0;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.START_ARRAY
                        || event == JsonParser.Event.START_OBJECT) {
                    if (++depth > MAX_DEPTH) {
                        throw new BadRequestException(
                                "The body nests arrays and objects deeper than "
                                        + MAX_DEPTH
                                        + " levels.");
                    }
                } else if (event == JsonParser.Event.END_ARRAY
                        || event == JsonParser.Event.END_OBJECT) {
                    depth--;
                }
            }
        }
    }

    private static void checkStrings(JsonValue value, String path) {
        switch (value.getValueType()) {
            case OBJECT ->
                    value.asJsonObject()
                            .forEach(
                                    (name, v) -> {
                                        String here = path.isEmpty() ? name : path + "." + name;
                                        refuse(name, here);
                                        checkStrings(v, here);
                                    });
            case ARRAY -> {
                var array = value.asJsonArray();
                for (int i = 0; i < array.size(); i++) {
                    checkStrings(array.get(i), path + "[" + i + "]");
                }
            }
            case STRING -> refuse(((JsonString) value).getString(), path);
            default -> {}
        }
    }

    private static void refuse(String text, String path) {
        String problem = PlainText.problem(text);
        if (problem != null) {
            throw new BadRequestException("\"" + path + "\" " + problem);
        }
    }

    static JsonObject error(String message) {
        return Json.createObjectBuilder().add("error", message).build();
    }

    /**
     * A request to hand a lock over, for its asker or its holder: names and logins, the note and
     * reply, where it stands (a stable code, and a sentence for the asker).
     */
    static JsonObject handover(com.editlock.lock.HandoverRequest r) {
        JsonObjectBuilder b =
                Json.createObjectBuilder()
                        .add("id", r.id())
                        .add("resource", r.key().toString())
                        .add("state", r.state().name())
                        .add("sentence", r.askerSentence())
                        .add(
                                "holder",
                                Json.createObjectBuilder()
                                        .add("user", r.holderLogin())
                                        .add("name", r.holderName()))
                        .add(
                                "asker",
                                Json.createObjectBuilder()
                                        .add("user", r.askerLogin())
                                        .add("name", r.askerName()))
                        .add("askedAt", iso(r.askedAt()))
                        .add("expiresAt", iso(r.expiresAt()));
        optional(b, "note", r.note());
        optional(b, "reply", r.reply());
        if (r.answeredAt() != null) {
            b.add("answeredAt", iso(r.answeredAt()));
        }
        return b.build();
    }

    private static JsonObjectBuilder holder(Lock lock) {
        return Json.createObjectBuilder()
                .add("user", lock.userLogin())
                .add("name", lock.displayName());
    }

    private static String iso(Instant instant) {
        return instant.toString();
    }
}
