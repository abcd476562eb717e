package com.editlock.security;

import com.editlock.errors.ErrorAnswers;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /oidc/login?next=…} sends the browser to the company's provider to sign in ({@link
 * ProviderLogin#start}); {@code GET /oidc/callback} is where it comes back: {@link
 * EditlockAuthentication} has logged the person in by then, and this sends the browser on to the
 * page it first asked for. Both are {@code 404} when no provider is configured.
 */
@WebServlet({ProviderLogin.START, ProviderLogin.CALLBACK, ProviderLogin.BACK_CHANNEL})
public class ProviderLoginServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject transient ProviderLogin provider;

    @Inject transient ProviderLogouts logouts;

    /**
     * {@code POST /oidc/backchannel-logout} with a {@code logout_token}: the provider ends a
     * person's session there, and their Editlock sessions logged in through it end on every node
     * ({@link ProviderLogouts}). {@code 200} when taken (also for someone Editlock does not know:
     * nothing to end), {@code 400} with the reason in JSON when the token is not the provider's.
     */
    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        response.setHeader("Cache-Control", "no-store");
        if (!request.getServletPath().equals(ProviderLogin.BACK_CHANNEL)) {
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        ProviderLogin.LoggedOut out;
        try {
            out = provider.backChannel(request.getParameter("logout_token"));
        } catch (ProviderLogin.Refused e) {
            response.setStatus(e.status());
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            response.getWriter()
                    .write(
                            jakarta.json.Json.createObjectBuilder()
                                    .add(
                                            "error",
                                            e.status() == 400 ? "invalid_request" : "unavailable")
                                    .add(
                                            "error_description",
                                            com.editlock.platform.Languages.text(
                                                            java.util.Locale.ENGLISH)
                                                    .getString(e.key()))
                                    .build()
                                    .toString());
            return;
        }
        if (out.login() != null) {
            logouts.note(out.login(), out.sid());
        }
        response.setStatus(HttpServletResponse.SC_OK);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        response.setHeader("Cache-Control", "no-store");
        if (request.getServletPath().equals(ProviderLogin.CALLBACK)) {
            if (request.getAttribute(ProviderLogin.NEXT) instanceof String next) {
                response.sendRedirect(request.getContextPath() + next);
            } else {
                ErrorAnswers.say(request, response, 400, "sso.error.state");
            }
            return;
        }
        try {
            response.sendRedirect(provider.start(request, request.getParameter("next")).toString());
        } catch (ProviderLogin.Refused e) {
            ErrorAnswers.say(request, response, e.status(), e.key(), e.args());
        }
    }
}
