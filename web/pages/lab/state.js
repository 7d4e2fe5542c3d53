/*
 * CoreDataBrowser — Lab view: constants, the page's elements (selectors defined once), the state every part reads,
 * small helpers and the API (through shared/api.js, whose answers also drive the offline state: toolbar.js).
 */

import { apiPath, getJSON, storeAPI } from '../../shared/api.js';
import { byId } from '../../shared/dom.js';
import { DEFAULT_LIMIT, listParams, newBaselines } from '../../shared/list-view.js';

// ------------------------------------------------------------ Constants

const PAGE_SIZES = [25, 50, 100, 200, 500];
const DRAG_THRESHOLD_PX = 5;
const COL_WIDTH_MIN = 48;
const COL_WIDTH_MAX = 1600;
const DETAIL_REL_PREVIEW = 5;
const SPLITTER_PX = 6;
const LAYOUT_PADDING_PX = 8;
const JSON_HIGHLIGHT_LIMIT = 200000; // characters; larger JSON is shown unhighlighted
/** How many more related records "Load more" fetches in the relationships pane. */
const REL_PAGE = 100;

const STORAGE = {
  preferredView: 'cdb.preferredView',
  panes: 'cdb.lab.panes',
  cols: (entity) => `cdb.lab.cols.${entity}`,
};

// Plan v1.1 pane minimums.
const PANE_MIN = { sidebar: 160, detail: 240, gridWidth: 200, gridHeight: 120, subWidth: 200, subHeight: 100 };
/**
 * Default pane sizes, for the window the Lab opens in: on a small one (1024×700 and below) the grid keeps room
 * for ten rows and several columns, and the side panes and the relationship/content row give way. A user's own
 * splitter sizes (remembered) always win.
 */
function paneDefaults() {
  const narrow = window.innerWidth < 1180;
  const low = window.innerHeight < 760;
  // The detail pane grows with the window: a quarter of it, between 320 and 520 px.
  const detail = narrow ? 250 : Math.round(Math.min(520, Math.max(320, window.innerWidth * 0.25)));
  return { sidebar: narrow ? 170 : 220, detail, bottom: low ? PANE_MIN.subHeight : 240, bottomLeft: null };
}
const PANE_DEFAULT = paneDefaults();
const CENTER_MIN_WIDTH = Math.max(PANE_MIN.gridWidth, 2 * PANE_MIN.subWidth + SPLITTER_PX);

const NUMERIC_TYPES = new Set(['Integer 16', 'Integer 32', 'Integer 64', 'Double', 'Float', 'Decimal']);
const SHORT_TYPE = { 'Integer 16': 'Int16', 'Integer 32': 'Int32', 'Integer 64': 'Int64', Boolean: 'Bool' };

// ------------------------------------------------------------ DOM (selectors defined once)

const dom = {};

function cacheDom() {
  Object.assign(dom, {
    layout: byId('lab-layout'),
    center: byId('center-col'),
    bottomRow: byId('bottom-row'),
    tabs: document.querySelectorAll('.view-tabs a[data-view]'),
    refreshBtn: byId('refresh-btn'),
    exportBtn: byId('export-btn'),
    modeChip: byId('mode-chip'),
    statusStore: byId('status-store'),
    modelLine: byId('model-line'),
    statusText: byId('status-text'),
    pulse: document.querySelector('.statusbar .pulse'),

    paneSidebar: byId('pane-sidebar'),
    entityList: byId('entity-list'),
    entityFilter: byId('entity-filter'),
    hideEmpty: byId('hide-empty'),
    sidebarState: byId('sidebar-state'),

    paneGrid: byId('pane-grid'),
    search: byId('grid-search'),
    searchAttr: byId('grid-search-attr'),
    pageSize: byId('grid-page-size'),
    prev: byId('grid-prev'),
    next: byId('grid-next'),
    first: byId('grid-first'),
    last: byId('grid-last'),
    scope: byId('grid-scope'),
    scopeText: byId('grid-scope-text'),
    scopeClear: byId('grid-scope-clear'),
    relActions: byId('rel-actions'),
    relLoadMore: byId('rel-load-more'),
    relShowAll: byId('rel-show-all'),
    pageIndicator: byId('grid-page-indicator'),
    pageInput: byId('grid-page-input'),
    columnsBtn: byId('grid-columns-btn'),
    gridExportBtn: byId('grid-export-btn'),
    gridQueryBtn: byId('grid-query-btn'),
    gridWhereBtn: byId('grid-where-btn'),
    gridSwiftBtn: byId('grid-swift-btn'),
    whereChip: byId('where-chip'),
    gridScroll: byId('grid-scroll'),
    grid: byId('grid'),
    gridHeadRow: byId('grid-head-row'),
    gridBody: byId('grid-body'),
    gridState: byId('grid-state'),

    paneRel: byId('pane-relationships'),
    relSelect: byId('rel-select'),
    relList: byId('rel-list'),
    relState: byId('rel-state'),

    paneContent: byId('pane-content'),
    contentSelect: byId('content-select'),
    contentMeta: byId('content-meta'),
    contentView: byId('content-view'),
    contentState: byId('content-state'),

    paneDetail: byId('pane-detail'),
    detailBody: byId('detail-body'),
    detailContent: byId('detail-content'),
    detailState: byId('detail-state'),
    detailExport: byId('detail-export'),
    breadcrumb: byId('breadcrumb'),

    dateZone: byId('date-zone'),
    splitters: document.querySelectorAll('.splitter[data-split]'),
    widthSheet: document.head.appendChild(document.createElement('style')),
  });
  dom.widthSheet.id = 'grid-col-widths';
}

// ------------------------------------------------------------ State

const state = {
  entities: [],
  entityByName: new Map(),
  entitiesError: null,
  entity: null, // the grid's entity
  sort: null,
  order: 'asc',
  search: '',
  searchAttr: '',
  where: '', // a predicate in Core Data's syntax (predicate.js), ANDed with the search
  limit: DEFAULT_LIMIT,
  offset: 0,
  relatedTo: '', // with via: the grid lists only what this record reaches through that relationship
  via: '',
  total: 0,
  rows: [],
  rowById: new Map(), // record id -> <tr> of the current page
  cols: null, // {order, widths, hidden} for the grid's entity
  selectedId: null, // record shown in detail / sub-panels
  record: null, // /api/object payload of selectedId
  relChoice: new Map(), // entity -> relationship last picked in the sub-panel
  relShown: null, // {id, rel, items}: the relationship listed in the sub-panel, with the pages loaded so far
  trail: [], // [{id, entity, summary}]: the records followed to reach the shown one (the breadcrumb)
  contentChoice: new Map(), // entity -> attribute last picked in the content viewer
  panes: { ...PANE_DEFAULT },
  dateZone: 'local', // "local" | "utc": localStorage "cdb.dateZone", read at start and on a change
  refocusPane: null, // the pane a relationship was followed from with the keyboard, to keep focus in
  selectOnPage: null, // {offset, index}: PageDown/PageUp select the row at this position once that page is drawn
  storeKey: '', // /api/health's store description: the key of the "Name by" choices (shared with the Inspector)
  writable: false, // /api/health lists "write": cells edit in place, New and Delete exist (editing.js)
};

/** The "since you looked" baselines of the grid's list and the sidebar's counts (shared/list-view.js). */
const since = newBaselines();

/** The row of the page on screen whose object ID is `id` (undefined when the page does not hold it). */
function rowData(id) {
  return state.rows.find((row) => String(row.id) === id);
}

/** One AbortController per kind of request (shared/api.js restartFetch): a newer request supersedes the older one. */
const inflight = { entities: null, grid: null, record: null, health: null, related: null };

// ------------------------------------------------------------ Small helpers

const clamp = (value, min, max) => Math.max(min, Math.min(max, value));
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const shortType = (type) => SHORT_TYPE[type] || type || '';

// ------------------------------------------------------------ API

const api = {
  health: (signal) => getJSON('/api/health', signal),
  entities: (signal) => getJSON('/api/entities', signal),
  records: (entity, query, signal) =>
    getJSON(apiPath(`/api/entities/${encodeURIComponent(entity)}`, { ...listParams(query), limit: query.limit, offset: query.offset }), signal),
  related: (id, rel, offset, limit, signal) =>
    getJSON(`/api/object/related?${new URLSearchParams({ id, rel, offset: String(offset), limit: String(limit) })}`, signal),
  position: (entity, id, limit, signal) =>
    getJSON(`/api/entities/${encodeURIComponent(entity)}/position?${new URLSearchParams({ id, limit: String(limit) })}`, signal),
  object: (id, signal) => getJSON(`/api/object?${new URLSearchParams({ id })}`, signal),
  exportURL: (id) => storeAPI(`/api/object/export?${new URLSearchParams({ id })}`),
};

export {
  rowData,
  CENTER_MIN_WIDTH,
  COL_WIDTH_MAX,
  COL_WIDTH_MIN,
  DETAIL_REL_PREVIEW,
  DRAG_THRESHOLD_PX,
  JSON_HIGHLIGHT_LIMIT,
  LAYOUT_PADDING_PX,
  NUMERIC_TYPES,
  PAGE_SIZES,
  PANE_DEFAULT,
  PANE_MIN,
  REL_PAGE,
  SPLITTER_PX,
  STORAGE,
  api,
  cacheDom,
  clamp,
  dom,
  inflight,
  isPlainObject,
  paneDefaults,
  shortType,
  since,
  state,
};
