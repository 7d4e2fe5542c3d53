/*
 * CoreDataBrowser — Inspector view: constants, the page's elements (every selector is defined here, once), the view and what the
 * panes last loaded, the view ⇄ URL, and the small helpers every pane uses (fetch slots, status lines).
 *
 * `view` is the state the URL holds; it is replaced, never edited, through setView (an importing module sees
 * the new one).
 */

import { ApiError, entityFromId } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { commitURL, viewURL } from '../../shared/url.js';
import { setVisibleText } from '../../shared/visible-text.js';

// ---------------------------------------------------------------------------------------------
// Constants and DOM handles (every selector is defined here, once)
// ---------------------------------------------------------------------------------------------

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
const SEARCH_DEBOUNCE_MS = 250;
/** Longer strings are clamped in the detail (a 187,000-character value must not make one cell huge). */
/** Attribute types a list cannot be sorted by (the server refuses them too). */
const UNSORTABLE_TYPES = new Set(['Binary', 'Transformable', 'Undefined', 'ObjectID']);

const byId = (id) => document.getElementById(id);
const dom = {
  layout: byId('layout'),
  storeName: byId('store-name'),
  modelLine: byId('model-line'),
  entityFilter: byId('entity-filter'),
  hideEmpty: byId('hide-empty'),
  displayAttr: byId('display-attr'),
  displayAttr2: byId('display-attr-2'),
  firstBtn: byId('first-btn'),
  lastBtn: byId('last-btn'),
  pageInput: byId('page-input'),
  scopeChip: byId('scope-chip'),
  scopeText: byId('scope-text'),
  scopeClear: byId('scope-clear'),
  readOnlyChip: byId('readonly-chip'),
  refreshBtn: byId('refresh-btn'),
  exportBtn: byId('export-btn'),
  exportViewBtn: byId('export-view-btn'),
  queryBtn: byId('query-btn'),
  whereBtn: byId('where-btn'),
  facetsBtn: byId('facets-btn'),
  swiftBtn: byId('swift-btn'),
  whereChip: byId('where-chip'),
  exportLink: byId('export-link'),
  entitiesPane: byId('entities-pane'),
  entitiesStatus: byId('entities-status'),
  entityList: byId('entity-list'),
  recordsPane: byId('records-pane'),
  recordsStatus: byId('records-status'),
  searchInput: byId('search-input'),
  searchAttr: byId('search-attr'),
  sortSelect: byId('sort-select'),
  orderBtn: byId('order-btn'),
  limitSelect: byId('limit-select'),
  prevBtn: byId('prev-btn'),
  nextBtn: byId('next-btn'),
  pageIndicator: byId('page-indicator'),
  recordList: byId('record-list'),
  detailPane: byId('detail-pane'),
  detailStatus: byId('detail-status'),
  detail: byId('detail'),
  splitterLeft: byId('splitter-left'),
  splitterRight: byId('splitter-right'),
  dateZone: byId('date-zone'),
};

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/** What the URL says. Everything else is derived from it or fetched. */
let view = emptyView();

/** Replaces the view (the state every pane shows); the modules that import `view` see the new one. */
function setView(next) {
  view = next;
}

const data = {
  /** @type {Array<object>} from /api/entities */
  entities: [],
  /** @type {Map<string, object>} */
  entityByName: new Map(),
  /** Resolves once /api/entities answered at least once (successfully or not). */
  entitiesLoaded: null,
  /** Last rendered page response, and the view it was requested for. */
  page: null,
  pageView: null,
  /** The store's description from /api/health: the key of the user's display choices. */
  storeKey: '',
  /** Whether the server writes (/api/health's capabilities): the editing controls exist only then (editing.js). */
  writable: false,
};

/**
 * What the page looked like when the person started looking at it, so a refresh (Live, or the Refresh button)
 * can mark what changed since: rows created or changed on the page, rows gone (kept as ghosts), changed
 * attributes of the record shown, and count deltas in the sidebar. A baseline lasts while its list (or
 * record) stays on screen; moving to another list or record starts a new one.
 */
const since = {
  /** {key, rows: Map<id, {json, row}>, order: [id]} of the list first seen under this key, or null. */
  page: null,
  /** {id, attrs: Map<name, json>} of the record first seen, or null. */
  record: null,
  /** {key, counts: Map<entity, count>}: the counts when the list was first seen, or null. */
  counts: null,
};

/** The list a page shows, without its selected record: the key of the "since you looked" baselines. */
function listKey(v) {
  return JSON.stringify([v.entity, v.search, v.searchAttr, v.where, v.sort, v.order, v.limit, v.offset, v.relatedTo, v.via]);
}

/** One AbortController per kind of request: a newer request supersedes the older one. */
const inflight = { health: null, entities: null, page: null, detail: null };
/** A relationship was followed from the keyboard: focus the followed record's detail once it is drawn. */

function emptyView() {
  return { entity: '', search: '', searchAttr: '', where: '', sort: '', order: 'asc', limit: DEFAULT_LIMIT, offset: 0, id: '', relatedTo: '', via: '' };
}

// ---------------------------------------------------------------------------------------------
// URL <-> view
// ---------------------------------------------------------------------------------------------

function parsePositiveInt(text, fallback, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (typeof text !== 'string' || !/^\d+$/.test(text)) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) return fallback;
  return Math.min(n, max);
}

function viewFromLocation() {
  const q = new URLSearchParams(window.location.search);
  const v = emptyView();
  v.entity = q.get('entity') || '';
  v.search = q.get('search') || '';
  v.searchAttr = q.get('searchAttr') || '';
  v.where = q.get('where') || '';
  v.sort = q.get('sort') || '';
  v.order = q.get('order') === 'desc' ? 'desc' : 'asc';
  v.limit = parsePositiveInt(q.get('limit'), DEFAULT_LIMIT, { min: 1, max: MAX_LIMIT });
  v.offset = parsePositiveInt(q.get('offset'), 0);
  v.id = q.get('id') || '';
  v.relatedTo = q.get('relatedTo') || '';
  v.via = q.get('via') || '';
  // A link to a record alone (/?id=…, as the Lab's double-click opens) still shows its entity's list.
  if (!v.entity && v.id) v.entity = entityFromId(v.id) || '';
  return v;
}

function urlForView(v) {
  const q = new URLSearchParams();
  if (v.entity) q.set('entity', v.entity);
  if (v.search) q.set('search', v.search);
  if (v.searchAttr) q.set('searchAttr', v.searchAttr);
  if (v.where) q.set('where', v.where);
  if (v.sort) q.set('sort', v.sort);
  if (v.order !== 'asc') q.set('order', v.order);
  if (v.limit !== DEFAULT_LIMIT) q.set('limit', String(v.limit));
  if (v.offset !== 0) q.set('offset', String(v.offset));
  if (v.relatedTo) q.set('relatedTo', v.relatedTo);
  if (v.via) q.set('via', v.via);
  if (v.id) q.set('id', v.id);
  return viewURL('/', q);
}

/** Writes the view into the URL. mode: "push" for navigation, "replace" for refinements. */
function commitView(mode) {
  commitURL(urlForView(view), mode);
}

// ---------------------------------------------------------------------------------------------
// Fetching
// ---------------------------------------------------------------------------------------------

/** Starts a request of one kind, aborting the previous request of that kind. */
function errorText(err) {
  if (err instanceof ApiError) return err.status ? `${err.status} · ${err.message}` : err.message;
  return String(err && err.message ? err.message : err);
}

// ---------------------------------------------------------------------------------------------
// DOM helpers
// ---------------------------------------------------------------------------------------------

/** shared.js: invisible characters shown as markers, dates in the chosen zone. */

/** Shows a status line in a pane; kind is loading | empty | error | hint, or null to hide it. */
function setStatus(pane, statusEl, state, kind, message) {
  pane.dataset.state = state;
  pane.setAttribute('aria-busy', state === 'loading' ? 'true' : 'false');
  if (!kind) {
    statusEl.hidden = true;
    statusEl.textContent = '';
    delete statusEl.dataset.kind;
    return;
  }
  statusEl.hidden = false;
  statusEl.dataset.kind = kind;
  setVisibleText(statusEl, message); // it may quote the search text
}

function setOptions(select, options, value) {
  select.replaceChildren(...options.map(({ value: v, label }) => {
    const option = el('option', null, label);
    option.value = v;
    return option;
  }));
  select.value = value;
  if (select.value !== value) select.value = options.length ? options[0].value : '';
}

export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  SEARCH_DEBOUNCE_MS,
  UNSORTABLE_TYPES,
  byId,
  commitView,
  data,
  dom,
  emptyView,
  errorText,
  inflight,
  listKey,
  parsePositiveInt,
  setOptions,
  setStatus,
  setView,
  since,
  urlForView,
  view,
  viewFromLocation,
};
