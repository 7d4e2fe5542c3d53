/*
 * CoreDataBrowser — "Live": the page follows the store's changes as they happen, for both views.
 *
 * A native ES module: what it exports is listed here.
 *
 * API (docs/API.md): GET /api/events is a Server-Sent Events stream: `change` events ({entities, counts}: which
 * entities' counts moved) and `resync` (refetch everything). Events never carry data: the view refetches what
 * it shows, exactly as its Refresh button does. The browser's EventSource reconnects by itself (after the
 * server's `retry`) and sends Last-Event-ID, so a restart or a Wi-Fi hiccup loses nothing.
 *
 *   attach(checkbox, refresh)  the checkbox switches Live on and off (remembered; on by default); refresh() is
 *                              the view's own Refresh, called once per change (changes that arrive while it
 *                              runs are folded into one more call)
 *
 * One stream per tab. The checkbox's label carries .live-dot[data-state = off | connecting | on | error], and
 * document.body[data-live-events] counts the changes received (tests wait on it).
 */

import { storeAPI } from '../../shared/api.js';
import { checkNow } from '../../shared/connection.js';
import { readStored, writeStored } from '../../shared/storage.js';

const STORAGE_KEY = 'cdb.live';
let source = null;
let dot = null;
let refreshing = null;
let again = false;

function setDot(state, title) {
  if (!dot) return;
  dot.dataset.state = state;
  dot.title = title;
}

function stored() {
  return readStored(STORAGE_KEY) !== 'off';
}

function remember(on) {
  writeStored(STORAGE_KEY, on ? 'on' : 'off'); // refused: the choice lasts for this page
}

/** Runs refresh now, or once more after the running one: a burst of commits costs at most two refreshes. */
function follow(refresh) {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = Promise.resolve().then(refresh).catch(() => {}).finally(() => {
    refreshing = null;
    if (again) {
      again = false;
      follow(refresh);
    }
  });
}

function received() {
  document.body.dataset.liveEvents = String(Number(document.body.dataset.liveEvents || 0) + 1);
}

function connect(refresh) {
  disconnect();
  source = new EventSource(storeAPI('/api/events'));
  setDot('connecting', 'Live: connecting…');
  source.addEventListener('open', () => setDot('on', 'Live: the page follows the store’s changes'));
  source.addEventListener('change', () => {
    received();
    follow(refresh);
  });
  source.addEventListener('resync', () => {
    received();
    follow(refresh);
  });
  source.addEventListener('error', () => {
    // EventSource retries by itself while the page is open; say so instead of failing silently.
    if (source && source.readyState === EventSource.CLOSED) setDot('error', 'Live: the server refused the stream; reload to retry');
    else setDot('connecting', 'Live: reconnecting…');
    // A broken stream may be the first sign that the server is gone: the page says so (shared/connection.js).
    checkNow();
  });
}

function disconnect() {
  if (source) source.close();
  source = null;
  setDot('off', 'Live is off: press Refresh to see changes');
}

function attach(checkbox, refresh) {
  const label = checkbox.closest('label') || checkbox.parentElement;
  dot = document.createElement('span');
  dot.className = 'live-dot';
  dot.setAttribute('aria-hidden', 'true');
  label.prepend(dot);
  checkbox.checked = stored();
  checkbox.addEventListener('change', () => {
    remember(checkbox.checked);
    if (checkbox.checked) {
      connect(refresh);
      follow(refresh);  // catch up with what changed while Live was off
    } else {
      disconnect();
    }
  });
  if (checkbox.checked) connect(refresh);
  else disconnect();
  window.addEventListener('pagehide', disconnect);
}

export {
  attach,
};
