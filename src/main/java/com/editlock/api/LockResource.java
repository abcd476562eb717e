package com.editlock.api;

import com.editlock.live.LivePages;
import com.editlock.lock.HandoverRefusedException;
import com.editlock.lock.HandoverRequest;
import com.editlock.lock.Handovers;
import com.editlock.lock.Heartbeats;
import com.editlock.lock.Lock;
import com.editlock.lock.LockAdministration;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockPage;
import com.editlock.lock.LockQuery;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/** {@code /api/locks}: take, inspect, renew and release locks as the calling session. */
@Path("locks")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class LockResource {

    private static final String BODY_HINT =
            "The body must be a JSON object like "
                    + "{\"resource\":\"configurator:1\",\"mode\":\"WRITE\"}.";

    @Inject LockManager locks;

    @Inject LockAdministration administration;

    @Inject Handovers handovers;

    @Inject Heartbeats heartbeats;

    @Inject ResourceCatalog catalog;

    @Inject CurrentOwner owner;

    @Inject LivePages pages;

    @Inject MetricRegistry metrics;

    private static final Metadata FOREIGN_TABS =
            Metadata.builder()
                    .withName("heartbeat_foreign_tabs")
                    .withDescription(
                            "Tabs named by heartbeats that were not the session's open pages"
                                    + " (left out; a beat naming more than "
                                    + LockResource.MAX_FOREIGN_BEAT_TABS
                                    + " is refused)")
                    .build();

    @Context jakarta.servlet.http.HttpServletRequest request;

    @Context UriInfo uris;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response acquire(String body) {
        JsonObject request = LockJson.object(body, BODY_HINT, Set.of("resource", "mode"));
        LockKey key = LockKey.parse(text(request, "resource", null));
        LockMode mode;
        try {
            mode = LockMode.parse(text(request, "mode", "WRITE"));
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
        Lock lock = locks.acquire(key, mode, owner.get(), null);
        return Response.created(
                        uris.getBaseUriBuilder()
                                .path(LockResource.class)
                                .path("{resource}")
                                .build(key.toString()))
                .entity(LockJson.lock(lock))
                .build();
    }

    /**
     * The caller's own locks (at most {@code locks.max.locks.per.session}); for an admin every
     * lock, a page at a time: {@code ?offset=} (0) and {@code ?limit=} (100, at most 500), oldest
     * first, the total in {@code X-Total-Count}.
     */
    @GET
    public Response list(@QueryParam("offset") String offset, @QueryParam("limit") String limit) {
        JsonArrayBuilder all = Json.createArrayBuilder();
        if (!owner.isAdmin()) {
            locks.locksOf(owner.get().ownerId()).forEach(l -> all.add(LockJson.lock(l)));
            return Response.ok(all.build()).build();
        }
        LockPage<Lock> page =
                administration.find(
                        new LockQuery(
                                null,
                                null,
                                null,
                                LockQuery.Sort.ACQUIRED,
                                false,
                                whole(offset, "offset", 0, 0, Integer.MAX_VALUE),
                                whole(limit, "limit", 100, 1, 500)));
        page.rows().forEach(l -> all.add(LockJson.lock(l)));
        return Response.ok(all.build()).header("X-Total-Count", page.total()).build();
    }

    @GET
    @Path("{resource}")
    public JsonObject get(@PathParam("resource") String resource) {
        LockKey key = existing(resource);
        return locks.holder(key)
                .map(LockJson::lock)
                .orElseThrow(() -> new NotFoundException(key + " is not locked."));
    }

    @DELETE
    @Path("{resource}")
    public Response release(
            @PathParam("resource") String resource, @QueryParam("reason") String reason) {
        LockKey key = existing(resource);
        LockOwner me = owner.get();
        if (locks.release(key, me.ownerId(), null)) {
            return Response.noContent().build();
        }
        Optional<Lock> holder = locks.holder(key);
        if (holder.isEmpty()) {
            throw new NotFoundException(
                    "You hold no lock on " + key + ", and nobody else does either.");
        }
        if (!owner.isAdmin()) {
            throw new ForbiddenException(
                    key
                            + " is held by "
                            + holder.get().displayName()
                            + "; only an admin may release someone else's lock.");
        }
        if (reason == null || reason.isBlank()) {
            throw new BadRequestException(
                    "Say why you force-release "
                            + holder.get().displayName()
                            + "'s lock on "
                            + key
                            + ": add ?reason=… (it is shown to them and kept in the history).");
        }
        try {
            administration.forceRelease(key, me.login(), reason);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
        return Response.noContent().build();
    }

    /**
     * Takes {@code resource} from whoever holds it, with a reason: admins and the take-over role.
     * The holder's open page is told at once who took it and why; what they typed stays theirs as
     * their draft. Body: {@code {"reason":"…"}}.
     */
    @POST
    @Path("{resource}/take-over")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject takeOver(@PathParam("resource") String resource, String body) {
        LockKey key = existing(resource);
        if (!owner.mayTakeOver()) {
            throw new ForbiddenException(
                    "Only an admin or a person with the take-over role may take a lock from its"
                            + " holder.");
        }
        JsonObject request =
                LockJson.object(
                        body,
                        "The body must be a JSON object like {\"reason\":\"Sara is on holiday\"}.",
                        Set.of("reason"));
        String reason = text(request, "reason", "");
        if (reason.isBlank()) {
            throw new BadRequestException(
                    "Say why you take it over: {\"reason\":\"…\"} (it is shown to the holder and"
                            + " kept in the history).");
        }
        LockOwner me = owner.get();
        try {
            return LockJson.lock(locks.takeOver(key, me, null, me.login(), reason));
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
    }

    /**
     * Asks whoever holds the WRITE lock on {@code resource} to hand it over to the caller, with an
     * optional note: {@code {"note":"…"}} (or no body). The holder's open page shows it at once;
     * the answer (or the timeout) is read with GET on the request. Handed over, the caller holds
     * the lock (renew it with the heartbeat like any other).
     */
    @POST
    @Path("{resource}/handover-requests")
    public Response askForHandover(@PathParam("resource") String resource, String body) {
        LockKey key = existing(resource);
        String note = null;
        if (body != null && !body.isBlank()) {
            JsonObject request =
                    LockJson.object(
                            body,
                            "The body must be a JSON object like {\"note\":\"Just the price\"},"
                                    + " or empty.",
                            Set.of("note"));
            note = text(request, "note", "");
        }
        HandoverRequest asked;
        try {
            asked = handovers.ask(key, owner.get(), null, note);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
        return Response.created(
                        uris.getBaseUriBuilder()
                                .path(LockResource.class)
                                .path("{resource}/handover-requests/{id}")
                                .build(key.toString(), asked.id()))
                .entity(LockJson.handover(asked))
                .build();
    }

    /**
     * The caller's requests about {@code resource}: those waiting for their answer (they hold it),
     * and the newest they made themselves.
     */
    @GET
    @Path("{resource}/handover-requests")
    public JsonValue handoverRequests(@PathParam("resource") String resource) {
        LockKey key = existing(resource);
        String me = owner.get().ownerId();
        JsonArrayBuilder all = Json.createArrayBuilder();
        locks.locksIn(catalog.aggregateOf(key)).stream()
                .filter(l -> l.key().equals(key) && l.isHeldBy(me))
                .forEach(
                        l ->
                                handovers
                                        .openTo(l.fencingToken())
                                        .forEach(r -> all.add(LockJson.handover(r))));
        handovers.latest(me, key).ifPresent(r -> all.add(LockJson.handover(r)));
        return all.build();
    }

    /** One request, for its asker or its holder. */
    @GET
    @Path("{resource}/handover-requests/{id}")
    public JsonObject handoverRequest(
            @PathParam("resource") String resource, @PathParam("id") String id) {
        return LockJson.handover(request(resource, id));
    }

    /**
     * The holder's answer: {@code {"handOver":true}} passes the lock to the asker at once (nobody
     * can get in between); {@code {"handOver":false,"reply":"…"}} keeps it, and the asker is told
     * with the reply.
     */
    @POST
    @Path("{resource}/handover-requests/{id}/answer")
    @Consumes(MediaType.APPLICATION_JSON)
    public JsonObject answerHandover(
            @PathParam("resource") String resource, @PathParam("id") String id, String body) {
        HandoverRequest r = request(resource, id);
        JsonObject answer =
                LockJson.object(
                        body,
                        "The body must be a JSON object like {\"handOver\":true} or"
                                + " {\"handOver\":false,\"reply\":\"Ten more minutes\"}.",
                        Set.of("handOver", "reply"));
        JsonValue handOver = answer.get("handOver");
        if (handOver != JsonValue.TRUE && handOver != JsonValue.FALSE) {
            throw new BadRequestException(
                    "\"handOver\" must be true (hand it over) or false (keep editing).");
        }
        try {
            return LockJson.handover(
                    handovers.answer(
                            r.id(),
                            owner.get().ownerId(),
                            handOver == JsonValue.TRUE,
                            text(answer, "reply", "")));
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
    }

    /** The asker withdraws their open request. */
    @DELETE
    @Path("{resource}/handover-requests/{id}")
    public JsonObject withdrawHandover(
            @PathParam("resource") String resource, @PathParam("id") String id) {
        return LockJson.handover(
                handovers.withdraw(request(resource, id).id(), owner.get().ownerId()));
    }

    /** Request {@code id} about {@code resource}, if the caller asked it or holds its lock. */
    private HandoverRequest request(String resource, String id) {
        LockKey key = existing(resource);
        if (id == null || !id.matches("[0-9]{1,18}")) {
            throw new BadRequestException("The request id must be a whole number.");
        }
        return handovers
                .find(Long.parseLong(id), owner.get().ownerId())
                .filter(r -> r.key().equals(key))
                .orElseThrow(
                        () ->
                                new HandoverRefusedException(
                                        HandoverRefusedException.Reason.UNKNOWN,
                                        "There is no request "
                                                + id
                                                + " about "
                                                + key
                                                + " for you."));
    }

    /** Admins: the history of one resource ({@code ?resource=}) or of all, newest first. */
    @GET
    @Path("events")
    public JsonValue history(
            @QueryParam("resource") String resource, @QueryParam("limit") String limit) {
        if (!owner.isAdmin()) {
            throw new ForbiddenException("Only an admin may read the lock history.");
        }
        int rows = whole(limit, "limit", 100, 1, 1000);
        LockKey key = resource == null ? null : LockKey.parse(resource);
        JsonArrayBuilder all = Json.createArrayBuilder();
        administration.history(key, rows).forEach(e -> all.add(LockJson.event(e)));
        return all.build();
    }

    /** The most tabs one heartbeat may name (a browser with more sends several). */
    static final int MAX_BEAT_TABS = 100;

    /**
     * The most tabs one heartbeat may name that are not its session's open pages: a page that
     * closed a moment ago may still be named once or twice; more is a script.
     */
    static final int MAX_FOREIGN_BEAT_TABS = 8;

    /**
     * Renews the session's leases; {@code ?view=} (an editor page's own token, repeated for each of
     * the browser's editing tabs, at most {@value #MAX_BEAT_TABS}) limits it to those tabs' locks.
     * The node notes the beat and renews it with all its others within a second, the lease counted
     * from now ({@link Heartbeats}). One bad token refuses the whole beat: nothing is noted. A
     * token that is not one of the session's open pages (closed a moment ago, another session's,
     * made up) renews nothing and is left out; past {@value #MAX_FOREIGN_BEAT_TABS} of them the
     * whole beat is refused, so a script cannot make the node note and renew tabs by the thousand.
     */
    @POST
    @Path("heartbeat")
    public Response heartbeat(@QueryParam("view") List<String> views) {
        if (views.size() > MAX_BEAT_TABS) {
            throw new BadRequestException(
                    "One heartbeat names at most " + MAX_BEAT_TABS + " tabs; send several.");
        }
        for (String view : views) {
            if (view == null || !view.matches("[0-9a-f-]{36}")) {
                throw new BadRequestException("view must be the token of one of your tabs.");
            }
        }
        if (views.isEmpty()) { // all the owner's tabs (an API client's locks)
            heartbeats.beatTabs(owner.get().ownerId(), views);
            return Response.noContent().build();
        }
        List<String> distinct = views.stream().distinct().toList();
        List<String> own = pages.ownPages(request.getRequestedSessionId(), distinct);
        int foreign = distinct.size() - own.size();
        if (foreign > 0) {
            metrics.counter(FOREIGN_TABS).inc(foreign);
        }
        if (foreign > MAX_FOREIGN_BEAT_TABS) {
            throw new BadRequestException(
                    "A heartbeat names your own open tabs only; " + foreign + " of these are not.");
        }
        if (!own.isEmpty()) {
            heartbeats.beatTabs(owner.get().ownerId(), own);
        }
        return Response.noContent().build();
    }

    /**
     * A whole-number query parameter from {@code min} to {@code max}, {@code fallback} when absent,
     * else a 400.
     */
    private static int whole(String text, String name, int fallback, int min, int max) {
        if (text == null || text.isEmpty()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadRequestException(
                name + " must be a whole number from " + min + " to " + max + ".");
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
