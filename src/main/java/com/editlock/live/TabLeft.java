package com.editlock.live;

import com.editlock.security.CurrentOwner;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code POST /tab-left?view=…}: the page's goodbye as it is left ({@code pagehide}, sent as a
 * beacon). The tab's locks are released at once instead of after the tab-close grace. Only a tab of
 * the caller's own session is affected.
 */
@WebServlet("/tab-left")
public class TabLeft extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject transient LivePages live;

    @Inject transient CurrentOwner owner;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) {
        String view = request.getParameter("view");
        if (view == null || !view.matches("[0-9a-f-]{36}")) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        owner.find().ifPresent(me -> live.leave(view, me.ownerId()));
        response.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }
}
