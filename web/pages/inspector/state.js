/*
 * CoreDataBrowser — Inspector view: the page's elements (every selector is defined here, once), the view and what
 * the panes last loaded, the view ⇄ URL (shared/list-view.js's rules), and the small helpers every pane uses (fetch
 * slots, status lines).
 *
 * `view` is the state the URL holds; it is replaced, never edited, through setView (an importing module sees
 * the new one).
 */

import { ApiError } from '../../shared/api.js';
import { byId, el } from '../../shared/dom.js';
import { emptyListView, listViewFromQuery, listViewQuery, newBaselines } from '../../shared/list-view.js';
import { commitURL, viewURL } from '../../shared/url.js';

// ---------------------------------------------------------------------------------------------
// Constants and DOM handles (every selector is defined here, once)
// ---------------------------------------------------------------------------------------------

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
let view = emptyListView();

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

/** The "since you looked" baselines of the list, the record and the sidebar's counts (shared/list-view.js). */
const since = newBaselines();

/** One AbortController per kind of request: a newer request supersedes the older one. */
const inflight = { health: null, entities: null, page: null, detail: null };

// ---------------------------------------------------------------------------------------------
// URL <-> view
// ---------------------------------------------------------------------------------------------

/** The view a URL's query string names (the Lab reads the same: shared/list-view.js). */
function viewFromLocation() {
  return listViewFromQuery(window.location.search);
}

function urlForView(v) {
  return viewURL('/', listViewQuery(v));
}

/** Writes the view into the URL. mode: "push" for navigation, "replace" for refinements. */
function commitView(mode) {
  commitURL(urlForView(view), mode);
}

// ---------------------------------------------------------------------------------------------
// Fetching
// ---------------------------------------------------------------------------------------------

/** An error as a status line says it: the HTTP status, then the server's message. */
function errorText(err) {
  if (err instanceof ApiError) return err.status ? `${err.status} · ${err.message}` : err.message;
  return String(err && err.message ? err.message : err);
}

// ---------------------------------------------------------------------------------------------
// DOM helpers
// ---------------------------------------------------------------------------------------------

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
  commitView,
  data,
  dom,
  errorText,
  inflight,
  setOptions,
  setView,
  since,
  urlForView,
  view,
  viewFromLocation,
};
