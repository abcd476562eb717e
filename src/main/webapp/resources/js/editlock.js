/*
 * The live side of an Editlock page. Settings come from hidden elements (no inline script): #editlock-live (every
 * live page: its tab's token, the stream's address, the shared worker) and #editlock-page (editing screens).
 * - The page's tab is carried by the browser's one live stream (live-worker.js, a shared worker; a browser without
 *   shared workers or Web Locks opens a stream of its own). The tab holds a Web Lock for its life, which tells the
 *   worker when it is gone. When the stream opens, and on its messages ("lock", "presence", "again"), the page looks
 *   again (editlockRefresh, an Ajax call that re-renders the lock area and the current values, never the form being
 *   typed in); at most one look is in flight, and messages meanwhile make one more.
 * - An editing page renews its tab's leases from a Web Worker (its timers are not throttled in a background tab)
 *   while its user is active; after the idle timeout it stops, with a warning a minute before.
 * - Leaving the page (pagehide) releases this tab's locks at once.
 * - "Notify me when free" waits for the record to become free, then says so (and opens it for editing if asked).
 */
var editlock = (function () {
    var page = document.getElementById('editlock-page');
    var live = document.getElementById('editlock-live');
    var settings = page ? page.dataset : {};
    var notifyArmed = false;
    var originalTitle = document.title;
    var looking = false;
    var lookAgain = false;

    function look() {
        if (typeof editlockRefresh !== 'function') {
            return;
        }
        if (looking) {
            lookAgain = true;
            return;
        }
        looking = true;
        editlockRefresh();
    }

    /** A look ended (answered or failed): one more if news came meanwhile. */
    function looked() {
        looking = false;
        if (lookAgain) {
            lookAgain = false;
            look();
        }
    }

    function message(msg) {
        if (msg.type === 'unknown') {
            var stale = document.getElementById('stale-page');
            if (stale) {
                stale.hidden = false;
            }
        } else {
            look();
        }
    }

    function connect() {
        var tab = live.dataset.view;
        var stream = live.dataset.stream;
        if (window.SharedWorker && navigator.locks) {
            try {
                var worker = new SharedWorker(live.dataset.worker, {name: 'editlock-live'});
                worker.port.onmessage = function (e) {
                    message(e.data);
                };
                worker.port.start();
                navigator.locks.request('editlock-tab-' + tab, function () {
                    // Hello only once this page holds its lock: the worker's own request for it must wait behind.
                    worker.port.postMessage({hello: tab, stream: stream});
                    return new Promise(function () { }); // held while this page lives
                });
                window.addEventListener('pagehide', function () {
                    worker.port.postMessage({bye: tab});
                });
                return;
            } catch (e) {
                // no shared worker after all (a private window may refuse it): a stream of this tab's own
            }
        }
        var source = new EventSource(stream + '?tabs=' + tab);
        source.onopen = look;
        source.onmessage = function (e) {
            var msg = JSON.parse(e.data);
            if (msg.type === 'unknown') {
                source.close(); // the server will not carry this tab: no reconnecting
            }
            message(msg);
        };
        window.addEventListener('pagehide', function () {
            source.close();
        });
    }

    function refreshed(data) {
        if (data.status !== 'success') {
            return;
        }
        looked();
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
        });
    }
    if (live) {
        connect();
        window.addEventListener('pageshow', function (e) {
            if (e.persisted) {
                window.location.reload(); // back from the back/forward cache: its tab left the stream on the way out
            }
        });
    }

    return {refreshed: refreshed, failed: looked};
})();
