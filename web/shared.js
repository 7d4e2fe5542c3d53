/*
 * CoreDataBrowser — code shared by both views (loaded before app.js on / and before lab.js on /lab).
 *
 * Vanilla ES2020, no module system: this file defines one frozen global, window.CDBShared, and nothing else.
 * Everything here builds DOM nodes with textContent; nothing is ever parsed as HTML.
 *
 *   INVISIBLE_CHARACTERS   Map code point -> Unicode name of every character that is shown as a marker
 *   setVisibleText(node, text)
 *                          node's children become text, with each invisible character replaced by
 *                          <span class="cdb-invisible" data-code="202E" title="RIGHT-TO-LEFT OVERRIDE (U+202E)">
 *                          ⟨U+202E⟩</span> (so "Invoice \u202Efdp.exe" cannot pass for "Invoice exe.pdf")
 *   visibleText(text)      the same as a plain string, for title attributes, <option>s and document.title
 *   DATE_ZONE_KEY          localStorage key "cdb.dateZone" = "local" | "utc" (default local)
 *   readDateZone(), writeDateZone(zone)
 *   formatDate(iso, zone)  {text, title} or null when iso is not a date: "2024-03-01 14:05:09.123 UTC" /
 *                          "2024-03-01 15:05:09.123 GMT+1" (milliseconds only when the value has them); the
 *                          title names the other zone and the stored ISO value
 *   repaintDates(root, zone)
 *                          redraws the dates under root (elements with data-iso = the stored value) in zone
 *   wireDateZoneSelect(select, onChange)
 *                          a <select> with options local/utc: shows the stored choice, stores a new one, and
 *                          follows a change made in another tab; onChange(zone) re-renders the view's dates
 *
 *   DISPLAY_KEY            localStorage "cdb.displayAttributes" = {"<store>": {"<Entity>": "attr" | ["a", "b"]}}
 *   displayChoices(store, entity), setDisplayChoices(store, entity, names), displayName(attrs, names, fallback)
 *                          the "Name by" choice of both views: one or several String attributes whose non-empty
 *                          values, joined by a space, name a record (else the server's summary)
 *   showScope(node, relatedTo, via, storeKey)
 *                          the "related to" chip's text: "Related to Émile Zola (Author) through books" — the record's
 *                          name (its "Name by" choice, else its summary) once /api/object answers (fetched once per
 *                          record), "Related to Author p2 through books" until then
 *   entityFromId(uri), shortId(uri)
 *                          "x-coredata://<store>/Book/p12" -> "Book" (or null) and -> "p12"
 *   ApiError, getJSON(path, signal)
 *                          GETs JSON; a non-2xx answer throws ApiError(message, status) with the server's
 *                          {"error": …} message, an unreachable server ApiError(…, 0); an abort passes through
 *   copyText(text)         copies text (Clipboard API, or a selected textarea on plain http); resolves to success
 *   copyFrom(button)       a copy button's click: copies its data-copy and says whether it worked (data-copied,
 *                          .is-copied for a moment)
 *   focusWithin(pane, selector)
 *                          after a relationship was followed from the keyboard: focuses the first `selector` in
 *                          the pane (the followed record's related items), else the pane, never the page
 *   recordJSON(record)     what "Copy as JSON" / "Copy row as JSON" copy in both views: {id, entity, attrs}, indented
 *
 *   formatCount(n)         a count grouped by the browser's locale ("1,000,000")
 *   lastPageOffset(total, limit), steppedOffset(offset, direction, limit, total), pageOffsetOf(text, limit, total)
 *                          paging both views share: the last page's offset; one page forward (+1) or back (-1),
 *                          kept within the first and last pages; the offset a typed page number asks for ("3",
 *                          "1,204"), clamped to the last page, or null when the text is not a page number
 *   wirePageInput(input, paging, go)
 *                          a go-to-page box: Enter calls go(offset) for the typed page (paging() gives {limit,
 *                          total}, or null before the first page); text that is no page number is reported on it
 *   LONG_VALUE_CHARS, isLongValue(value), longValue(value, render)
 *                          a string over 2,000 characters in a detail pane: its start, cut by height too (a few
 *                          lines, tokens.css .long-value), "N characters" and a Show all / Show less button; shown
 *                          whole it scrolls inside a box of at most 60% of the window, never making the pane
 *                          188,000 px tall. render(text) makes the node for a piece of text (the view's own style)
 *   showModelLine(node, model)
 *                          where the model came from (/api/health's `model`), said the same way in both views:
 *                          node gets the text, a title, data-source and .is-warning when guessed from the tables
 *
 *   HIDE_EMPTY_KEY         localStorage "cdb.hideEmpty" = "1" | "0": the sidebars' "Hide empty" (one choice, both views)
 *   readHideEmpty(), writeHideEmpty(on)
 *   entityTree(entities)   [{entity, depth}]: roots by name, each followed by its sub-entities (depth-first)
 *   shownEntities(entities, {filter, hideEmpty, selected})
 *                          the tree without what the filter box and "Hide empty" leave out (the selected entity
 *                          always stays, so the list never hides where you are)
 *   entityTitle(entity)    the sidebar item's tooltip: full name, parent, abstract
 *   onEntityListKey(event, list, current, select)
 *                          a sidebar list is one tab stop: ArrowUp/ArrowDown/Home/End in it call select(name) of
 *                          the next entity (the items are list's children, with data-entity) and scroll it in
 *
 *   floatingPanel(id, className, label, onClose)
 *                          {node, show(returnTo), close()}: a hidden section role=dialog on the page that Escape
 *                          closes, giving focus back (the facet and "Copy as Swift" panels)
 *
 * Copying a value (the Inspector's copy buttons) always copies the original string, never this rendering.
 */
'use strict';

(() => {
  // ---------------------------------------------------------------------------------------------
  // Invisible and direction-changing characters
  // ---------------------------------------------------------------------------------------------

  const C0_NAMES = [
    'NULL', 'START OF HEADING', 'START OF TEXT', 'END OF TEXT', 'END OF TRANSMISSION', 'ENQUIRY', 'ACKNOWLEDGE',
    'BELL', 'BACKSPACE', null /* TAB: shown as whitespace */, null /* LINE FEED */, 'LINE TABULATION', 'FORM FEED',
    null /* CARRIAGE RETURN: part of a line break */, 'SHIFT OUT', 'SHIFT IN', 'DATA LINK ESCAPE',
    'DEVICE CONTROL ONE', 'DEVICE CONTROL TWO', 'DEVICE CONTROL THREE', 'DEVICE CONTROL FOUR',
    'NEGATIVE ACKNOWLEDGE', 'SYNCHRONOUS IDLE', 'END OF TRANSMISSION BLOCK', 'CANCEL', 'END OF MEDIUM',
    'SUBSTITUTE', 'ESCAPE', 'INFORMATION SEPARATOR FOUR', 'INFORMATION SEPARATOR THREE',
    'INFORMATION SEPARATOR TWO', 'INFORMATION SEPARATOR ONE',
  ];
  /** C1 controls have no formal names; these are their ISO 6429 names (Unicode's name aliases). */
  const C1_NAMES = [
    'PADDING CHARACTER', 'HIGH OCTET PRESET', 'BREAK PERMITTED HERE', 'NO BREAK HERE', 'INDEX', 'NEXT LINE',
    'START OF SELECTED AREA', 'END OF SELECTED AREA', 'CHARACTER TABULATION SET',
    'CHARACTER TABULATION WITH JUSTIFICATION', 'LINE TABULATION SET', 'PARTIAL LINE FORWARD',
    'PARTIAL LINE BACKWARD', 'REVERSE LINE FEED', 'SINGLE SHIFT TWO', 'SINGLE SHIFT THREE', 'DEVICE CONTROL STRING',
    'PRIVATE USE ONE', 'PRIVATE USE TWO', 'SET TRANSMIT STATE', 'CANCEL CHARACTER', 'MESSAGE WAITING',
    'START OF GUARDED AREA', 'END OF GUARDED AREA', 'START OF STRING', 'SINGLE GRAPHIC CHARACTER INTRODUCER',
    'SINGLE CHARACTER INTRODUCER', 'CONTROL SEQUENCE INTRODUCER', 'STRING TERMINATOR', 'OPERATING SYSTEM COMMAND',
    'PRIVACY MESSAGE', 'APPLICATION PROGRAM COMMAND',
  ];
  const FORMAT_NAMES = [
    // Bidirectional controls: they reorder the text around them.
    [0x202A, 'LEFT-TO-RIGHT EMBEDDING'], [0x202B, 'RIGHT-TO-LEFT EMBEDDING'], [0x202C, 'POP DIRECTIONAL FORMATTING'],
    [0x202D, 'LEFT-TO-RIGHT OVERRIDE'], [0x202E, 'RIGHT-TO-LEFT OVERRIDE'],
    [0x2066, 'LEFT-TO-RIGHT ISOLATE'], [0x2067, 'RIGHT-TO-LEFT ISOLATE'], [0x2068, 'FIRST STRONG ISOLATE'],
    [0x2069, 'POP DIRECTIONAL ISOLATE'],
    [0x200E, 'LEFT-TO-RIGHT MARK'], [0x200F, 'RIGHT-TO-LEFT MARK'], [0x061C, 'ARABIC LETTER MARK'],
    // Zero-width characters: two strings that look equal may differ by them.
    [0x200B, 'ZERO WIDTH SPACE'], [0x200C, 'ZERO WIDTH NON-JOINER'], [0x200D, 'ZERO WIDTH JOINER'],
    [0x2060, 'WORD JOINER'], [0xFEFF, 'ZERO WIDTH NO-BREAK SPACE'],
  ];

  /** Every character shown as a marker, with its name: the one list both views use. */
  const INVISIBLE_CHARACTERS = new Map([
    ...C0_NAMES.map((name, code) => [code, name]).filter(([, name]) => name),
    [0x7F, 'DELETE'],
    ...C1_NAMES.map((name, index) => [0x80 + index, name]),
    ...FORMAT_NAMES,
  ]);

  const hex = (code) => code.toString(16).toUpperCase().padStart(4, '0');
  /** One character class of every code point above, built from the map so the two cannot disagree. */
  const INVISIBLE_PATTERN = new RegExp(`[${[...INVISIBLE_CHARACTERS.keys()].map((c) => `\\u${hex(c)}`).join('')}]`, 'g');
  const INVISIBLE_TEST = new RegExp(INVISIBLE_PATTERN.source);

  const markerText = (code) => `⟨U+${hex(code)}⟩`;

  /** The marker element standing for one invisible character. */
  function invisibleMarker(char) {
    const code = char.codePointAt(0);
    const span = document.createElement('span');
    span.className = 'cdb-invisible';
    span.dataset.code = hex(code);
    span.title = `${INVISIBLE_CHARACTERS.get(code) || 'INVISIBLE CHARACTER'} (U+${hex(code)})`;
    span.textContent = markerText(code);
    return span;
  }

  /** Replaces node's children with text, each invisible character shown as a marker. Returns node. */
  function setVisibleText(node, text) {
    const string = text === undefined || text === null ? '' : String(text);
    if (!INVISIBLE_TEST.test(string)) {
      node.textContent = string; // the common case: one text node, as before
      if (node.classList.contains('has-invisible')) node.classList.remove('has-invisible');
      return node;
    }
    const parts = [];
    let last = 0;
    INVISIBLE_PATTERN.lastIndex = 0;
    for (let match = INVISIBLE_PATTERN.exec(string); match; match = INVISIBLE_PATTERN.exec(string)) {
      if (match.index > last) parts.push(string.slice(last, match.index));
      parts.push(invisibleMarker(match[0]));
      last = match.index + 1;
    }
    if (last < string.length) parts.push(string.slice(last));
    node.replaceChildren(...parts);
    node.classList.add('has-invisible');
    return node;
  }

  /** The text with each invisible character written as ⟨U+XXXX⟩: for places that hold plain text only. */
  function visibleText(text) {
    const string = text === undefined || text === null ? '' : String(text);
    return INVISIBLE_TEST.test(string) ? string.replace(INVISIBLE_PATTERN, (c) => markerText(c.codePointAt(0))) : string;
  }

  // ---------------------------------------------------------------------------------------------
  // Dates: local time or UTC, the zone always named
  // ---------------------------------------------------------------------------------------------

  const DATE_ZONE_KEY = 'cdb.dateZone';
  const DATE_ZONES = ['local', 'utc'];

  function readDateZone() {
    try {
      return window.localStorage.getItem(DATE_ZONE_KEY) === 'utc' ? 'utc' : 'local';
    } catch (_) {
      return 'local'; // storage disabled: the default
    }
  }

  function writeDateZone(zone) {
    try {
      window.localStorage.setItem(DATE_ZONE_KEY, zone === 'utc' ? 'utc' : 'local');
    } catch (_) {
      // Storage may be unavailable; the choice then lasts for this page.
    }
  }

  const pad = (n, width = 2) => String(n).padStart(width, '0');

  /** ISO 8601's year: four digits, or a sign and six beyond 0000–9999. */
  function formatYear(year) {
    if (year >= 0 && year <= 9999) return pad(year, 4);
    return `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
  }

  /** "GMT+1", "GMT+5:30", "GMT-3", "GMT+0:53:28" (an old local mean time): the local offset at that instant. */
  function offsetName(date) {
    const asUTC = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(),
      date.getSeconds(), date.getMilliseconds());
    // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
    const fixed = new Date(asUTC);
    fixed.setUTCFullYear(date.getFullYear());
    let seconds = Math.round((fixed.getTime() - date.getTime()) / 1000);
    const sign = seconds < 0 ? '-' : '+';
    seconds = Math.abs(seconds);
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    return `GMT${sign}${h}${m || s ? `:${pad(m)}` : ''}${s ? `:${pad(s)}` : ''}`;
  }

  function localZoneId() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || '';
    } catch (_) {
      return '';
    }
  }

  function formatIn(date, zone, withMs) {
    const utc = zone === 'utc';
    const year = utc ? date.getUTCFullYear() : date.getFullYear();
    const month = (utc ? date.getUTCMonth() : date.getMonth()) + 1;
    const day = utc ? date.getUTCDate() : date.getDate();
    const hours = utc ? date.getUTCHours() : date.getHours();
    const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
    const seconds = utc ? date.getUTCSeconds() : date.getSeconds();
    const ms = utc ? date.getUTCMilliseconds() : date.getMilliseconds();
    const fraction = withMs ? `.${pad(ms, 3)}` : '';
    return `${formatYear(year)}-${pad(month)}-${pad(day)} ${pad(hours)}:${pad(minutes)}:${pad(seconds)}${fraction} `
      + (utc ? 'UTC' : offsetName(date));
  }

  /**
   * A stored date (ISO 8601 from the API) in the chosen zone: {text, title}, or null when it is not a date.
   * Milliseconds are shown when the value has them (the API leaves the fraction out when it is 0 ms).
   */
  function formatDate(iso, zone) {
    if (typeof iso !== 'string') return null;
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return null;
    const withMs = /\.\d/.test(iso) || date.getUTCMilliseconds() !== 0;
    const chosen = zone === 'utc' ? 'utc' : 'local';
    const other = chosen === 'utc' ? 'local' : 'utc';
    const zoneId = localZoneId();
    const otherLabel = other === 'utc' ? '' : ` (local time${zoneId ? `, ${zoneId}` : ''})`;
    return {
      text: formatIn(date, chosen, withMs),
      title: `${formatIn(date, other, withMs)}${otherLabel}\nStored value: ${iso}`,
    };
  }

  /**
   * Redraws every date already on screen under root (elements with data-iso) in the zone: a change of zone
   * fetches nothing and re-renders nothing else (scroll positions, selections and loading states stay).
   */
  function repaintDates(root, zone) {
    for (const node of root.querySelectorAll('[data-iso]')) {
      const shown = formatDate(node.dataset.iso, zone);
      if (!shown) continue;
      node.textContent = shown.text;
      node.title = shown.title;
    }
  }

  function wireDateZoneSelect(select, onChange) {
    const zoneId = localZoneId();
    for (const option of select.options) {
      if (option.value === 'local' && zoneId) option.title = `Local time of this browser (${zoneId})`;
    }
    select.value = readDateZone();
    select.addEventListener('change', () => {
      const zone = DATE_ZONES.includes(select.value) ? select.value : 'local';
      writeDateZone(zone);
      onChange(zone);
    });
    // Another tab (the other view) changed it: follow, so two open views never disagree.
    window.addEventListener('storage', (event) => {
      if (event.key !== DATE_ZONE_KEY && event.key !== null) return;
      const zone = readDateZone();
      if (select.value === zone) return;
      select.value = zone;
      onChange(zone);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Copying
  // ---------------------------------------------------------------------------------------------

  /** Copies text: the Clipboard API where the page is a secure context, else a selected textarea (plain http
   *  on a LAN address is not a secure context, and the Clipboard API is missing there). Resolves to whether it
   *  worked. */
  async function copyText(text) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (_) {
      // fall through to the textarea
    }
    const area = document.createElement('textarea');
    area.className = 'visually-hidden';
    area.style.position = 'fixed';
    area.style.opacity = '0';
    area.value = text;
    document.body.append(area);
    area.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch (_) {
      copied = false;
    }
    area.remove();
    return copied;
  }

  async function copyFrom(button) {
    const copied = await copyText(button.dataset.copy || '');
    button.dataset.copied = copied ? 'true' : 'false';
    button.classList.toggle('is-copied', copied);
    window.setTimeout(() => button.classList.remove('is-copied'), 1200);
    return copied;
  }

  function focusWithin(pane, selector) {
    if (!pane || !pane.isConnected) return;
    const target = pane.querySelector(selector) || pane;
    if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus({ preventScroll: false });
  }

  function recordJSON(record) {
    return JSON.stringify({ id: record.id, entity: record.entity, attrs: record.attrs }, null, 2);
  }

  // ---------------------------------------------------------------------------------------------
  // Names of records: the attributes the user picked per entity and store ("Name by")
  // ---------------------------------------------------------------------------------------------

  const DISPLAY_KEY = 'cdb.displayAttributes';

  function readDisplayChoices() {
    try {
      const stored = JSON.parse(window.localStorage.getItem(DISPLAY_KEY) || '{}');
      return stored && typeof stored === 'object' ? stored : {};
    } catch (_) {
      return {};
    }
  }

  /** The attributes picked to name `entity`'s records in this store (one or several), or [] for the server's
   *  choice. Stored as a string (one attribute, the first format) or an array (several). */
  function displayChoices(storeKey, entity) {
    const forStore = readDisplayChoices()[storeKey];
    const choice = forStore && typeof forStore === 'object' ? forStore[entity] : undefined;
    if (typeof choice === 'string') return choice ? [choice] : [];
    return Array.isArray(choice) ? choice.filter((name) => typeof name === 'string' && name) : [];
  }

  function setDisplayChoices(storeKey, entity, names) {
    const choices = readDisplayChoices();
    const forStore = choices[storeKey] && typeof choices[storeKey] === 'object' ? choices[storeKey] : {};
    const kept = names.filter(Boolean);
    if (kept.length === 0) delete forStore[entity];
    else forStore[entity] = kept.length === 1 ? kept[0] : kept;
    choices[storeKey] = forStore;
    try {
      window.localStorage.setItem(DISPLAY_KEY, JSON.stringify(choices));
    } catch (_) {
      // Storage may be unavailable; the choice then lasts for this page.
    }
  }

  /** A record's name from the picked attributes' values (non-empty ones, joined by a space), else `fallback`. */
  function displayName(attrs, names, fallback) {
    const values = names.map((name) => (attrs && typeof attrs[name] === 'string' ? attrs[name].trim() : '')).filter(Boolean);
    return values.length ? values.join(' ') : fallback;
  }

  // ---------------------------------------------------------------------------------------------
  // The "related to" chip of a list restricted to what one record reaches (both views)
  // ---------------------------------------------------------------------------------------------

  /** relatedTo id -> Promise of its /api/object answer (null when it failed: asked again next time). */
  const scopeRecords = new Map();

  function showScope(node, relatedTo, via, storeKey) {
    const label = (name) => `Related to ${name} through ${via || '?'}`;
    const entity = entityFromId(relatedTo);
    setVisibleText(node, label(entity ? `${entity} ${shortId(relatedTo)}` : relatedTo));
    node.dataset.relatedTo = relatedTo;
    let answer = scopeRecords.get(relatedTo);
    if (!answer) {
      answer = getJSON(apiPath('/api/object', { id: relatedTo })).catch(() => null);
      scopeRecords.set(relatedTo, answer);
    }
    answer.then((record) => {
      if (!record || typeof record !== 'object') {
        scopeRecords.delete(relatedTo);
        return;
      }
      if (node.dataset.relatedTo !== relatedTo) return; // the chip shows another scope by now
      const name = displayName(record.attrs, displayChoices(storeKey, record.entity), record.summary || record.id);
      setVisibleText(node, label(`${name} (${record.entity})`));
    });
  }

  // ---------------------------------------------------------------------------------------------
  // DOM and URL plumbing every module uses
  // ---------------------------------------------------------------------------------------------

  /** createElement + className + text; never HTML. The text goes through setVisibleText, so a bidi override or a
   *  zero-width character in user data shows as a marker wherever it is written. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) setVisibleText(node, text);
    return node;
  }

  /** "x-coredata://<store>/Book/p12" -> "Book" (or null). */
  function entityFromId(id) {
    const m = /\/([^/]+)\/p\d+$/.exec(id);
    if (!m) return null;
    try {
      return decodeURIComponent(m[1]);
    } catch (_) {
      return null; // a malformed escape in a pasted URL is shown as an error by the server, not thrown here
    }
  }

  /** "x-coredata://<store>/Book/p12" -> "p12" (the ID itself when it is not of that form). */
  function shortId(id) {
    const m = /\/(p\d+)$/.exec(id);
    return m ? m[1] : id;
  }

  /** A request the server refused (`status`) or could not be sent (`status` 0). */
  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.name = 'ApiError';
      this.status = status;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Which store the page shows: a server may serve several (GET /api/stores). The page's `?store=` names one;
  // its API calls then go to /api/stores/<id>/…, and every link to a view keeps the parameter.
  // ---------------------------------------------------------------------------------------------

  const STORE_PARAM = 'store';

  /** The page's store ID, or '' for the server's first store. */
  function pageStore() {
    return new URLSearchParams(window.location.search).get(STORE_PARAM) || '';
  }

  /** `/api/x…` as the page's store's path (`/api/stores/<id>/x…`); a path already naming a store, or
   *  `/api/stores` itself, is left as it is. */
  function storeAPI(path) {
    const store = pageStore();
    if (!store || !path.startsWith('/api/') || path === '/api/stores' || path.startsWith('/api/stores?')
        || path.startsWith('/api/stores/')) return path;
    return `/api/stores/${encodeURIComponent(store)}/${path.slice('/api/'.length)}`;
  }

  /** A view's URL (`/`, `/lab`, `/history`, `/model`) with `params` (a URLSearchParams or an object; empty values
   *  left out), keeping the page's store. */
  function viewURL(path, params) {
    const query = new URLSearchParams();
    const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params || {});
    for (const [key, value] of entries) {
      if (value !== '' && value !== null && value !== undefined) query.set(key, String(value));
    }
    const store = pageStore();
    if (store) query.set(STORE_PARAM, store);
    const text = query.toString();
    return text ? `${path}?${text}` : path;
  }

  /** GETs JSON from the API (one client for every view), from the page's store. */
  async function getJSON(path, signal) {
    let response;
    try {
      response = await fetch(storeAPI(path), { signal, headers: { Accept: 'application/json' }, cache: 'no-store' });
    } catch (err) {
      if (err.name === 'AbortError') throw err;
      throw new ApiError(`Cannot reach the server (${err.message})`, 0);
    }
    const text = await response.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (_) {
      body = null;
    }
    if (!response.ok) {
      const message = body && typeof body === 'object' && typeof body.error === 'string' && body.error
        ? body.error
        : `${response.status} ${response.statusText}`.trim();
      throw new ApiError(message, response.status);
    }
    if (body === null) throw new ApiError('The server sent a response that is not JSON', response.status);
    return body;
  }

  /** `path?query` with the parameters that have a value (empty strings, null and undefined are left out), for the
   *  page's store. */
  function apiPath(path, params) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params || {})) {
      if (value !== '' && value !== null && value !== undefined) query.set(key, String(value));
    }
    const text = query.toString();
    const storePath = storeAPI(path);
    return text ? `${storePath}?${text}` : storePath;
  }

  // ---------------------------------------------------------------------------------------------
  // What changed since the person looked (both views, after a Live or Refresh redraw of the same list)
  // ---------------------------------------------------------------------------------------------

  /** Marks a row, cell or attribute as created, changed or deleted since the person looked, and says so. */
  function markChange(node, kind, label) {
    node.dataset.change = kind;
    node.title = node.title ? `${node.title} · ${label}` : label;
    node.setAttribute('aria-description', label);
  }

  /** The sidebar's `+3` / `−1` badge for an entity whose count moved by `delta` since the person looked. */
  function countDelta(delta) {
    const badge = el('span', 'entity-delta', delta > 0 ? `+${delta.toLocaleString()}` : `−${(-delta).toLocaleString()}`);
    badge.title = `${Math.abs(delta)} ${delta > 0 ? 'more' : 'fewer'} since you looked`;
    return badge;
  }


  // ---------------------------------------------------------------------------------------------
  // Counts and paging (both views)
  // ---------------------------------------------------------------------------------------------

  /** A count grouped by the browser's locale (1,000,000). */
  function formatCount(n) {
    return Number.isFinite(n) ? n.toLocaleString() : String(n ?? '');
  }

  function lastPageOffset(total, limit) {
    return total > 0 && limit > 0 ? Math.floor((total - 1) / limit) * limit : 0;
  }

  /** One page forward or back, never before the first page nor past the last one. */
  function steppedOffset(offset, direction, limit, total) {
    return Math.max(0, Math.min(offset + direction * limit, lastPageOffset(total, limit)));
  }

  /** "3" → the third page's offset; group separators and spaces are ignored ("1,204", "1 204"). */
  function pageOffsetOf(text, limit, total) {
    const digits = String(text).replace(/[\s,.’'\u00A0\u202F]/g, '');
    if (!/^\d{1,15}$/.test(digits)) return null;
    const number = Number(digits);
    if (number < 1) return null;
    return Math.min((number - 1) * limit, lastPageOffset(total, limit));
  }

  function wirePageInput(input, paging, go) {
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      const now = paging();
      const offset = now ? pageOffsetOf(input.value, now.limit, now.total) : null;
      if (offset === null) {
        input.setCustomValidity('Type a page number');
        input.reportValidity();
        return;
      }
      input.setCustomValidity('');
      input.value = '';
      go(offset);
    });
    input.addEventListener('input', () => input.setCustomValidity(''));
  }

  // ---------------------------------------------------------------------------------------------
  // Long values in a detail pane (both views)
  // ---------------------------------------------------------------------------------------------

  const LONG_VALUE_CHARS = 2000;

  function isLongValue(value) {
    return typeof value === 'string' && value.length > LONG_VALUE_CHARS;
  }

  function longValue(value, render) {
    const holder = el('div', 'long-value is-clamped');
    holder.dataset.length = String(value.length);
    const text = el('div', 'long-value-text');
    text.append(render(value.slice(0, LONG_VALUE_CHARS)));
    const button = el('button', 'show-all-value', 'Show all');
    button.type = 'button';
    button.setAttribute('aria-expanded', 'false');
    button.addEventListener('click', () => {
      const opening = holder.classList.contains('is-clamped');
      text.replaceChildren(render(opening ? value : value.slice(0, LONG_VALUE_CHARS)));
      text.scrollTop = 0;
      holder.classList.toggle('is-clamped', !opening);
      holder.classList.toggle('is-open', opening);
      button.textContent = opening ? 'Show less' : 'Show all';
      button.setAttribute('aria-expanded', String(opening));
    });
    const bar = el('div', 'long-value-bar');
    bar.append(el('span', 'long-value-count', `${formatCount(value.length)} characters`), button);
    holder.append(text, bar);
    return holder;
  }

  // ---------------------------------------------------------------------------------------------
  // Where the model came from (both views)
  // ---------------------------------------------------------------------------------------------

  /** Says where the model came from (/api/health's `model`); a model guessed from the tables gets a warning. */
  function showModelLine(node, model) {
    if (!model || typeof model.source !== 'string') {
      node.hidden = true;
      return;
    }
    const name = typeof model.name === 'string' && model.name ? ` “${model.name}”` : '';
    const texts = {
      file: `Model: ${model.path || 'the named file'}${name}`,
      'store-cache': `Model: the store's cached model${name}`,
      inferred: '⚠ Model guessed from the tables: names and types may differ from the app’s',
      live: 'Model: the app’s own',
    };
    setVisibleText(node, texts[model.source] || `Model: ${model.source}`);
    node.title = model.source === 'inferred'
      ? 'No model file was given and the store holds no cached model, so entities and attributes were read from the table layout. Pass --model to use the app’s .xcdatamodeld.'
      : visibleText(node.textContent);
    node.dataset.source = model.source;
    node.classList.toggle('is-warning', model.source === 'inferred');
    node.hidden = false;
  }

  // ---------------------------------------------------------------------------------------------
  // The entity sidebar (both views): tree, filter, "Hide empty", one tab stop with arrow keys
  // ---------------------------------------------------------------------------------------------

  const HIDE_EMPTY_KEY = 'cdb.hideEmpty';

  function readHideEmpty() {
    try {
      return window.localStorage.getItem(HIDE_EMPTY_KEY) === '1';
    } catch (_) {
      return false;
    }
  }

  function writeHideEmpty(on) {
    try {
      window.localStorage.setItem(HIDE_EMPTY_KEY, on ? '1' : '0');
    } catch (_) {
      // Storage may be unavailable; the choice then lasts for this page.
    }
  }

  /** Entities in tree order: roots by name, each followed by its sub-entities by name (depth-first). */
  function entityTree(entities) {
    const children = new Map();
    const known = new Set(entities.map((e) => e.name));
    for (const entity of entities) {
      const parent = entity.parent && known.has(entity.parent) ? entity.parent : '';
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(entity);
    }
    const ordered = [];
    const visit = (parent, depth) => {
      for (const entity of (children.get(parent) || []).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        ordered.push({ entity, depth });
        if (depth < 16) visit(entity.name, depth + 1); // a cycle in a malformed answer stops here
      }
    };
    visit('', 0);
    return ordered;
  }

  /** The tree as the sidebar shows it: names containing the filter text (any case), empty entities left out
   *  with hideEmpty, except the selected one. */
  function shownEntities(entities, { filter = '', hideEmpty = false, selected = null } = {}) {
    const needle = filter.trim().toLowerCase();
    return entityTree(entities).filter(({ entity }) => (!needle || entity.name.toLowerCase().includes(needle))
      && !(hideEmpty && entity.count === 0 && entity.name !== selected));
  }

  /** "CDCartItem, a sub-entity of CDCart, abstract: lists its sub-entities’ records": the full name, always. */
  function entityTitle(entity) {
    return [entity.name, entity.parent ? `a sub-entity of ${entity.parent}` : '',
      entity.abstract ? 'abstract: lists its sub-entities’ records' : ''].filter(Boolean).join(', ');
  }

  /** The entity ArrowDown/ArrowUp/Home/End move to from `current` (null: not a move, or nowhere to go). */
  function entityListStep(event, names, current) {
    if (!names.length || event.altKey || event.ctrlKey || event.metaKey) return null;
    const index = names.indexOf(current);
    let next;
    switch (event.key) {
      case 'ArrowDown': next = index < 0 ? 0 : Math.min(names.length - 1, index + 1); break;
      case 'ArrowUp': next = index < 0 ? names.length - 1 : Math.max(0, index - 1); break;
      case 'Home': next = 0; break;
      case 'End': next = names.length - 1; break;
      default: return null;
    }
    event.preventDefault();
    return next === index ? null : names[next];
  }

  function onEntityListKey(event, list, current, select) {
    const items = [...list.children];
    const next = entityListStep(event, items.map((li) => li.dataset.entity), current);
    if (!next) return;
    select(next);
    items.find((li) => li.dataset.entity === next).scrollIntoView({ block: 'nearest' });
  }

  // ---------------------------------------------------------------------------------------------
  // Floating panels (facets, "Copy as Swift"): a dialog of the page that Escape closes
  // ---------------------------------------------------------------------------------------------

  /** A hidden <section role=dialog id=…> added to the page: show(returnTo) opens it, close() hides it (Escape too),
   *  calls onClose and gives focus back to returnTo. */
  function floatingPanel(id, className, label, onClose) {
    const node = el('section', className);
    node.id = id;
    node.setAttribute('role', 'dialog');
    node.setAttribute('aria-label', label);
    node.hidden = true;
    let returnTo = null;
    const close = () => {
      if (node.hidden) return;
      node.hidden = true;
      if (onClose) onClose();
      if (returnTo && returnTo.isConnected) returnTo.focus();
    };
    node.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      close();
    });
    document.body.append(node);
    return {
      node,
      close,
      show(from) {
        returnTo = from || document.activeElement;
        node.hidden = false;
      },
    };
  }

  window.CDBShared = Object.freeze({
    el,
    floatingPanel,
    apiPath,
    storeAPI,
    viewURL,
    pageStore,
    STORE_PARAM,
    ApiError,
    getJSON,
    entityFromId,
    shortId,
    markChange,
    countDelta,
    DISPLAY_KEY,
    displayChoices,
    setDisplayChoices,
    displayName,
    showScope,
    copyText,
    copyFrom,
    recordJSON,
    focusWithin,
    formatCount,
    lastPageOffset,
    steppedOffset,
    pageOffsetOf,
    wirePageInput,
    LONG_VALUE_CHARS,
    isLongValue,
    longValue,
    showModelLine,
    HIDE_EMPTY_KEY,
    readHideEmpty,
    writeHideEmpty,
    entityTree,
    shownEntities,
    entityTitle,
    onEntityListKey,
    INVISIBLE_CHARACTERS,
    setVisibleText,
    visibleText,
    DATE_ZONE_KEY,
    readDateZone,
    writeDateZone,
    formatDate,
    repaintDates,
    wireDateZoneSelect,
  });
})();
