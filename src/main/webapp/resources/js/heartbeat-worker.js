/*
 * Renews one tab's leases every beatMillis while its user was active within idleMillis. A worker, because browsers
 * throttle the timers of background pages (to once a minute after a while), which would let the lease lapse while the
 * user merely looks at another tab. The page tells it of activity; it tells the page how long the user has been idle.
 */
var url = null;
var beatMillis = 5000;
var idleMillis = 900000;
var lastActive = Date.now();
var lastBeat = 0;

onmessage = function (e) {
    if (e.data.url) {
        url = e.data.url;
        beatMillis = e.data.beatMillis;
        idleMillis = e.data.idleMillis;
    }
    if (e.data.active) {
        lastActive = e.data.active;
    }
};

setInterval(function () {
    var now = Date.now();
    var idle = now - lastActive;
    postMessage({idleFor: idle});
    if (url && idle < idleMillis && now - lastBeat >= beatMillis) {
        lastBeat = now;
        fetch(url, {method: 'POST', credentials: 'same-origin'}).catch(function () {
            lastBeat = 0; // try again at the next tick
        });
    }
}, 1000);
