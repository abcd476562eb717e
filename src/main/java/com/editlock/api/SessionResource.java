package com.editlock.api;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;

/** {@code POST /api/logout}: ends the session, and with it every lock the session holds. */
@Path("logout")
public class SessionResource {

    @Context HttpServletRequest request;

    @POST
    public Response logout() throws ServletException {
        request.logout();
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        return Response.noContent().build();
    }
}
