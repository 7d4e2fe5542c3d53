/*
 * CoreDataBrowser — whether the server answers, for every page: while it does not, one banner, retried with a
 * backoff; when it answers again the banner goes by itself and the views reload what they show.
 *
 * The server lives in an app being debugged: it stops when the app is stopped in Xcode, suspended on the device, or
 * relaunched. The person should see that once, plainly, and not have to press anything when the app is back.
 *
 *   noteAnswer()           any HTTP answer arrived (shared/api.js calls it): the server is up
 *   noteUnreachable()      a request could not be sent at all (shared/api.js): the server is down
 *   checkNow()             asks whether the server answers, now (when a stream broke: no request may be under way)
 *   onReachability(fn)    fn(up) on every change (the Lab's status dot and controls)
 *   onReconnect(fn)       fn() once the server answers again after being down (the views refresh)
 *
 * Elements: #server-down (role=alert; .server-down-text, button#server-down-retry), present only while down;
 * <html data-server="down"> meanwhile.
 */

/** First wait before asking again, doubled after each failure up to the last: a relaunch takes seconds, a
 *  suspended app may take minutes, and a closed laptop lid should not mean a request a second all night. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30000;

let down = false;
let delay = RETRY_FIRST_MS;
let retryAt = 0;
let retryTimer = null;
let tickTimer = null;
let banner = null;
const reachabilityListeners = [];
const reconnectListeners = [];

function noteAnswer() {
  if (!down) return;
  down = false;
  clearTimeout(retryTimer);
  clearInterval(tickTimer);
  delete document.documentElement.dataset.server;
  if (banner) banner.remove();
  banner = null;
  for (const listener of reachabilityListeners) listener(true);
  for (const listener of reconnectListeners) listener();
}

function noteUnreachable() {
  if (down) return;
  down = true;
  delay = RETRY_FIRST_MS;
  document.documentElement.dataset.server = 'down';
  showBanner();
  for (const listener of reachabilityListeners) listener(false);
  scheduleRetry();
}

function scheduleRetry() {
  clearTimeout(retryTimer);
  retryAt = Date.now() + delay;
  retryTimer = setTimeout(probe, delay);
  renderBanner();
}

/** Whether the server answers at all: any HTTP answer (even a refusal) means it is there. */
async function answers() {
  try {
    await fetch('/api/health', { cache: 'no-store', headers: { Accept: 'application/json' } });
    return true;
  } catch (_) {
    return false;
  }
}

/** A scheduled retry (or "Retry now"): back, or the next wait doubled. */
async function probe() {
  clearTimeout(retryTimer);
  if (!down) return;
  if (await answers()) {
    noteAnswer();
    return;
  }
  delay = Math.min(delay * 2, RETRY_MAX_MS);
  scheduleRetry();
}

async function checkNow() {
  if (await answers()) noteAnswer(); else noteUnreachable();
}

function showBanner() {
  banner = document.createElement('div');
  banner.id = 'server-down';
  banner.className = 'server-down';
  banner.setAttribute('role', 'alert');
  const text = document.createElement('span');
  text.className = 'server-down-text';
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.id = 'server-down-retry';
  retry.textContent = 'Retry now';
  retry.addEventListener('click', probe);
  banner.append(text, retry);
  document.body.append(banner);
  clearInterval(tickTimer);
  tickTimer = setInterval(renderBanner, 1000);
}

function renderBanner() {
  if (!banner) return;
  const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
  banner.querySelector('.server-down-text').textContent = 'The server does not answer (is the app stopped or in the '
    + `background?). Trying again ${seconds ? `in ${seconds} s` : 'now'}; the page is read again when it is back.`;
}

const onReachability = (listener) => reachabilityListeners.push(listener);
const onReconnect = (listener) => reconnectListeners.push(listener);

export { checkNow, noteAnswer, noteUnreachable, onReachability, onReconnect };
