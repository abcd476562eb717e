package com.editlock.api;

import com.editlock.security.CurrentOwner;
import com.editlock.security.People;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code /api/people}, for admins logged in with their password (a token cannot manage people):
 * {@code GET} lists everyone; {@code POST} adds a person and answers their password this once;
 * {@code PUT /{login}/roles} sets their roles; {@code POST /{login}/password} gives them a new
 * password (answered this once); {@code POST /{login}/disable} with a reason disables them (see
 * {@link People}); {@code POST /{login}/enable} lets them in again; {@code GET /{login}/changes}
 * lists what admins changed about them.
 */
@Path("people")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class PeopleResource {

    private static final String ADD_HINT =
            "The body must be a JSON object like"
                    + " {\"login\":\"ivy\",\"name\":\"Ivy Park\",\"roles\":[\"editor\"]}.";

    private static final String ROLES_HINT =
            "The body must be a JSON object like {\"roles\":[\"editor\",\"take-over\"]}.";

    private static final String DISABLE_HINT =
            "The body must be a JSON object like {\"reason\":\"Left the company\"}.";

    @Inject People people;

    @Inject CurrentOwner owner;

    @GET
    public JsonValue list() {
        admin();
        JsonArrayBuilder all = Json.createArrayBuilder();
        people.list().forEach(p -> all.add(json(p)));
        return all.build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response add(String body) {
        String me = admin();
        JsonObject request = LockJson.object(body, ADD_HINT, Set.of("login", "name", "roles"));
        People.Added added =
                people.add(
                        text(request, "login", ADD_HINT),
                        text(request, "name", ADD_HINT),
                        roles(request, ADD_HINT),
                        me);
        return Response.status(Response.Status.CREATED)
                .cacheControl(noStore())
                .entity(json(added.person()).add("password", added.password()).build())
                .build();
    }

    @PUT
    @Path("{login}/roles")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject roles(@PathParam("login") String login, String body) {
        String me = admin();
        JsonObject request = LockJson.object(body, ROLES_HINT, Set.of("roles"));
        return json(people.setRoles(login, roles(request, ROLES_HINT), me)).build();
    }

    @POST
    @Path("{login}/password")
    public Response resetPassword(@PathParam("login") String login) {
        String password = people.resetPassword(login, admin());
        return Response.ok(Json.createObjectBuilder().add("password", password).build())
                .cacheControl(noStore())
                .build();
    }

    @POST
    @Path("{login}/disable")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject disable(@PathParam("login") String login, String body) {
        String me = admin();
        JsonObject request = LockJson.object(body, DISABLE_HINT, Set.of("reason"));
        return json(people.disable(login, text(request, "reason", DISABLE_HINT), me)).build();
    }

    @POST
    @Path("{login}/enable")
    public JsonObject enable(@PathParam("login") String login) {
        return json(people.enable(login, admin())).build();
    }

    @GET
    @Path("{login}/changes")
    public JsonArray changes(@PathParam("login") String login) {
        admin();
        JsonArrayBuilder all = Json.createArrayBuilder();
        people.changes(login, 1000)
                .forEach(
                        c ->
                                all.add(
                                        Json.createObjectBuilder()
                                                .add("id", c.id())
                                                .add("user", c.login())
                                                .add("by", c.by())
                                                .add("at", c.at().toString())
                                                .add("change", c.change())
                                                .add("detail", c.detail())));
        return all.build();
    }

    /** The admin who asks; refuses anyone else, and tokens. */
    private String admin() {
        if (!owner.isAdmin()) {
            throw new ForbiddenException("Only an admin may manage people.");
        }
        if (owner.byToken()) {
            throw new ForbiddenException(
                    "A token cannot manage people: log in with your password.");
        }
        return owner.get().login();
    }

    static JsonObjectBuilder json(People.Person p) {
        JsonArrayBuilder roles = Json.createArrayBuilder();
        p.roles().stream().sorted().forEach(roles::add);
        JsonObjectBuilder b =
                Json.createObjectBuilder()
                        .add("login", p.login())
                        .add("name", p.name())
                        .add("roles", roles)
                        .add("source", p.viaProvider() ? "provider" : "local")
                        .add("held", p.held())
                        .add("disabled", p.isDisabled());
        if (p.lastSeen() != null) {
            b.add("lastSeen", p.lastSeen().toString());
        }
        if (p.isDisabled()) {
            b.add("disabledAt", p.disabledAt().toString())
                    .add("disabledBy", p.disabledBy())
                    .add("disabledReason", p.disabledReason());
        }
        return b;
    }

    private static CacheControl noStore() {
        CacheControl noStore = new CacheControl();
        noStore.setNoStore(true);
        return noStore;
    }

    private static String text(JsonObject request, String field, String hint) {
        JsonValue value = request.get(field);
        if (!(value instanceof JsonString s)) {
            throw new BadRequestException("\"" + field + "\" must be a string. " + hint);
        }
        return s.getString();
    }

    private static List<String> roles(JsonObject request, String hint) {
        JsonValue value = request.get("roles");
        if (!(value instanceof JsonArray array)) {
            throw new BadRequestException("\"roles\" must be an array of strings. " + hint);
        }
        List<String> roles = new ArrayList<>();
        for (JsonValue role : array) {
            if (!(role instanceof JsonString s)) {
                throw new BadRequestException("\"roles\" must be an array of strings. " + hint);
            }
            roles.add(s.getString());
        }
        return roles;
    }
}
