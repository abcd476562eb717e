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
@WebServlet({ProviderLogin.START, ProviderLogin.CALLBACK})
public class ProviderLoginServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject transient ProviderLogin provider;

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
