package com.editlock.api;

import com.editlock.configurator.ConfiguratorDraft;
import com.editlock.configurator.ConfiguratorService;
import com.editlock.configurator.ConfiguratorStatus;
import com.editlock.configurator.InvalidDraftException;
import com.editlock.configurator.ItemDraft;
import com.editlock.configurator.VariableDraft;
import com.editlock.configurator.VariableType;
import com.editlock.lock.Lock;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.security.CurrentOwner;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code /api/configurators/{id}}: read a whole aggregate, or replace it under the lock the calling
 * session holds on {@code configurator:{id}} (take it first with {@code POST /api/locks}). Without
 * that lock the save is refused with a {@code 409} that says so, and nothing changes.
 */
@Path("configurators/{id}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class ConfiguratorResource {

    private static final Set<String> FIELDS =
            Set.of("id", "name", "description", "status", "version", "items", "variables");
    private static final Set<String> ITEM_FIELDS = Set.of("id", "name", "price");
    private static final Set<String> VARIABLE_FIELDS = Set.of("id", "name", "type", "value");

    @Inject ConfiguratorService configurators;

    @Inject LockManager locks;

    @Inject CurrentOwner owner;

    @GET
    public JsonObject get(@PathParam("id") String id) {
        long configuratorId = id(id);
        return configurators
                .current(configuratorId)
                .map(ConfiguratorResource::json)
                .orElseThrow(
                        () ->
                                new NotFoundException(
                                        "There is no configurator:" + configuratorId + "."));
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject put(@PathParam("id") String id, String body) {
        long configuratorId = id(id);
        JsonObject json =
                LockJson.object(
                        body,
                        "The body must be a JSON object with name, description, status, "
                                + "version, items and variables, as GET returns it.",
                        FIELDS);
        if (json.containsKey("id")
                && !(json.get("id") instanceof JsonNumber n
                        && n.isIntegral()
                        && n.bigIntegerValue()
                                .equals(java.math.BigInteger.valueOf(configuratorId)))) {
            throw new BadRequestException(
                    "\"id\" in the body must be "
                            + configuratorId
                            + ", the id in the address "
                            + "(or left out).");
        }
        ConfiguratorDraft draft = draft(configuratorId, json);
        LockKey key = LockKey.configurator(configuratorId);
        Lock held =
                locks.locksOf(owner.get().ownerId()).stream()
                        .filter(l -> l.key().equals(key))
                        .findFirst()
                        .orElse(null);
        configurators.saveConfigurator(held, draft);
        return get(id);
    }

    static JsonObject json(ConfiguratorDraft d) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        d.items()
                .forEach(
                        i ->
                                items.add(
                                        Json.createObjectBuilder()
                                                .add("id", i.id())
                                                .add("name", i.name())
                                                .add("price", i.price())));
        JsonArrayBuilder variables = Json.createArrayBuilder();
        d.variables()
                .forEach(
                        v ->
                                variables.add(
                                        Json.createObjectBuilder()
                                                .add("id", v.id())
                                                .add("name", v.name())
                                                .add("type", v.type().name())
                                                .add("value", v.value())));
        return Json.createObjectBuilder()
                .add("id", d.id())
                .add("name", d.name())
                .add("description", d.description())
                .add("status", d.status().name())
                .add("version", d.version())
                .add("items", items)
                .add("variables", variables)
                .build();
    }

    private static ConfiguratorDraft draft(long id, JsonObject o) {
        List<InvalidDraftException.Problem> problems = new ArrayList<>();
        ConfiguratorStatus status =
                enumOf(ConfiguratorStatus.class, text(o, "status", problems), "status", problems);
        Long version = number(o, "version", problems, JsonNumber::longValueExact);
        List<ItemDraft> items = new ArrayList<>();
        JsonArray itemArray = array(o, "items", problems);
        for (int i = 0; i < itemArray.size(); i++) {
            JsonObject item = object(itemArray.get(i), "items[" + i + "]", problems);
            LockJson.knownFields(item, "items[" + i + "].", ITEM_FIELDS);
            items.add(
                    new ItemDraft(
                            optionalId(item, "items[" + i + "].id", problems),
                            text(item, "name", problems),
                            number(item, "price", problems, JsonNumber::bigDecimalValue)));
        }
        List<VariableDraft> variables = new ArrayList<>();
        JsonArray variableArray = array(o, "variables", problems);
        for (int i = 0; i < variableArray.size(); i++) {
            JsonObject v = object(variableArray.get(i), "variables[" + i + "]", problems);
            LockJson.knownFields(v, "variables[" + i + "].", VARIABLE_FIELDS);
            variables.add(
                    new VariableDraft(
                            optionalId(v, "variables[" + i + "].id", problems),
                            text(v, "name", problems),
                            enumOf(
                                    VariableType.class,
                                    text(v, "type", problems),
                                    "variables[" + i + "].type",
                                    problems),
                            text(v, "value", problems)));
        }
        if (!problems.isEmpty()) {
            throw new InvalidDraftException(problems);
        }
        return new ConfiguratorDraft(
                id,
                text(o, "name", problems),
                text(o, "description", problems),
                status,
                items,
                variables,
                version);
    }

    private static long id(String text) {
        try {
            long id = Long.parseLong(text);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadRequestException(
                "'" + text + "' is not a configurator id: use a positive integer.");
    }

    private static String text(
            JsonObject o, String field, List<InvalidDraftException.Problem> problems) {
        JsonValue v = o == null ? null : o.get(field);
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (v instanceof JsonString s) {
            return s.getString();
        }
        problems.add(
                new InvalidDraftException.Problem(field, "\"" + field + "\" must be a string."));
        return null;
    }

    private static <T> T number(
            JsonObject o,
            String field,
            List<InvalidDraftException.Problem> problems,
            Function<JsonNumber, T> as) {
        JsonValue v = o == null ? null : o.get(field);
        if (v instanceof JsonNumber n) {
            try {
                return as.apply(n);
            } catch (
                    RuntimeException
                            e) { // out of range, or beyond the parser's own limits on a number's
                // size
                problems.add(
                        new InvalidDraftException.Problem(
                                field, "\"" + field + "\" is out of range."));
                return null;
            }
        }
        problems.add(
                new InvalidDraftException.Problem(field, "\"" + field + "\" must be a number."));
        return null;
    }

    private static Long optionalId(
            JsonObject o, String path, List<InvalidDraftException.Problem> problems) {
        JsonValue v = o == null ? null : o.get("id");
        if (v == null || v.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (v instanceof JsonNumber n && n.isIntegral()) {
            try {
                long id = n.longValueExact();
                if (id > 0) {
                    return id;
                }
            } catch (ArithmeticException e) {
                // reported below
            }
        }
        problems.add(
                new InvalidDraftException.Problem(
                        path, "\"id\" must be a positive integer, or absent for a new " + "row."));
        return null;
    }

    private static JsonArray array(
            JsonObject o, String field, List<InvalidDraftException.Problem> problems) {
        JsonValue v = o.get(field);
        if (v instanceof JsonArray a) {
            return a;
        }
        problems.add(
                new InvalidDraftException.Problem(field, "\"" + field + "\" must be an array."));
        return JsonValue.EMPTY_JSON_ARRAY;
    }

    private static JsonObject object(
            JsonValue v, String path, List<InvalidDraftException.Problem> problems) {
        if (v instanceof JsonObject o) {
            return o;
        }
        problems.add(new InvalidDraftException.Problem(path, path + " must be an object."));
        return JsonValue.EMPTY_JSON_OBJECT;
    }

    private static <E extends Enum<E>> E enumOf(
            Class<E> type,
            String text,
            String field,
            List<InvalidDraftException.Problem> problems) {
        if (text != null) {
            for (E e : type.getEnumConstants()) {
                if (e.name().equals(text.trim().toUpperCase(Locale.ROOT))) {
                    return e;
                }
            }
        }
        problems.add(
                new InvalidDraftException.Problem(
                        field,
                        "\""
                                + field
                                + "\" must be one of "
                                + java.util.Arrays.toString(type.getEnumConstants())
                                + "."));
        return null;
    }
}
