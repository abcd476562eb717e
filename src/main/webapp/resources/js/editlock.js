/*
 * The live side of an Editlock page. Settings come from the hidden #editlock-page element (no inline script).
 * - When its socket opens, and on push messages ("lock", "presence", "again"), the page looks again (editlockRefresh, an Ajax call that
 *   re-renders the lock area and the current values, never the form being typed in).
 * - An editing page renews its tab's leases from a Web Worker (its timers are not throttled in a background tab)
 *   while its user is active; after the idle timeout it stops, with a warning a minute before.
 * - Leaving the page (pagehide) releases this tab's locks at once, and closes the socket so the back/forward cache
 *   cannot keep it open.
 * - "Notify me when free" waits for the record to become free, then says so (and opens it for editing if asked).
 */
var editlock = (function () {
    var page = document.getElementById('editlock-page');
    var settings = page ? page.dataset : {};
    var notifyArmed = false;
    var originalTitle = document.title;

    function message(msg) {
        if (msg && (msg.type === 'lock' || msg.type === 'presence' || msg.type === 'again')
                && typeof editlockRefresh === 'function') {
            editlockRefresh();
        }
    }

    /** The socket is open: look once, for anything that changed between rendering the page and now. */
    function opened() {
        if (typeof editlockRefresh === 'function') {
            editlockRefresh();
        }
    }

    function refreshed(data) {
        if (data.status !== 'success') {
            return;
        }
        bindNotify();
        var editNow = document.querySelector('[data-testid="edit-now"]');
        if (notifyArmed && editNow) {
            notifyArmed = false;
            var said = document.getElementById('notify-message');
            said.textContent = document.querySelector('[data-testid="lock-status"]').textContent;
            said.hidden = false;
            document.title = 'Free now · ' + originalTitle;
            if (window.Notification && Notification.permission === 'granted') {
                new Notification(said.textContent);
            }
            if (takeWhenFree) {
                window.location.href = editNow.href;
            }
        }
    }

    var takeWhenFree = false;

    function bindNotify() {
        var button = document.querySelector('[data-testid="notify"]');
        var take = document.querySelector('[data-testid="take-when-free"]');
        if (button && !button.dataset.bound) {
            button.dataset.bound = 'yes';
            if (notifyArmed) {
                button.textContent = 'You will be told when it is free';
                button.disabled = true;
            }
            button.addEventListener('click', function () {
                notifyArmed = true;
                button.textContent = 'You will be told when it is free';
                button.disabled = true;
                if (window.Notification && Notification.permission === 'default') {
                    Notification.requestPermission();
                }
            });
        }
        if (take && !take.dataset.bound) {
            take.dataset.bound = 'yes';
            take.checked = takeWhenFree;
            take.addEventListener('change', function () {
                takeWhenFree = take.checked;
                if (take.checked) {
                    document.querySelector('[data-testid="notify"]').click();
                }
            });
        }
    }

    function keepLeases() {
        if (settings.editing !== 'true' || !window.Worker) {
            return;
        }
        var warning = document.getElementById('idle-warning');
        var idleMillis = Number(settings.idleMillis);
        var worker = new Worker(settings.worker);
        worker.postMessage({url: settings.heartbeat, beatMillis: Number(settings.beatMillis), idleMillis: idleMillis});
        var lastSent = 0;
        ['keydown', 'mousedown', 'mousemove', 'input', 'scroll', 'touchstart'].forEach(function (type) {
            window.addEventListener(type, function () {
                var now = Date.now();
                if (now - lastSent > 1000) {
                    lastSent = now;
                    worker.postMessage({active: now});
                }
            }, {passive: true});
        });
        worker.onmessage = function (e) {
            var idle = e.data.idleFor;
            if (idle >= idleMillis) {
                warning.textContent = 'You have been away, so your lock is no longer kept: others may take it soon. '
                    + 'Save what you need, or reload the page to edit again.';
                warning.hidden = false;
            } else if (idle >= idleMillis - 60000) {
                warning.textContent = 'You seem to be away: your lock will be released in about a minute unless you '
                    + 'continue.';
                warning.hidden = false;
            } else {
                warning.hidden = true;
            }
        };
    }

    if (page) {
        bindNotify();
        keepLeases();
        window.addEventListener('pagehide', function () {
            if (settings.editing === 'true') {
                navigator.sendBeacon(settings.leave);
            }
            if (window.faces && faces.push) {
                faces.push.close('editlockSocket');
            }
        });
        window.addEventListener('pageshow', function (e) {
            if (e.persisted) {
                window.location.reload(); // back from the back/forward cache: its socket was closed on the way out
            }
        });
    }

    return {message: message, opened: opened, refreshed: refreshed};
})();
