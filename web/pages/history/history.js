/*
 * CoreDataBrowser — History view (/history): the store's persistent history as a timeline, newest first, and the
 * live context's unsaved edits.
 *
 * API (docs/API.md): GET /api/history[?before|after|transaction][&entity][&author][&context][&changeOffset]
 * [&changeLimit] and GET /api/pending.
 *
 *   Filters   #filter-entity, #filter-author, #filter-context (kept in the URL: /history?entity=Book&author=app)
 *   Timeline  #transactions > li.transaction[data-id] (data-change="created" on transactions that arrived since the
 *             page was first drawn; Live puts them on top without redrawing the others), each with a table.changes of tr[data-type]; a deleted object's row shows
 *             its tombstone; "more changes" pages through a transaction; #older-btn pages back in time
 *   Records   each change's .record-name is the record's name as the Inspector shows it (the server's summary, or
 *             the attributes picked with "Name by" for its entity, read once per record), then .record-ref
 *             "Entity p4"; a record no longer in the store (deleted) is named by its reference alone. An update's
 *             changed properties are code.changed-property, by name (bit positions only where the server could
 *             not name them; the notes say why)
 *   Pending   #pending (shown only when /api/pending is available: a live context read through the app's context)
 *   State     document.body.dataset.historyState = loading | ready | unavailable | error (tests wait on it);
 *             document.body.dataset.historyLoads counts finished loads
 */

import { apiPath, getJSON, shortId } from '../../shared/api.js';
import { formatDate, readDateZone, repaintDates, wireDateZoneSelect } from '../../shared/dates.js';
import { byId, el } from '../../shared/dom.js';
import { displayChoices, displayName } from '../../shared/record-names.js';
import { setVisibleText } from '../../shared/visible-text.js';
import { viewURL } from '../../shared/url.js';
import * as live from '../../features/live/live.js';

const dom = {
  status: byId('history-status'),
  list: byId('transactions'),
  notes: byId('history-notes'),
  older: byId('older-btn'),
  entity: byId('filter-entity'),
  author: byId('filter-author'),
  context: byId('filter-context'),
  pending: byId('pending'),
  pendingBody: byId('pending-body'),
  storeName: byId('store-name'),
};

/** The newest transaction drawn when the person started looking at this list: later ones are marked new. */
let baseline = null;
let olderCursor = null;
/** The newest transaction drawn: Live asks for the ones after it and puts them on top. */
let newestDrawn = null;
/** More new transactions than this at once (a burst of saves) redraw the first page instead. */
const FOLLOW_LIMIT = 200;
let loads = 0;
let controller = null;
/** Changes shown per transaction at first (a timeline stays scannable), then per "more changes" click. */
const FIRST_CHANGES = 10;
const MORE_CHANGES = 100;

function setState(state, message) {
  document.body.dataset.historyState = state;
  dom.status.dataset.state = state;
  dom.status.textContent = message || '';
}

function filters() {
  return { entity: dom.entity.value, author: dom.author.value, context: dom.context.value };
}

function filtersFromLocation() {
  const q = new URLSearchParams(window.location.search);
  return { entity: q.get('entity') || '', author: q.get('author') || '', context: q.get('context') || '' };
}

/** A select's options: the first ("any") kept, then the names; a chosen name the list lacks is kept too. */
function fillSelect(select, names, chosen) {
  const first = select.options[0];
  select.replaceChildren(first);
  const all = chosen && !names.includes(chosen) ? [chosen, ...names] : names;
  for (const name of all) {
    const option = el('option', null, name);
    option.value = name;
    select.append(option);
  }
  select.value = chosen || '';
}

function dateNode(iso) {
  const node = el('span', 'transaction-time');
  if (!iso) {
    node.textContent = 'no timestamp';
    return node;
  }
  node.dataset.iso = iso;
  const formatted = formatDate(iso, readDateZone());
  node.textContent = formatted ? formatted.text : iso;
  if (formatted) node.title = formatted.title;
  return node;
}

function who(label, value) {
  const span = el('span', 'transaction-who', `${label} `);
  span.append(el('b', null, value));
  return span;
}

function valueText(value) {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** "Feedback p4" for a pending object (the API names its entity); "Book (new)" for an object not saved yet,
 *  whose temporary ID names no stored record. */
function recordLabel(object) {
  return object.temporary ? `${object.entity} (new)` : `${object.entity} ${shortId(object.id)}`;
}

/** id -> Promise of the record's /api/object answer (null when it failed: asked again next time), for entities
 *  named by attributes picked with "Name by": the history's summary is the server's default name. */
const pickedNameRecords = new Map();

/** The change's record as the Inspector names it (the server's summary, or the picked attributes' values) in
 *  `node`, and its reference in `refNode`, shown only beside a name that is not that reference already. */
function nameRecord(node, refNode, change) {
  const ref = `${change.entity} ${shortId(change.id)}`;
  const show = (name) => {
    setVisibleText(node, name);
    refNode.hidden = name === ref;
  };
  show(change.summary || ref);
  const choices = displayChoices(dom.storeName.textContent, change.entity);
  if (!choices.length || change.type === 'delete') return;
  let answer = pickedNameRecords.get(change.id);
  if (!answer) {
    answer = getJSON(apiPath('/api/object', { id: change.id })).catch(() => null);
    pickedNameRecords.set(change.id, answer);
  }
  answer.then((record) => {
    if (!record || typeof record !== 'object') {
      pickedNameRecords.delete(change.id);
      return;
    }
    show(displayName(record.attrs, choices, record.summary || change.summary || ref));
  });
}

function changeRow(change) {
  const row = el('tr');
  row.dataset.type = change.type;
  const type = el('span', 'change-type', change.type);
  type.dataset.type = change.type;
  const typeCell = el('td');
  typeCell.append(type);
  row.append(typeCell);
  const record = el('td', 'change-record');
  const name = el(change.type === 'delete' ? 'span' : 'a', change.type === 'delete' ? 'record-name gone' : 'record-name');
  const ref = el('span', 'record-ref', `${change.entity} ${shortId(change.id)}`);
  nameRecord(name, ref, change);
  if (change.type === 'delete') {
    name.title = `${change.id} (deleted)`;
  } else {
    name.href = viewURL('/', new URLSearchParams({ id: change.id }));
    name.title = `Open ${change.id} in the Inspector`;
  }
  // The reference beside a name: a name alone does not say which record, nor of which entity.
  record.append(name, ' ', ref);
  row.append(record);
  const detail = el('td', 'change-detail');
  if (change.changed && change.changed.length) {
    detail.append('changed ');
    change.changed.forEach((property, index) => {
      detail.append(index ? ', ' : '', el('code', 'changed-property', property));
    });
  } else if (change.changedBits && change.changedBits.length) {
    detail.append('changed property bits ', el('code', null, change.changedBits.join(', ')));
    detail.title = 'Positions of the bits set in Core Data\'s per-change bitmap, which could not be named; see the note at the top';
  }
  if (change.tombstone) {
    const parts = Object.keys(change.tombstone).sort().map((key) => `${key} = ${valueText(change.tombstone[key])}`);
    detail.append('kept after deletion: ', el('code', null, parts.join(', ')));
  }
  row.append(detail);
  return row;
}

function transactionNode(transaction) {
  const item = el('li', 'transaction');
  item.dataset.id = String(transaction.id);
  if (baseline !== null && transaction.id > baseline) item.dataset.change = 'created';
  const head = el('div', 'transaction-head');
  head.append(el('span', 'transaction-number', `#${transaction.id}`), dateNode(transaction.timestamp));
  if (transaction.author) head.append(who('by', transaction.author));
  if (transaction.contextName) head.append(who('context', transaction.contextName));
  if (transaction.bundleID) head.append(who('app', transaction.bundleID));
  if (transaction.processID) head.append(who('process', transaction.processID));
  const count = transaction.changeCount;
  head.append(el('span', 'transaction-count', `${count.toLocaleString()} change${count === 1 ? '' : 's'}`));
  item.append(head);
  const table = el('table', 'changes');
  const body = el('tbody');
  table.append(body);
  item.append(table);
  appendChanges(item, body, transaction);
  return item;
}

/** Adds a page of a transaction's changes, and a button for the next page while some are not shown. */
function appendChanges(item, body, transaction) {
  for (const change of transaction.changes) body.append(changeRow(change));
  item.querySelector('.changes-more')?.remove();
  const shown = transaction.changeOffset + transaction.changes.length;
  if (shown >= transaction.changeCount) return;
  const more = el('button', 'control changes-more',
    `Show more changes (${shown.toLocaleString()} of ${transaction.changeCount.toLocaleString()} shown)`);
  more.type = 'button';
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const page = await getJSON(apiPath('/api/history', {
        ...filters(), transaction: transaction.id, changeOffset: shown, changeLimit: MORE_CHANGES }));
      appendChanges(item, body, page.transactions[0]);
    } catch (error) {
      // Said on the button: the page itself is fine, and Live keeps adding to it.
      more.disabled = false;
      more.textContent = `Could not load more changes (${error.message}): try again`;
    }
  });
  item.append(more);
}

function render(page, append) {
  if (!append) dom.list.replaceChildren();
  for (const transaction of page.transactions) dom.list.append(transactionNode(transaction));
  olderCursor = page.older ?? null;
  dom.older.hidden = olderCursor === null;
  const notes = page.notes || [];
  dom.notes.hidden = notes.length === 0;
  dom.notes.textContent = notes.join(' ');
  const chosen = filters();
  fillSelect(dom.author, page.authors || [], chosen.author);
  fillSelect(dom.context, page.contexts || [], chosen.context);
  if (!dom.list.children.length) {
    dom.list.append(el('li', 'history-empty', 'No transactions match.'));
  }
}

/** Loads the newest page (append = false) or the next older one. */
async function load(append = false) {
  controller?.abort();
  controller = new AbortController();
  setState('loading', 'Loading…');
  try {
    const params = { ...filters(), changeLimit: FIRST_CHANGES };
    if (append && olderCursor !== null) params.before = olderCursor;
    const page = await getJSON(apiPath('/api/history', params), controller.signal);
    if (!page.available) {
      dom.list.replaceChildren();
      dom.older.hidden = true;
      setState('unavailable', page.reason);
    } else {
      render(page, append);
      if (!append) {
        newestDrawn = page.newer ?? 0;
        if (baseline === null) baseline = newestDrawn;
      }
      setState('ready', '');
    }
  } catch (error) {
    if (error.name === 'AbortError') return;
    setState('error', `Could not load the history: ${error.message}`);
  } finally {
    loads += 1;
    document.body.dataset.historyLoads = String(loads);
  }
  await loadPending();
}

/** Live: the transactions saved since the newest one drawn go on top; what the person paged back to stays. */
async function followNew() {
  if (newestDrawn === null || document.body.dataset.historyState !== 'ready') return load(false);
  // The same slot as load(): a filter change or Refresh meanwhile aborts this request, so an answer for the old
  // list is never added to the new one.
  controller?.abort();
  controller = new AbortController();
  try {
    const page = await getJSON(apiPath('/api/history', {
      ...filters(), after: newestDrawn, limit: FOLLOW_LIMIT, changeLimit: FIRST_CHANGES }), controller.signal);
    if (!page.available || page.transactions.length >= FOLLOW_LIMIT) return load(false);
    if (page.transactions.length) {
      dom.list.querySelector('.history-empty')?.remove();
      // Oldest first: each one goes above the one before it, so the newest ends on top.
      for (const transaction of page.transactions) dom.list.prepend(transactionNode(transaction));
      newestDrawn = page.newer ?? newestDrawn;
    }
    const chosen = filters();
    fillSelect(dom.author, page.authors || [], chosen.author);
    fillSelect(dom.context, page.contexts || [], chosen.context);
    if ((page.notes || []).length) {
      dom.notes.hidden = false;
      dom.notes.textContent = page.notes.join(' ');
    }
  } catch (error) {
    if (error.name === 'AbortError') return;
    setState('error', `Could not follow the history: ${error.message}`);
  } finally {
    loads += 1;
    document.body.dataset.historyLoads = String(loads);
  }
  await loadPending();
}

function pendingGroup(title, objects, showValues) {
  const group = el('div', 'pending-group');
  group.append(el('h3', null, `${title} (${objects.length})`));
  const table = el('table', 'changes');
  const body = el('tbody');
  for (const object of objects) {
    const row = el('tr');
    row.append(el('td', 'change-record', recordLabel(object)));
    const detail = el('td', 'change-detail');
    if (showValues) {
      const parts = object.changes.map((change) => {
        const span = el('span', 'pending-value', `${change.name}: `);
        if (change.saved !== undefined) {
          span.append(el('del', null, valueText(change.saved)), ' → ');
        }
        span.append(valueText(change.pending));
        return span;
      });
      parts.forEach((part, index) => detail.append(index ? '; ' : '', part));
    }
    row.append(detail);
    body.append(row);
  }
  table.append(body);
  group.append(table);
  return group;
}

/** Counts /api/pending requests: only the latest one's answer is drawn (they may come back out of order). */
let pendingRequests = 0;

async function loadPending() {
  const request = ++pendingRequests;
  try {
    const pending = await getJSON('/api/pending');
    if (request !== pendingRequests) return;
    dom.pending.hidden = !pending.available;
    if (!pending.available) return;
    dom.pendingBody.replaceChildren(
      pendingGroup('Inserted', pending.inserted, true),
      pendingGroup('Updated', pending.updated, true),
      pendingGroup('Deleted', pending.deleted, false),
      ...(pending.notes || []).map((note) => el('p', 'history-notes', note)));
  } catch (_) {
    dom.pending.hidden = true;
  }
}

function onFilterChange() {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(filters())) if (value) q.set(key, value);
  window.history.replaceState(null, '', viewURL('/history', q));
  baseline = null;  // another list: a new starting point for "new since you looked"
  load(false);
}

async function start() {
  const chosen = filtersFromLocation();
  fillSelect(dom.author, [], chosen.author);
  fillSelect(dom.context, [], chosen.context);
  try {
    const [health, entities] = await Promise.all([getJSON('/api/health'), getJSON('/api/entities')]);
    dom.storeName.textContent = health.store || '';
    fillSelect(dom.entity, entities.map((entity) => entity.name), chosen.entity);
  } catch (error) {
    fillSelect(dom.entity, [], chosen.entity);  // the URL's filter stays chosen
    setState('error', `Could not reach the server: ${error.message}`);
  }
  for (const select of [dom.entity, dom.author, dom.context]) select.addEventListener('change', onFilterChange);
  dom.older.addEventListener('click', () => load(true));
  byId('refresh-btn').addEventListener('click', () => load(false));
  wireDateZoneSelect(byId('date-zone'), (zone) => repaintDates(dom.list, zone));
  live.attach(byId('live-toggle'), followNew);
  await load(false);
}

start();
