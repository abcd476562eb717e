/*
 * The live side of an Editlock page. Settings come from hidden elements (no inline script): #editlock-live (every
 * live page: its tab's token, the stream's address, the shared worker) and #editlock-page (editing screens).
 * - The page's tab is carried by the browser's one live stream (live-worker.js, a shared worker; a browser without
 *   shared workers or Web Locks opens a stream of its own). The tab holds a Web Lock for its life, which tells the
 *   worker when it is gone. When the stream opens, and on its messages ("lock", "presence", "again"), the page looks
 *   again (editlockRefresh, an Ajax call that re-renders the lock area and the current values, never the form being
 *   typed in); at most one look is in flight, and messages meanwhile make one more.
 * - An editing page's leases are renewed while its user is active by the shared worker, in one heartbeat for all the
 *   browser's editing tabs (without a shared worker, by a dedicated Web Worker of its own); workers, because their
 *   timers are not throttled in a background tab. After the idle timeout it stops, with a warning a minute before.
 * - Leaving the page (pagehide) releases this tab's locks at once.
 * - "Notify me when free" waits for the record to become free, then says so (and opens it for editing if asked).
 * - An editing page keeps what is typed as the person's draft (PUT /api/drafts/{key}, a second after the last
 *   keystroke), with the values the page opened with; it survives a crash, a lost lock or a restart. When the page
 *   opens with a kept draft that differs from what it shows, it offers Restore / Discard and marks the fields
 *   someone else changed since the draft began.
 * - Screen readers hear each lock change once, through two live regions outside what a look re-renders: the lock's
 *   new sentence politely (someone took it, it is free now, you are editing), assertively what needs the person now
 *   (the lock lost, with who and why; a request to hand over; the lock about to stop being kept while they are away).
 * - Hand-over: "Ask … to hand over" (with a note), Withdraw, and the holder's Hand over / Keep editing (with a reply)
 *   go through h:commandScripts; Hand over first sends the pending draft, so nothing typed is lost. A look re-renders
 *   only the hand-over's state, which is then shown in controls that stay (a note or reply keeps its text and focus).
 */
var editlock = (function () {
    var page = document.getElementById('editlock-page');
    var live = document.getElementById('editlock-live');
    var settings = page ? page.dataset : {};
    /** The page's words for what this script says, in the reader's language (data-words, from the server). */
    var words = {};
    try {
        words = JSON.parse(settings.words || '{}');
    } catch (e) {
        words = {};
    }

    /** The sentence key with {0}, {1} … filled in (English when the page brought none). */
    function say(key) {
        var args = Array.prototype.slice.call(arguments, 1);
        var text = words[key] || key;
        return text.replace(/\{(\d+)\}/g, function (m, n) { return args[Number(n)]; });
    }
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

    /** The shared worker's port when it carries this tab (and beats for it), else null. */
    var shared = null;

    function connect() {
        var tab = live.dataset.view;
        var stream = live.dataset.stream;
        if (window.SharedWorker && navigator.locks) {
            try {
                var worker = new SharedWorker(live.dataset.worker, {name: 'editlock-live-2'});
                worker.port.onmessage = function (e) {
                    if (e.data.type === 'idle') {
                        idleFor(e.data.idleFor);
                    } else {
                        message(e.data);
                    }
                };
                worker.port.start();
                var hello = {hello: tab, stream: stream};
                if (settings.editing === 'true') {
                    hello.beat = {url: settings.heartbeat.split('?')[0], beatMillis: Number(settings.beatMillis),
                        idleMillis: Number(settings.idleMillis)};
                }
                navigator.locks.request('editlock-tab-' + tab, function () {
                    // Hello only once this page holds its lock: the worker's own request for it must wait behind.
                    worker.port.postMessage(hello);
                    return new Promise(function () { }); // held while this page lives
                });
                window.addEventListener('pagehide', function () {
                    worker.port.postMessage({bye: tab});
                });
                shared = worker.port;
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

    function byId(id) {
        return document.getElementById(id);
    }

    function show(id, shown) {
        var e = byId(id);
        if (e) {
            e.hidden = !shown;
        }
    }

    /** Shows the hand-over's state (re-rendered with every look) in its controls, which stay as they are. */
    function showHandover() {
        var state = byId('handover-state');
        if (!state) {
            return;
        }
        var d = state.dataset;
        document.querySelectorAll('.holder-name').forEach(function (e) { e.textContent = d.holder; });
        show('ask-form', d.mayAsk === 'true');
        byId('handover-status').textContent = d.status;
        show('asked', !!d.status);
        show('withdraw-handover', d.askedOpen === 'true');
        var box = byId('handover-request');
        if (box.dataset.request !== d.request) { // another request (or none): a fresh answer
            box.dataset.request = d.request;
            byId('handover-reply').value = '';
        }
        byId('handover-request-text').textContent = d.requestText;
        byId('handover-until').textContent = d.requestUntil;
        byId('handover-more').textContent = Number(d.more) > 0 ? ' ' + say('more', d.more) : '';
        show('handover-request', !!d.request);
        var said = byId('handover-message');
        said.textContent = d.message;
        said.className = d.failed === 'true' ? 'error' : 'lock-status mine';
        said.hidden = !d.message;
    }

    /** A hand-over step (ask, answer, withdraw) came back. */
    function stepped(data) {
        if (data.status === 'success') {
            showHandover();
            announceChanges(false);
            var state = byId('handover-state');
            if (state && state.dataset.askedOpen === 'true') {
                byId('handover-note').value = ''; // asked: the note went with it
            }
            document.querySelectorAll('#ask-form button, #asked button, #handover-request button')
                .forEach(function (b) { b.disabled = false; });
        }
    }

    function valueOf(id) {
        var e = byId(id);
        return e ? e.value : '';
    }

    /** The hand-over's buttons. */
    function bindHandover() {
        if (!byId('handover-state')) {
            return;
        }
        showHandover();
        byId('ask-handover').addEventListener('click', function () {
            this.disabled = true;
            editlockAsk({note: valueOf('handover-note')});
        });
        byId('withdraw-handover').addEventListener('click', function () {
            this.disabled = true;
            editlockWithdraw();
        });
        ['hand-over', 'keep-editing'].forEach(function (id) {
            byId(id).addEventListener('click', function () {
                var handOver = id === 'hand-over';
                var params = {
                    request: byId('handover-request').dataset.request,
                    handOver: String(handOver),
                    reply: valueOf('handover-reply')
                };
                byId('hand-over').disabled = true;
                byId('keep-editing').disabled = true;
                // What she typed is her draft on the server before the lock leaves her.
                (handOver ? flushDraft() : Promise.resolve()).then(function () {
                    editlockAnswer(params);
                });
            });
        });
    }

    /** Sends the pending draft now; resolves when the server has it (or it could not be sent). */
    var flushDraft = function () {
        return Promise.resolve();
    };

    /** What was last announced: the lock's sentence and the hand-over request shown. */
    var announced = {status: null, request: ''};

    function announce(text, urgent) {
        var region = byId(urgent ? 'announce-urgent' : 'announce');
        if (region && text) {
            region.textContent = text;
        }
    }

    /**
     * Announces what changed since the last look, once: the lock's sentence (politely; assertively when the lock was
     * lost, with who and why) and a new request to hand over. The page as it opened is not announced: it is read.
     */
    function announceChanges(first) {
        var lost = document.querySelector('[data-testid="lock-lost"]');
        var status = document.querySelector('[data-testid="lock-status"]');
        var now = lost ? 'lost: ' + lost.textContent : status ? status.textContent : '';
        if (!first && now !== announced.status) {
            if (lost) {
                announce(lost.textContent, true);
            } else if (status) {
                announce(status.textContent, false);
            }
        }
        announced.status = now;
        var state = byId('handover-state');
        var request = state ? state.dataset.request : '';
        if (!first && request && request !== announced.request) {
            announce(say('request', state.dataset.requestText), true);
        }
        announced.request = request;
    }

    function refreshed(data) {
        if (data.status !== 'success') {
            return;
        }
        looked();
        showHandover();
        announceChanges(false);
        bindNotify();
        var editNow = document.querySelector('[data-testid="edit-now"]');
        if (notifyArmed && editNow) {
            notifyArmed = false;
            var said = document.getElementById('notify-message');
            said.textContent = document.querySelector('[data-testid="lock-status"]').textContent;
            said.hidden = false;
            document.title = say('freeNow', originalTitle);
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
                button.textContent = say('notifyArmed');
                button.disabled = true;
            }
            button.addEventListener('click', function () {
                notifyArmed = true;
                button.textContent = say('notifyArmed');
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

    /**
     * Keeps this tab's leases while its user is active: the shared worker beats for all the browser's editing tabs
     * in one request; without it, a dedicated worker beats for this tab alone. Either tells the page how long its
     * user has been idle, for the warning.
     */
    function keepLeases() {
        if (settings.editing !== 'true') {
            return;
        }
        var tab = live ? live.dataset.view : null;
        var tell;
        if (shared) {
            tell = function (now) {
                shared.postMessage({active: now, tab: tab});
            };
        } else if (window.Worker) {
            var worker = new Worker(settings.worker);
            worker.postMessage({url: settings.heartbeat, beatMillis: Number(settings.beatMillis),
                idleMillis: Number(settings.idleMillis)});
            worker.onmessage = function (e) {
                idleFor(e.data.idleFor);
            };
            tell = function (now) {
                worker.postMessage({active: now});
            };
        } else {
            return;
        }
        var lastSent = 0;
        ['keydown', 'mousedown', 'mousemove', 'input', 'scroll', 'touchstart'].forEach(function (type) {
            window.addEventListener(type, function () {
                var now = Date.now();
                if (now - lastSent > 1000) {
                    lastSent = now;
                    tell(now);
                }
            }, {passive: true});
        });
    }

    var idlePhase = 'active';

    /**
     * A minute before the idle timeout stops the lease being kept: a countdown any key or click ends; once it has
     * stopped, says so (what was typed stays on the page). Each change of phase is announced once, assertively.
     */
    function idleFor(idle) {
        var warning = document.getElementById('idle-warning');
        var idleMillis = Number(settings.idleMillis);
        if (!warning) {
            return;
        }
        var phase = idle >= idleMillis ? 'gone' : idle >= idleMillis - 60000 ? 'soon' : 'active';
        if (phase === 'gone') {
            warning.textContent = say('idleGone');
        } else if (phase === 'soon') {
            warning.textContent = say('idleSoon', Math.ceil((idleMillis - idle) / 1000));
        }
        warning.hidden = phase === 'active';
        if (phase !== idlePhase && phase !== 'active') {
            announce(phase === 'soon' ? say('idleSoonAnnounced') : warning.textContent, true);
        }
        idlePhase = phase;
    }

    /** The form's fields as the person sees them: name to value (no buttons, no Faces state). */
    function fieldsOf(form) {
        var fields = {};
        Array.prototype.forEach.call(form.elements, function (e) {
            if (!e.name || e.disabled || e.name.indexOf('jakarta.faces.') === 0
                || ['hidden', 'submit', 'button', 'reset', 'file'].indexOf(e.type) >= 0) {
                return;
            }
            fields[e.name] = e.type === 'checkbox' || e.type === 'radio' ? (e.checked ? e.value : '') : e.value;
        });
        return fields;
    }

    function same(a, b) {
        var keys = Object.keys(a);
        return keys.length === Object.keys(b).length && keys.every(function (k) { return a[k] === b[k]; });
    }

    function labelOf(form, name) {
        var field = form.elements.namedItem(name);
        var label = field && field.id ? document.querySelector('label[for="' + field.id + '"]') : null;
        var row = /:(\d+):/.exec(name);
        return label ? label.textContent : name.replace(/^edit:/, '').replace(/:\d+:/, ' ') + (row ? ' (row '
            + (Number(row[1]) + 1) + ')' : '');
    }

    function keepDrafts() {
        var form = document.getElementById('edit');
        if (!form || settings.editing !== 'true' || !settings.draft || !window.fetch) {
            return;
        }
        var opened = fieldsOf(form);
        var kept = opened;
        var timer = null;
        var stopped = false;
        function send() {
            timer = null;
            var now = fieldsOf(form);
            if (stopped || same(now, kept)) {
                return Promise.resolve();
            }
            return fetch(settings.draft, {
                method: 'PUT', credentials: 'same-origin',
                headers: {'Content-Type': 'application/json', 'X-Requested-With': 'editlock'},
                body: JSON.stringify({fields: now, base: opened})
            }).then(function (r) {
                if (r.ok) {
                    kept = now;
                }
            }).catch(function () { /* the next keystroke tries again */ });
        }
        function typed() {
            if (timer) {
                clearTimeout(timer);
            }
            timer = setTimeout(send, 1000);
        }
        flushDraft = function () {
            if (timer) {
                clearTimeout(timer);
            }
            return send();
        };
        form.addEventListener('input', typed);
        form.addEventListener('change', typed);
        form.addEventListener('submit', function () {
            stopped = true; // Save (or Done) takes it from here; a late draft must not outlive a save
            if (timer) {
                clearTimeout(timer);
            }
        });
        offerDraft(form, opened);
    }

    function offerDraft(form, opened) {
        var notice = document.getElementById('draft-notice');
        if (!notice || !settings.draftFields) {
            return;
        }
        var draft = JSON.parse(settings.draftFields);
        var base = JSON.parse(settings.draftBase || '{}');
        // Only what the person changed is theirs to restore: a field they left alone keeps today's value, so a
        // newer save by someone else is never undone by a restore.
        var mine = Object.keys(draft).filter(function (name) {
            return !(name in base) || base[name] !== draft[name];
        });
        if (mine.every(function (name) { return opened[name] === draft[name]; })) {
            return; // nothing that is not on the page already
        }
        var changedSince = mine.filter(function (name) {
            return name in base && name in opened && base[name] !== opened[name];
        });
        var changed = document.getElementById('draft-changed');
        if (changedSince.length) {
            changed.textContent = say('changedSince',
                changedSince.map(function (n) { return labelOf(form, n); }).join(', '));
        }
        notice.hidden = false;
        document.getElementById('restore-draft').addEventListener('click', function () {
            var missing = [];
            mine.forEach(function (name) {
                var field = form.elements.namedItem(name);
                if (!field || field.type === 'hidden') {
                    missing.push(name);
                } else if (field.type === 'checkbox' || field.type === 'radio') {
                    field.checked = draft[name] !== '';
                } else {
                    field.value = draft[name];
                }
            });
            changedSince.forEach(function (name) {
                var field = form.elements.namedItem(name);
                if (field && field.classList) {
                    field.classList.add('changed-since');
                    field.setAttribute('aria-describedby', 'draft-changed');
                }
            });
            if (changedSince.length) {
                changed.textContent = say('changedMarked',
                    changedSince.map(function (n) { return labelOf(form, n); }).join(', '));
            }
            document.getElementById('draft-text').textContent = say('restored') + (missing.length
                ? ' ' + say('restoredMissing', missing.length,
                    missing.map(function (n) { return labelOf(form, n); }).join(', '))
                : '');
            this.hidden = true;
            document.getElementById('discard-draft').hidden = true;
            form.dispatchEvent(new Event('input')); // kept again, now as the form shows it
        });
        document.getElementById('discard-draft').addEventListener('click', function () {
            fetch(settings.draft, {method: 'DELETE', credentials: 'same-origin',
                headers: {'X-Requested-With': 'editlock'}});
            notice.hidden = true;
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
    if (page) {
        bindNotify();
        keepLeases(); // after connect: the shared worker, if it carries this tab, beats for it
        if (document.readyState === 'loading') { // this script runs above the form it watches
            document.addEventListener('DOMContentLoaded', keepDrafts);
        } else {
            keepDrafts();
        }
        window.addEventListener('pagehide', function () {
            if (settings.editing === 'true') {
                navigator.sendBeacon(settings.leave);
            }
        });
    }

    /**
     * A confirmation the server just opened (a force release's reason, a take-over's confirmation) takes the
     * focus: its field marked data-autofocus, else its first button. Escape presses its Cancel; when it closes the
     * page comes back with the focus where the person started from (the server renders the page again).
     */
    function focusDialog() {
        var dialog = document.querySelector('[data-dialog="open"]');
        if (!dialog) {
            return;
        }
        var first = dialog.querySelector('[data-autofocus]') || dialog.querySelector('textarea, input, button');
        if (first) {
            first.focus();
        }
        dialog.addEventListener('keydown', function (e) {
            var cancel = dialog.querySelector('[data-cancel]');
            if (e.key === 'Escape' && cancel) {
                e.preventDefault();
                cancel.click();
            }
        });
    }

    function ready() {
        bindHandover();
        announceChanges(true);
        focusDialog();
    }

    if (document.readyState === 'loading') { // as the drafts: the controls come after this script
        document.addEventListener('DOMContentLoaded', ready);
    } else {
        ready();
    }

    return {refreshed: refreshed, failed: looked, stepped: stepped};
})();
