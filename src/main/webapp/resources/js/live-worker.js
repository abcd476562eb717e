/*
 * One live stream for all of this browser's Editlock tabs (a shared worker). Browsers open at most six HTTP/1.1
 * connections per host and every open stream holds one, so a stream per tab would leave the seventh tab's pages
 * hanging on plain HTTP. Each tab says hello with its token; the worker keeps one EventSource to /live?tabs=… naming
 * every tab it serves and hands each message to the tab it names.
 * - A tab is gone when the Web Lock it holds for its life is released: the browser does that when the tab closes,
 *   navigates away or crashes, whatever its timers were doing. The worker then opens a stream without it and closes
 *   the old one; the server notices the old stream's end and, after its grace, releases what only that tab held.
 * - The new stream opens before the old one closes, so the tabs that stay are never without a stream.
 * - When a stream (re)opens, the tabs it newly carries look again, for anything they missed.
 * - It also beats for the browser's editing tabs: one heartbeat request every beatMillis names every tab whose user
 *   was active within idleMillis (tabs report activity), so a browser with 50 open editors sends one request, not
 *   50. Each editing tab hears once a second how long its user has been idle (for its warning). A failed beat is
 *   tried again at the next tick. (A worker's timers are not throttled as a background page's are.)
 */
var tabs = {};
var streamUrl = null;
var live = null; // the open stream that carries the tabs
var coming = null; // a newer stream on its way; it replaces the open one when it opens
var carried = '';
var healthy = {};
var pending = null;
var editing = {}; // tab -> {active: last activity, beat: last beat}
var beat = null; // {url, beatMillis, idleMillis}, from the first editing tab
var beatTimer = null;
var MAX_BEAT_TABS = 100; // the server's limit per request

onconnect = function (e) {
    var port = e.ports[0];
    port.onmessage = function (m) {
        var d = m.data;
        if (d.hello) {
            streamUrl = d.stream;
            tabs[d.hello] = port;
            navigator.locks.request('editlock-tab-' + d.hello, function () {
                bye(d.hello); // granted only once the tab's own hold on it ended
            });
            if (d.beat) {
                beat = d.beat;
                editing[d.hello] = {active: Date.now(), beat: 0};
                if (!beatTimer) {
                    beatTimer = setInterval(beatNow, 1000);
                }
            }
            changed(20);
        } else if (d.bye) {
            bye(d.bye);
        } else if (d.active && editing[d.tab]) {
            editing[d.tab].active = d.active;
        }
    };
    port.start();
};

function bye(tab) {
    if (tabs[tab]) {
        delete tabs[tab];
        delete healthy[tab];
        delete editing[tab];
        changed(20);
    }
}

/** Once a second: tells each editing tab its idle time; when one is due, one beat for all that are active. */
function beatNow() {
    var now = Date.now();
    var active = [];
    var due = false;
    Object.keys(editing).forEach(function (tab) {
        var idle = now - editing[tab].active;
        if (tabs[tab]) {
            tabs[tab].postMessage({tab: tab, type: 'idle', idleFor: idle});
        }
        if (idle < beat.idleMillis) {
            active.push(tab);
            due = due || now - editing[tab].beat >= beat.beatMillis;
        }
    });
    if (!due) {
        return;
    }
    for (var i = 0; i < active.length; i += MAX_BEAT_TABS) {
        send(active.slice(i, i + MAX_BEAT_TABS), now);
    }
}

function send(some, now) {
    some.forEach(function (tab) {
        editing[tab].beat = now;
    });
    var query = some.map(function (tab) { return 'view=' + encodeURIComponent(tab); }).join('&');
    fetch(beat.url + '?' + query, {method: 'POST', credentials: 'same-origin'}).catch(function () {
        some.forEach(function (tab) {
            if (editing[tab]) {
                editing[tab].beat = 0; // try again at the next tick
            }
        });
    });
}

function changed(delay) {
    if (!pending) {
        pending = setTimeout(reconnect, delay);
    }
}

function reconnect() {
    pending = null;
    var names = Object.keys(tabs).sort();
    var list = names.join(',');
    if (list === carried && (live || coming)) {
        return;
    }
    carried = list;
    if (coming) { // superseded before it opened: it must not hold a connection
        coming.close();
        coming = null;
    }
    if (!list) {
        if (live) {
            live.close();
            live = null;
        }
        return;
    }
    var next = new EventSource(streamUrl + '?tabs=' + list);
    var opens = 0;
    coming = next;
    next.onopen = function () {
        opens++;
        if (coming === next) {
            coming = null;
            if (live) {
                live.close();
            }
            live = next;
        }
        names.forEach(function (tab) {
            if (tabs[tab] && (opens > 1 || !healthy[tab])) {
                tabs[tab].postMessage({tab: tab, type: 'open'});
            }
            healthy[tab] = true;
        });
    };
    next.onmessage = function (e) {
        var d = JSON.parse(e.data);
        if (tabs[d.tab]) {
            tabs[d.tab].postMessage(d);
        }
        if (d.type === 'unknown') {
            bye(d.tab);
        }
    };
    next.onerror = function () {
        names.forEach(function (tab) {
            delete healthy[tab];
        });
        if (next.readyState === EventSource.CLOSED) { // refused outright (the server restarting, say)
            if (live === next) {
                live = null;
            }
            if (coming === next) {
                coming = null;
            }
            if (!live && !coming) {
                carried = '';
                changed(1000); // try again in a second
            }
        }
    };
}
