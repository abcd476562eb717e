package com.editlock.it;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The API's attack surface, as {@link HostileInputIT} sends it: each request of the catalogue, who
 * sends it (Sara, Omar or Ada, by login), and the status and sentence it must get. The suite sends
 * each one, and requires that nothing in the database changed; the screens' surface, the headers,
 * the logins, the live stream and the raw connection are judged in the suite itself (one node for
 * all of them: each Arquillian suite boots its own).
 */
final class HostileApiCatalogue {

    static final String EVIL = "https://evil.example";
    static final String SCRIPT = "<script>alert(1)</script>";
    static final String SQL = "1'; drop table app_lock; --";

    /** One API session: its cookie, sent by hand so each case controls every header. */
    record Session(String cookie) {}

    /** A request of the catalogue and what it must get. */
    record Case(
            String name,
            Supplier<Session> as,
            String method,
            String path,
            Map<String, String> headers,
            String body,
            int status,
            String says) {}

    /** The catalogue's sessions, by login. */
    private final Function<String, Session> as;

    HostileApiCatalogue(Function<String, Session> as) {
        this.as = as;
    }

    /** Every request of the catalogue, with the answer it must get. */
    List<Case> cases() {
        List<Case> all = new ArrayList<>();
        // ---- lock keys, modes and bodies ----
        lock(all, "malformed key", "{\"resource\":\"configurator:abc\"}", 400, "configurator");
        lock(all, "negative id", "{\"resource\":\"configurator:-1\"}", 400, "configurator");
        lock(
                all,
                "id beyond a long",
                "{\"resource\":\"configurator:99999999999999999999\"}",
                400,
                "configurator");
        lock(all, "unknown resource type", "{\"resource\":\"invoice:1\"}", 400, "invoice");
        lock(
                all,
                "unknown id",
                "{\"resource\":\"configurator:999999\"}",
                404,
                "configurator:999999");
        lock(
                all,
                "10,000-character key",
                "{\"resource\":\"" + "x".repeat(10_000) + "\"}",
                400,
                "resource");
        lock(
                all,
                "unknown mode",
                "{\"resource\":\"configurator:3\",\"mode\":\"OWN\"}",
                400,
                "mode");
        lock(all, "mode as a number", "{\"resource\":\"configurator:3\",\"mode\":5}", 400, "mode");
        lock(all, "key as a number", "{\"resource\":5}", 400, "resource");
        lock(all, "key missing", "{}", 400, "missing");
        lock(all, "array instead of object", "[]", 400, "JSON object");
        lock(all, "truncated JSON", "{\"resource\":\"configurator:3\"", 400, "not valid JSON");
        lock(
                all,
                "unknown field",
                "{\"resource\":\"configurator:3\",\"owner\":\"sara\"}",
                400,
                "Unknown field");
        lock(all, "200,000 nested arrays", "[".repeat(200_000), 400, "deeper");
        lock(
                all,
                "NUL in the key",
                "{\"resource\":\"configurator:3\\u0000\"}",
                400,
                "control character");
        lock(
                all,
                "unpaired surrogate",
                "{\"resource\":\"configurator:\\ud800\"}",
                400,
                "broken character");
        lock(all, "SQL in the key", "{\"resource\":\"" + SQL + "\"}", 400, "resource");
        lock(
                all,
                "script in the key",
                "{\"resource\":\"" + SCRIPT.replace("/", "\\/") + "\"}",
                400,
                "resource");
        lock(
                all,
                "control character in a field name",
                "{\"res\\u0001ource\":\"configurator:3\"}",
                400,
                "control character");
        lock(all, "someone else's record", "{\"resource\":\"configurator:1\"}", 409, "Sara");
        lock(
                all,
                "a sub-page of someone else's record",
                "{\"resource\":\"configurator:1:variables\"}",
                409,
                "Sara");
        all.add(
                new Case(
                        "body larger than the limit",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks",
                        json(),
                        "{\"resource\":\"configurator:3\",\"x\":\"" + "a".repeat(300_000) + "\"}",
                        413,
                        "larger than"));
        all.add(
                new Case(
                        "a page's form sent in chunks",
                        null,
                        "POST",
                        "login.xhtml",
                        Map.of(
                                "Content-Type",
                                "application/x-www-form-urlencoded",
                                "X-Chunked",
                                "yes"),
                        "login=login&login:username=" + "a".repeat(2_000_000) + "&login:password=x",
                        411,
                        "in chunks"));
        all.add(
                new Case(
                        "chunked body larger than the limit",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks",
                        Map.of("Content-Type", "application/json", "X-Chunked", "yes"),
                        "{\"resource\":\"" + "a".repeat(300_000) + "\"}",
                        413,
                        "larger than"));
        all.add(
                new Case(
                        "text/plain body",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks",
                        Map.of("Content-Type", "text/plain"),
                        "{\"resource\":\"configurator:3\"}",
                        415,
                        "application/json"));
        all.add(
                new Case(
                        "form-encoded body",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks",
                        Map.of("Content-Type", "application/x-www-form-urlencoded"),
                        "resource=configurator:3",
                        415,
                        "application/json"));
        all.add(
                new Case(
                        "body without a content type",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks",
                        Map.of(),
                        "{\"resource\":\"configurator:3\"}",
                        415,
                        "application/json"));

        // ---- saves ----
        String good =
                "{\"name\":\"Home insurance\",\"description\":\"d\",\"status\":\"ACTIVE\",\"version\":%s,"
                        + "\"items\":[],\"variables\":[]}";
        save(all, "save without the lock (Sara holds it)", 1, good.formatted(1), 409, "lock");
        save(all, "save of an unknown configurator", 999_999, good.formatted(1), 409, "lock");
        save(
                all,
                "id that is not a number",
                "abc",
                good.formatted(1),
                400,
                "not a configurator id");
        save(all, "id zero", "0", good.formatted(1), 400, "not a configurator id");
        save(
                all,
                "id beyond a long",
                "99999999999999999999",
                good.formatted(1),
                400,
                "not a configurator id");
        save(
                all,
                "NUL in the name",
                2,
                good.formatted(1).replace("Home insurance", "a\\u0000b"),
                400,
                "control character");
        save(
                all,
                "unpaired surrogate in the description",
                2,
                good.formatted(1).replace("\"d\"", "\"\\udc00\""),
                400,
                "broken character");
        save(
                all,
                "unknown field",
                2,
                good.formatted(1).replace("\"items\"", "\"owner\":\"ada\",\"items\""),
                400,
                "Unknown field");
        save(
                all,
                "unknown field in an item",
                2,
                good.formatted(1)
                        .replace(
                                "\"items\":[]",
                                "\"items\":[{\"name\":\"a\",\"price\":1,\"deleted\":true}]"),
                400,
                "Unknown field");
        save(all, "version as text", 2, good.formatted("\"abc\""), 400, "version");
        save(
                all,
                "price beyond any range",
                2,
                good.formatted(1)
                        .replace(
                                "\"items\":[]",
                                "\"items\":[{\"name\":\"a\",\"price\":1e999999999}]"),
                400,
                "price");
        save(
                all,
                "negative price",
                2,
                good.formatted(1)
                        .replace("\"items\":[]", "\"items\":[{\"name\":\"a\",\"price\":-1}]"),
                400,
                "negative");
        save(
                all,
                "item id beyond a long",
                2,
                good.formatted(1)
                        .replace(
                                "\"items\":[]",
                                "\"items\":[{\"id\":1e30,\"name\":\"a\",\"price\":1}]"),
                400,
                "positive integer");
        save(
                all,
                "body id differs from the address",
                2,
                good.formatted(1).replace("{\"name\"", "{\"id\":1,\"name\""),
                400,
                "must be 2");
        save(
                all,
                "items as an object",
                2,
                good.formatted(1).replace("\"items\":[]", "\"items\":{}"),
                400,
                "must be an array");
        save(
                all,
                "201 items",
                2,
                good.formatted(1)
                        .replace(
                                "\"items\":[]",
                                "\"items\":["
                                        + String.join(
                                                ",",
                                                java.util.Collections.nCopies(
                                                        201, "{\"name\":\"a\",\"price\":1}"))
                                        + "]"),
                400,
                "At most 200");
        save(
                all,
                "121-character name",
                2,
                good.formatted(1).replace("Home insurance", "n".repeat(121)),
                400,
                "at most 120");
        save(
                all,
                "unknown status",
                2,
                good.formatted(1).replace("ACTIVE", "DELETED"),
                400,
                "status");
        save(all, "not JSON", 2, "name=x", 400, "not valid JSON");
        all.add(
                new Case(
                        "save as text/plain",
                        () -> as.apply("omar"),
                        "PUT",
                        "api/configurators/2",
                        Map.of("Content-Type", "text/plain"),
                        good.formatted(1),
                        415,
                        "application/json"));

        // ---- other users' resources, admin actions as an editor, admin input ----
        all.add(
                new Case(
                        "editor releases someone else's lock",
                        () -> as.apply("omar"),
                        "DELETE",
                        "api/locks/configurator:1",
                        Map.of(),
                        null,
                        403,
                        "only an admin"));
        all.add(
                new Case(
                        "editor reads the history",
                        () -> as.apply("omar"),
                        "GET",
                        "api/locks/events",
                        Map.of(),
                        null,
                        403,
                        "Only an admin"));
        all.add(
                new Case(
                        "editor opens the dashboard",
                        () -> as.apply("omar"),
                        "GET",
                        "admin/locks.xhtml",
                        Map.of(),
                        null,
                        403,
                        "not allowed"));
        all.add(
                new Case(
                        "force release with NUL as the reason",
                        () -> as.apply("ada"),
                        "DELETE",
                        "api/locks/configurator:1?reason=%00",
                        Map.of(),
                        null,
                        400,
                        "control character"));
        all.add(
                new Case(
                        "force release without a reason",
                        () -> as.apply("ada"),
                        "DELETE",
                        "api/locks/configurator:1",
                        Map.of(),
                        null,
                        400,
                        "Say why"));
        all.add(
                new Case(
                        "force release with a 501-character reason",
                        () -> as.apply("ada"),
                        "DELETE",
                        "api/locks/configurator:1?reason=" + "r".repeat(501),
                        Map.of(),
                        null,
                        400,
                        "too long"));
        all.add(
                new Case(
                        "force release with a broken character in the reason",
                        () -> as.apply("ada"),
                        "DELETE",
                        "api/locks/configurator:1?reason=%ED%A0%80x%C2%85",
                        Map.of(),
                        null,
                        400,
                        "control character"));
        all.add(
                new Case(
                        "history limit as text",
                        () -> as.apply("ada"),
                        "GET",
                        "api/locks/events?limit=abc",
                        Map.of(),
                        null,
                        400,
                        "limit"));
        all.add(
                new Case(
                        "history limit zero",
                        () -> as.apply("ada"),
                        "GET",
                        "api/locks/events?limit=0",
                        Map.of(),
                        null,
                        400,
                        "limit"));
        all.add(
                new Case(
                        "history limit beyond an int",
                        () -> as.apply("ada"),
                        "GET",
                        "api/locks/events?limit=99999999999",
                        Map.of(),
                        null,
                        400,
                        "limit"));
        all.add(
                new Case(
                        "lock list offset negative",
                        () -> as.apply("ada"),
                        "GET",
                        "api/locks?offset=-1",
                        Map.of(),
                        null,
                        400,
                        "offset"));
        all.add(
                new Case(
                        "history of a script key",
                        () -> as.apply("ada"),
                        "GET",
                        "api/locks/events?resource=%3Cscript%3E",
                        Map.of(),
                        null,
                        400,
                        "resource"));

        // ---- cross-site requests ----
        all.add(
                new Case(
                        "cross-site logout (text/plain)",
                        () -> as.apply("omar"),
                        "POST",
                        "api/logout",
                        Map.of("Origin", EVIL, "Content-Type", "text/plain"),
                        "x",
                        403,
                        "another site"));
        all.add(
                new Case(
                        "cross-site lock",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks",
                        Map.of("Origin", EVIL, "Content-Type", "application/json"),
                        "{\"resource\":\"configurator:3\"}",
                        403,
                        "another site"));
        all.add(
                new Case(
                        "cross-site release (Sec-Fetch-Site)",
                        () -> as.apply("omar"),
                        "DELETE",
                        "api/locks/configurator:2",
                        Map.of("Sec-Fetch-Site", "cross-site"),
                        null,
                        403,
                        "another site"));
        all.add(
                new Case(
                        "same-site sibling saves",
                        () -> as.apply("omar"),
                        "PUT",
                        "api/configurators/2",
                        Map.of("Sec-Fetch-Site", "same-site", "Content-Type", "application/json"),
                        good.formatted(1),
                        403,
                        "another site"));
        String tabToken = "view=0b7c3c4e-5d1f-4a57-9c1e-2f1d6b8e9a01";
        all.add(
                new Case(
                        "heartbeat naming 101 tabs",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks/heartbeat?"
                                + String.join("&", Collections.nCopies(101, tabToken)),
                        Map.of(),
                        null,
                        400,
                        "at most 100 tabs"));
        List<String> madeUpTabs = new java.util.ArrayList<>();
        for (int i = 0; i < 9; i++) {
            madeUpTabs.add(String.format("view=0b7c3c4e-5d1f-4a57-9c1e-%012d", i));
        }
        all.add(
                new Case(
                        "heartbeat naming 9 tabs that are not the session's open pages",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks/heartbeat?" + String.join("&", madeUpTabs),
                        Map.of(),
                        null,
                        400,
                        "your own open tabs only; 9 of these are not"));
        all.add(
                new Case(
                        "heartbeat naming a tab by something not a token among real ones",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks/heartbeat?" + tabToken + "&view=%27%20or%201=1--&" + tabToken,
                        Map.of(),
                        null,
                        400,
                        "token of one of your tabs"));
        all.add(
                new Case(
                        "heartbeat from an opaque origin",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks/heartbeat",
                        Map.of("Origin", "null"),
                        null,
                        403,
                        "another site"));
        all.add(
                new Case(
                        "cross-site tab goodbye",
                        () -> as.apply("omar"),
                        "POST",
                        "tab-left?view=" + java.util.UUID.randomUUID(),
                        Map.of("Origin", EVIL),
                        null,
                        403,
                        "another site"));
        all.add(
                new Case(
                        "body-less form post naming no origin (an old browser's cross-site form)",
                        () -> as.apply("omar"),
                        "POST",
                        "api/logout",
                        Map.of("Content-Type", "application/x-www-form-urlencoded"),
                        null,
                        403,
                        "another site"));
        all.add(
                new Case(
                        "cross-site login form",
                        null,
                        "POST",
                        "login.xhtml",
                        Map.of("Origin", EVIL, "Content-Type", "application/x-www-form-urlencoded"),
                        "login=login&login:username=ada&login:password=demo",
                        403,
                        "another site"));

        // ---- path tricks ----
        path(all, "encoded letter in the path", "%61pi/locks");
        path(all, "encoded letters around the admin check", "%61dmin/locks.xhtml");
        path(all, "';' path parameter", "api;x=1/locks");
        path(all, "'..' segment", "api/../admin/locks.xhtml");
        path(all, "'//' in the path", "api//locks");
        path(all, "encoded slash", "api/locks/configurator:1%2F..%2F2");
        // The HTTP layer itself refuses a NUL in the path, before any application code, with a bare
        // 400.
        all.add(
                new Case(
                        "NUL in the path",
                        () -> as.apply("ada"),
                        "GET",
                        "api/locks/configurator:1%00",
                        Map.of(),
                        null,
                        400,
                        ""));
        all.add(
                new Case(
                        "NUL in the query",
                        () -> as.apply("omar"),
                        "GET",
                        "configurators.xhtml?x=%00",
                        Map.of(),
                        null,
                        400,
                        "control character"));

        // ---- logins ----
        all.add(
                new Case(
                        "Basic with NUL in the user name",
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", basic("ad\u0000a", "demo")),
                        null,
                        401,
                        "Wrong user name or password"));
        all.add(
                new Case(
                        "Basic that is not Base64",
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", "Basic %%%"),
                        null,
                        401,
                        "Wrong user name or password"));
        all.add(
                new Case(
                        "Basic with a 4,000-character password",
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", basic("omar", "p".repeat(4_000))),
                        null,
                        401,
                        "Wrong user name"));
        // The HTTP layer refuses headers beyond its limit itself, with a bare 400.
        all.add(
                new Case(
                        "request headers of 100,000 characters",
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", basic("omar", "p".repeat(100_000))),
                        null,
                        400,
                        ""));
        all.add(
                new Case(
                        "Basic with SQL as the user",
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", basic("x' or '1'='1", "x")),
                        null,
                        401,
                        "Wrong user name"));
        all.add(
                new Case(
                        "page's background request without a session",
                        null,
                        "POST",
                        "api/locks/heartbeat",
                        Map.of("Sec-Fetch-Mode", "cors", "Sec-Fetch-Site", "same-origin"),
                        null,
                        401,
                        "Log in"));
        // ---- API tokens ----
        all.add(
                new Case(
                        "made-up API token",
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", "Bearer elk_" + "A".repeat(43)),
                        null,
                        401,
                        "unknown, expired or revoked"));
        all.add(
                new Case(
                        "API token of SQL",
                        null,
                        "GET",
                        "api/locks",
                        Map.of("Authorization", "Bearer " + SQL),
                        null,
                        401,
                        "unknown, expired or revoked"));
        all.add(
                new Case(
                        "API token sent to a page",
                        null,
                        "GET",
                        "configurators.xhtml",
                        Map.of("Authorization", "Bearer elk_" + "A".repeat(43)),
                        null,
                        401,
                        "JSON API"));
        all.add(
                new Case(
                        "editor makes a token for someone else",
                        () -> as.apply("omar"),
                        "POST",
                        "api/tokens",
                        json(),
                        "{\"name\":\"x\",\"user\":\"sara\"}",
                        403,
                        "Only an admin"));
        all.add(
                new Case(
                        "token name of 10,000 characters",
                        () -> as.apply("omar"),
                        "POST",
                        "api/tokens",
                        json(),
                        "{\"name\":\"" + "n".repeat(10_000) + "\"}",
                        400,
                        "name of 1 to 100"));
        all.add(
                new Case(
                        "token for ten years",
                        () -> as.apply("omar"),
                        "POST",
                        "api/tokens",
                        json(),
                        "{\"name\":\"x\",\"days\":3650}",
                        400,
                        "from 1 to 365"));
        all.add(
                new Case(
                        "token for an unknown user, by an admin",
                        () -> as.apply("ada"),
                        "POST",
                        "api/tokens",
                        json(),
                        "{\"name\":\"x\",\"user\":\"nobody\"}",
                        404,
                        "no user nobody"));
        all.add(
                new Case(
                        "revoke a token id that is not a number",
                        () -> as.apply("omar"),
                        "DELETE",
                        "api/tokens/abc",
                        Map.of(),
                        null,
                        400,
                        "whole number"));
        all.add(
                new Case(
                        "revoke a token one does not have",
                        () -> as.apply("omar"),
                        "DELETE",
                        "api/tokens/999999",
                        Map.of(),
                        null,
                        404,
                        "no API token"));
        // ---- drafts ----
        all.add(
                new Case(
                        "draft beyond its bound",
                        () -> as.apply("omar"),
                        "PUT",
                        "api/drafts/configurator:3",
                        json(),
                        "{\"fields\":{\"edit:name\":\"" + "d".repeat(100_000) + "\"},\"base\":{}}",
                        400,
                        "at most 65536 are kept"));
        all.add(
                new Case(
                        "draft with a number for a field",
                        () -> as.apply("omar"),
                        "PUT",
                        "api/drafts/configurator:3",
                        json(),
                        "{\"fields\":{\"edit:name\":1},\"base\":{}}",
                        400,
                        "must be a string"));
        all.add(
                new Case(
                        "draft of a record that does not exist",
                        () -> as.apply("omar"),
                        "PUT",
                        "api/drafts/configurator:999999",
                        json(),
                        "{\"fields\":{},\"base\":{}}",
                        404,
                        "configurator:999999"));
        all.add(
                new Case(
                        "reading a draft one does not have",
                        () -> as.apply("omar"),
                        "GET",
                        "api/drafts/configurator:1",
                        Map.of(),
                        null,
                        404,
                        "You have no draft"));
        // ---- take-over ----
        all.add(
                new Case(
                        "take-over by an editor without the role",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks/configurator:1/take-over",
                        json(),
                        "{\"reason\":\"mine now\"}",
                        403,
                        "take-over role"));
        all.add(
                new Case(
                        "take-over without a reason",
                        () -> as.apply("ada"),
                        "POST",
                        "api/locks/configurator:1/take-over",
                        json(),
                        "{\"reason\":\"  \"}",
                        400,
                        "Say why you take it over"));
        all.add(
                new Case(
                        "take-over with a reason of 501 characters",
                        () -> as.apply("ada"),
                        "POST",
                        "api/locks/configurator:1/take-over",
                        json(),
                        "{\"reason\":\"" + "r".repeat(501) + "\"}",
                        400,
                        "at most 500 characters"));
        // ---- hand-over requests (Sara holds configurator:1, Omar configurator:2) ----
        String ask = "api/locks/configurator:1/handover-requests";
        all.add(
                new Case(
                        "hand-over note of 501 characters",
                        () -> as.apply("omar"),
                        "POST",
                        ask,
                        json(),
                        "{\"note\":\"" + "n".repeat(501) + "\"}",
                        400,
                        "The note is too long: at most 500 characters"));
        all.add(
                new Case(
                        "hand-over note with a control character",
                        () -> as.apply("omar"),
                        "POST",
                        ask,
                        json(),
                        "{\"note\":\"ring\\u0007\"}",
                        400,
                        // the sentence is "note" contains ..., its quotes escaped in JSON
                        "note\\\" contains a control character (U+0007) at position 5"));
        all.add(
                new Case(
                        "hand-over note as a number",
                        () -> as.apply("omar"),
                        "POST",
                        ask,
                        json(),
                        "{\"note\":5}",
                        400,
                        "must be a string"));
        all.add(
                new Case(
                        "hand-over asked of a record nobody edits",
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks/configurator:3/handover-requests",
                        json(),
                        "{}",
                        409,
                        "Nobody is editing configurator:3 now"));
        all.add(
                new Case(
                        "hand-over asked of oneself",
                        () -> as.apply("sara"),
                        "POST",
                        ask,
                        json(),
                        "{}",
                        409,
                        "You are editing configurator:1 yourself"));
        all.add(
                new Case(
                        "answer to a request that does not exist",
                        () -> as.apply("sara"),
                        "POST",
                        ask + "/999999/answer",
                        json(),
                        "{\"handOver\":true}",
                        404,
                        "There is no request 999999 about configurator:1 for you"));
        all.add(
                new Case(
                        "hand-over request id that is not a number",
                        () -> as.apply("sara"),
                        "GET",
                        ask + "/1%20or%201=1",
                        Map.of(),
                        null,
                        400,
                        "whole number"));
        all.add(
                new Case(
                        "withdraw a request that does not exist",
                        () -> as.apply("omar"),
                        "DELETE",
                        ask + "/999999",
                        Map.of(),
                        null,
                        404,
                        "no request 999999"));
        // ---- people (Ada is an admin who logged in with her password; Omar an editor) ----
        person(
                all,
                "people listed by an editor",
                "omar",
                "GET",
                "api/people",
                null,
                403,
                "Only an admin");
        person(
                all,
                "person added by an editor",
                "omar",
                "POST",
                "api/people",
                "{\"login\":\"ivy\",\"name\":\"Ivy\",\"roles\":[\"admin\"]}",
                403,
                "Only an admin");
        person(
                all,
                "password reset by an editor",
                "omar",
                "POST",
                "api/people/sara/password",
                null,
                403,
                "Only an admin");
        person(
                all,
                "login with a space",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"ivy park\",\"name\":\"Ivy\",\"roles\":[\"editor\"]}",
                400,
                "A login is 1 to 64 characters");
        person(
                all,
                "login that is SQL",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"" + SQL + "\",\"name\":\"Ivy\",\"roles\":[\"editor\"]}",
                400,
                "A login is 1 to 64 characters");
        person(
                all,
                "login of someone who exists",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"sara\",\"name\":\"Sara Two\",\"roles\":[\"editor\"]}",
                409,
                "There is already a person who logs in as sara");
        person(
                all,
                "name of 201 characters",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"ivy\",\"name\":\"" + "n".repeat(201) + "\",\"roles\":[\"editor\"]}",
                400,
                "A name is 1 to 200 characters");
        person(
                all,
                "name with a control character",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"ivy\",\"name\":\"Ivy\\u0000\",\"roles\":[\"editor\"]}",
                400,
                "control character (U+0000)");
        person(
                all,
                "a role that does not exist",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"ivy\",\"name\":\"Ivy\",\"roles\":[\"root\"]}",
                400,
                "there is no role root");
        person(
                all,
                "no role at all",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"ivy\",\"name\":\"Ivy\",\"roles\":[]}",
                400,
                "Give at least one role");
        person(
                all,
                "roles as a string",
                "ada",
                "PUT",
                "api/people/sara/roles",
                "{\"roles\":\"admin\"}",
                400,
                "must be an array of strings");
        person(
                all,
                "a field the person does not have",
                "ada",
                "POST",
                "api/people",
                "{\"login\":\"ivy\",\"name\":\"Ivy\",\"roles\":[\"editor\"],\"password\":\"x\"}",
                400,
                "password");
        person(
                all,
                "roles of nobody",
                "ada",
                "PUT",
                "api/people/nobody-here/roles",
                "{\"roles\":[\"editor\"]}",
                404,
                "There is nobody who logs in as nobody-here");
        person(
                all,
                "an admin disables herself",
                "ada",
                "POST",
                "api/people/ada/disable",
                "{\"reason\":\"testing\"}",
                409,
                "You cannot disable yourself");
        person(
                all,
                "disable without a reason",
                "ada",
                "POST",
                "api/people/sara/disable",
                "{\"reason\":\"   \"}",
                400,
                "Say why");
        person(
                all,
                "disable with a reason of 501 characters",
                "ada",
                "POST",
                "api/people/sara/disable",
                "{\"reason\":\"" + "r".repeat(501) + "\"}",
                400,
                "in 1 to 500 characters");
        person(
                all,
                "enable someone who is not disabled",
                "ada",
                "POST",
                "api/people/sara/enable",
                null,
                409,
                "Sara is not disabled");
        person(
                all,
                "changes of a login that is SQL",
                "ada",
                "GET",
                "api/people/1'%20or%20'1'='1/changes",
                null,
                404,
                "There is nobody who logs in as");
        // ---- the live stream ----
        all.add(
                new Case(
                        "live stream opened by another site's page",
                        () -> as.apply("omar"),
                        "GET",
                        "live?tabs=" + java.util.UUID.randomUUID(),
                        Map.of("Origin", EVIL, "Sec-Fetch-Site", "cross-site"),
                        null,
                        403,
                        "own pages"));
        return all;
    }

    private void lock(List<Case> all, String name, String body, int status, String says) {
        all.add(
                new Case(
                        name,
                        () -> as.apply("omar"),
                        "POST",
                        "api/locks",
                        json(),
                        body,
                        status,
                        says));
    }

    private void save(
            List<Case> all, String name, Object id, String body, int status, String says) {
        all.add(
                new Case(
                        name,
                        () -> as.apply("omar"),
                        "PUT",
                        "api/configurators/" + id,
                        json(),
                        body,
                        status,
                        says));
    }

    private void person(
            List<Case> all,
            String name,
            String who,
            String method,
            String path,
            String body,
            int status,
            String says) {
        all.add(
                new Case(
                        name,
                        () -> as.apply(who),
                        method,
                        path,
                        body == null ? Map.of() : json(),
                        body,
                        status,
                        says));
    }

    private void path(List<Case> all, String name, String path) {
        all.add(
                new Case(
                        name,
                        () -> as.apply("ada"),
                        "GET",
                        path,
                        Map.of(),
                        null,
                        400,
                        "canonical form"));
    }

    static Map<String, String> json() {
        return Map.of("Content-Type", "application/json");
    }

    static String basic(String user, String password) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
