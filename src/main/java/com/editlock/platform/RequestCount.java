package com.editlock.platform;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Counts every request the application serves on this node, for {@link NodeDrain}; not the health
 * checks (Payara Micro passes {@code /health} through the application's filters too), which the
 * proxy sends every half second whether or not the node takes users.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class RequestCount extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(
            HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!request.getRequestURI().startsWith("/health")) {
            NodeDrain.served();
        }
        chain.doFilter(request, response);
    }
}
