/*
 * Tells the server the reader's time zone (the browser's own), in the cookie editlock-zone, so that every time a page
 * shows is in the reader's zone. Runs on every page, the login page first, so the pages after login know it.
 */
(function () {
    var zone;
    try {
        zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch (e) {
        return;
    }
    if (!zone || zone.length > 64 || !/^[A-Za-z0-9_+\-\/]+$/.test(zone)) {
        return;
    }
    var path = document.documentElement.getAttribute('data-base') || '/';
    if (document.cookie.split('; ').indexOf('editlock-zone=' + zone) < 0) {
        document.cookie = 'editlock-zone=' + zone + '; path=' + path + '; max-age=31536000; SameSite=Lax'
            + (location.protocol === 'https:' ? '; Secure' : '');
    }
})();
