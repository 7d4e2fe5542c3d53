/* CoreDataBrowser — Lab view (/lab).
 *
 * A 5-pane browser over the read-only JSON API (docs/API.md): entities sidebar,
 * data grid, relationships sub-panel, content viewer and detail inspector.
 * Vanilla JS, no framework, no build step. User data only ever reaches the page
 * through textContent, never through innerHTML.
 *
 * Stable test hooks (tests and docs rely on these; change them together):
 *   Panes        #pane-sidebar #pane-grid #pane-relationships #pane-content #pane-detail
 *                each pane has data-state = idle | loading | ready | empty | error
 *                (#pane-grid mirrors #grid-scroll[data-state]); #pane-detail[data-id]
 *                is the id of the record it shows.
 *   Pane states  #sidebar-state #grid-state #rel-state #content-state #detail-state
 *                (loading/empty/error messages; .is-error carries the server's message)
 *   Sidebar      #entity-filter, #hide-empty (localStorage "cdb.hideEmpty", shared with the Inspector);
 *                #entity-list (one tab stop: ArrowUp/ArrowDown/Home/End show the next entity)
 *                > li[data-entity][data-depth][data-abstract] (.active on the grid's entity; title = full name and parent)
 *   Toolbar      #grid-search #grid-search-attr #grid-page-size #grid-first #grid-prev #grid-next
 *                #grid-last #grid-page-indicator (locale-grouped numbers) #grid-page-input (go to page: its
 *                number, then Enter) #grid-columns-btn; PageUp/PageDown in the grid turn the page
 *   Top bar      #grid-export-btn (the grid's list as a CSV / NDJSON file: export.js's menu and progress
 *                panel), #grid-query-btn (query.js's drawer: the SQL and plan behind the grid's page); in the
 *                top bar so the grid's toolbar stays one row
 *   Predicates   #grid-where-btn (top bar: predicate.js's filter panel), #grid-swift-btn (swift.js), #where-chip
 *                (the active where=); the cell menu's [data-action=filter-value|exclude-value], the header menu's
 *                [data-action=facets] (facets.js)
 *   Scope        #grid-scope (shown for ?relatedTo=<id>&via=<rel>), #grid-scope-text, #grid-scope-clear
 *   Grid         #grid-scroll (scroll container, focusable) > #grid
 *                thead th[data-col] (.th-label .th-type .th-sort .col-resize; aria-sort)
 *                tbody tr[data-id][data-entity] (.is-selected), td[data-col]
 *                th.col-select / td.col-select is the row-number gutter (no data-col); a sub-entity's row
 *                (tr.row-sub) names its entity there (span.row-entity)
 *   Cells        td.col-numeric td.col-date .val-true .val-false .val-null .val-binary
 *                .val-nonfinite .val-error .val-empty (the same classes in detail/content);
 *                a date cell carries data-iso (the stored value) and shows it in #date-zone's zone
 *   Invisible    span.cdb-invisible[data-code="202E"][title="RIGHT-TO-LEFT OVERRIDE (U+202E)"] stands for
 *                each bidi control, zero-width or control character in displayed text (web/shared.js; el())
 *   Dates        #date-zone (select: local | utc) in the top bar
 *   Menus        .cdb-popover[data-menu="header"|"columns"], items [data-action],
 *                column checkboxes input[data-col]
 *   Relations    #rel-select, #rel-list > li[data-id][data-entity], #rel-actions with #rel-load-more
 *                (pages the rest of a to-many in) and #rel-show-all (the grid, restricted to the relationship)
 *   History      #nav-back, #nav-forward (the browser's history); #breadcrumb > button[data-id] for each
 *                record followed to reach the shown one, .current for the shown one
 *   Status bar   #status-store, #model-line[data-source] (where the model came from: .is-warning when guessed
 *                from the tables), #status-text
 *   Offline      body[data-offline] and the status dot's .is-offline while the server does not answer
 *   Content      #content-select, #content-view (.cv-text | .cv-json | .cv-value), #content-meta
 *   Detail       #detail-copy-id, #detail-copy-json (data-copy: what they copy; data-copied once clicked),
 *                #detail-content (dl.attr-list > .attr-row[data-attr] with button.copy-value[data-copy], .rel-card[data-rel]
 *                with a.rel-destination-link[data-entity] (the destination's list)
 *                .rel-item[data-id]), #detail-export (a[href=/api/object/export?id=…])
 *   Top bar      .view-tabs a[data-view], #refresh-btn, #export-btn
 *   Splitters    #split-sidebar #split-detail #split-bottom #split-bottom-lr
 *   Globals      window.__cdbLastRenderMs / __cdbLastRenderRows: time (ms, including
 *                layout) and row count of the last grid render.
 *
 * Persistence: localStorage["cdb.preferredView"] = "lab" on load; "cdb.dateZone" = "local" | "utc" (shared
 *   with the Inspector);
 *   localStorage["cdb.lab.cols.<Entity>"] = {order:[…], widths:{attr:px}, hidden:[…]};
 *   localStorage["cdb.lab.panes"] = {sidebar, detail, bottom, bottomLeft} in px.
 *   Malformed values are ignored (defaults are used instead).
 * URL: /lab?entity=&id=&sort=&order=&search=&searchAttr=&where=&limit=&offset=&relatedTo=&via= holds the
 *   view state; selecting a record pushes a history entry, other changes replace it.
 */
"use strict";

(() => {
  // ------------------------------------------------------------ Constants

  const PAGE_SIZES = [25, 50, 100, 200, 500];
  const DEFAULT_LIMIT = 100;
  const SEARCH_DEBOUNCE_MS = 250;
  const DRAG_THRESHOLD_PX = 5;
  const COL_WIDTH_MIN = 48;
  const COL_WIDTH_MAX = 1600;
  const DETAIL_REL_PREVIEW = 5;
  const SPLITTER_PX = 6;
  const LAYOUT_PADDING_PX = 8;
  const SPLITTER_KEY_STEP = 16;
  const JSON_HIGHLIGHT_LIMIT = 200000; // characters; larger JSON is shown unhighlighted
  const MAX_LIMIT = 500;
  /** How many more related records "Load more" fetches in the relationships pane. */
  const REL_PAGE = 100;
  /** Attribute types a grid cannot be sorted by (the server refuses them too); they go last by default. */
  const UNSORTABLE_TYPES = new Set(["Binary", "Transformable", "Undefined", "ObjectID"]);

  const STORAGE = {
    preferredView: "cdb.preferredView",
    panes: "cdb.lab.panes",
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
    return { sidebar: narrow ? 170 : 220, detail, bottom: low ? 110 : 240, bottomLeft: null };
  }
  const PANE_DEFAULT = paneDefaults();
  const CENTER_MIN_WIDTH = Math.max(PANE_MIN.gridWidth, 2 * PANE_MIN.subWidth + SPLITTER_PX);

  const NUMERIC_TYPES = new Set(["Integer 16", "Integer 32", "Integer 64", "Double", "Float", "Decimal"]);
  const FLOAT_TYPES = new Set(["Double", "Float"]);
  const NON_FINITE = new Set(["NaN", "Infinity", "-Infinity"]);
  const SHORT_TYPE = { "Integer 16": "Int16", "Integer 32": "Int32", "Integer 64": "Int64", Boolean: "Bool" };

  // ------------------------------------------------------------ DOM (selectors defined once)

  const dom = {};

  function cacheDom() {
    const byId = (id) => document.getElementById(id);
    Object.assign(dom, {
      layout: byId("lab-layout"),
      center: byId("center-col"),
      bottomRow: byId("bottom-row"),
      tabs: document.querySelectorAll(".view-tabs a[data-view]"),
      refreshBtn: byId("refresh-btn"),
      exportBtn: byId("export-btn"),
      modeChip: byId("mode-chip"),
      statusStore: byId("status-store"),
      modelLine: byId("model-line"),
      statusText: byId("status-text"),
      pulse: document.querySelector(".statusbar .pulse"),

      paneSidebar: byId("pane-sidebar"),
      entityList: byId("entity-list"),
      entityFilter: byId("entity-filter"),
      hideEmpty: byId("hide-empty"),
      sidebarState: byId("sidebar-state"),

      paneGrid: byId("pane-grid"),
      search: byId("grid-search"),
      searchAttr: byId("grid-search-attr"),
      pageSize: byId("grid-page-size"),
      prev: byId("grid-prev"),
      next: byId("grid-next"),
      first: byId("grid-first"),
      last: byId("grid-last"),
      scope: byId("grid-scope"),
      scopeText: byId("grid-scope-text"),
      scopeClear: byId("grid-scope-clear"),
      relActions: byId("rel-actions"),
      relLoadMore: byId("rel-load-more"),
      relShowAll: byId("rel-show-all"),
      pageIndicator: byId("grid-page-indicator"),
      pageInput: byId("grid-page-input"),
      columnsBtn: byId("grid-columns-btn"),
      gridExportBtn: byId("grid-export-btn"),
      gridQueryBtn: byId("grid-query-btn"),
      gridWhereBtn: byId("grid-where-btn"),
      gridSwiftBtn: byId("grid-swift-btn"),
      whereChip: byId("where-chip"),
      gridScroll: byId("grid-scroll"),
      grid: byId("grid"),
      gridHeadRow: byId("grid-head-row"),
      gridBody: byId("grid-body"),
      gridState: byId("grid-state"),

      paneRel: byId("pane-relationships"),
      relSelect: byId("rel-select"),
      relList: byId("rel-list"),
      relState: byId("rel-state"),

      paneContent: byId("pane-content"),
      contentSelect: byId("content-select"),
      contentMeta: byId("content-meta"),
      contentView: byId("content-view"),
      contentState: byId("content-state"),

      paneDetail: byId("pane-detail"),
      detailBody: byId("detail-body"),
      detailContent: byId("detail-content"),
      detailState: byId("detail-state"),
      detailExport: byId("detail-export"),
      breadcrumb: byId("breadcrumb"),

      dateZone: byId("date-zone"),
      splitters: document.querySelectorAll(".splitter[data-split]"),
      widthSheet: document.head.appendChild(document.createElement("style")),
    });
    dom.widthSheet.id = "grid-col-widths";
  }

  // ------------------------------------------------------------ State

  const state = {
    entities: [],
    entityByName: new Map(),
    entitiesError: null,
    entity: null, // the grid's entity
    sort: null,
    order: "asc",
    search: "",
    searchAttr: "",
    where: "", // a predicate in Core Data's syntax (predicate.js), ANDed with the search
    limit: DEFAULT_LIMIT,
    offset: 0,
    relatedTo: "", // with via: the grid lists only what this record reaches through that relationship
    via: "",
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
    dateZone: "local", // "local" | "utc": localStorage "cdb.dateZone", read at start and on a change
    refocusPane: null, // the pane a relationship was followed from with the keyboard, to keep focus in
    selectOnPage: null, // {offset, index}: PageDown/PageUp select the row at this position once that page is drawn
    storeKey: "", // /api/health's store description: the key of the "Name by" choices (shared with the Inspector)
    writable: false, // /api/health lists "write": cells edit in place, New and Delete exist
  };

  /**
   * What the grid looked like when the person came to it, so a refresh of the same list (Live or Refresh) marks
   * what changed since: rows new or changed on the page (and their changed cells), rows gone (kept as ghost
   * rows), count deltas in the sidebar. Moving to another list starts a new baseline.
   */
  const since = {
    key: null,
    /** id -> the row's attrs when first seen, and the row itself (for a ghost). */
    rows: new Map(),
    order: [],
    /** entity -> count when the list was first seen. */
    counts: null,
    countsKey: null,
  };

  function listKey() {
    return JSON.stringify([state.entity, state.search, state.searchAttr, state.where, state.sort, state.order, state.limit, state.offset,
      state.relatedTo, state.via]);
  }

  const inflight = { entities: null, grid: null, record: null, health: null, related: null };

  // ------------------------------------------------------------ Small helpers

  /** shared.js: invisible characters shown as markers, dates in the chosen zone (the same code as the Inspector's). */
  const { setVisibleText, visibleText, formatDate, readDateZone, repaintDates, wireDateZoneSelect, copyText,
    displayChoices, setDisplayChoices, displayName, el, markChange, countDelta, readHideEmpty, writeHideEmpty, shownEntities,
    entityTitle, formatCount, steppedOffset, recordJSON, ApiError, getJSON, storeAPI, viewURL } = window.CDBShared;

  const clamp = (value, min, max) => Math.max(min, Math.min(max, value));
  const isPlainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const isAbort = (err) => err && err.name === "AbortError";
  const shortType = (type) => SHORT_TYPE[type] || type || "";

  function storageGet(key) {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null; // storage disabled: behave as if nothing was saved
    }
  }

  function storageSet(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // quota exceeded or storage disabled: preferences are a convenience only
    }
  }

  function storageJSON(key) {
    const raw = storageGet(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw);
    } catch {
      return null;
    }
  }

  function restart(slot) {
    if (inflight[slot]) inflight[slot].abort();
    inflight[slot] = new AbortController();
    return inflight[slot];
  }

  // ------------------------------------------------------------ API

  /** The API through shared.js's one client, and the offline state it shows: no answer at all turns the status
   *  dot red and disables what needs the server; any answer (even an error) brings them back. */
  async function fetchJSON(path, signal) {
    try {
      const body = await getJSON(path, signal);
      setOffline(false);
      return body;
    } catch (err) {
      if (err instanceof ApiError) setOffline(err.status === 0);
      throw err;
    }
  }

  /**
   * While the server does not answer: the status dot turns red and the controls that need it are disabled.
   * The next answer (Refresh) brings everything back.
   */
  function setOffline(offline) {
    if ((document.body.dataset.offline === "true") === offline) return;
    if (offline) document.body.dataset.offline = "true"; else delete document.body.dataset.offline;
    dom.pulse.classList.toggle("is-offline", offline);
    for (const control of [dom.search, dom.searchAttr, dom.pageSize, dom.prev, dom.next, dom.first, dom.last, dom.pageInput, dom.columnsBtn, dom.exportBtn,
      dom.gridExportBtn, dom.gridQueryBtn, dom.gridWhereBtn, dom.gridSwiftBtn]) {
      control.disabled = offline || (control === dom.exportBtn && !state.selectedId)
        || ([dom.gridExportBtn, dom.gridQueryBtn, dom.gridWhereBtn, dom.gridSwiftBtn].includes(control) && !state.entity);
    }
    if (!offline) updatePager();
    if (offline) dom.statusText.textContent = "The server does not answer: press Refresh when it is back.";
  }

  const api = {
    health: (signal) => fetchJSON("/api/health", signal),
    entities: (signal) => fetchJSON("/api/entities", signal),
    records(entity, query, signal) {
      const params = new URLSearchParams({ limit: String(query.limit), offset: String(query.offset) });
      if (query.sort) {
        params.set("sort", query.sort);
        params.set("order", query.order);
      }
      if (query.search) {
        params.set("search", query.search);
        if (query.searchAttr) params.set("searchAttr", query.searchAttr);
      }
      if (query.where) params.set("where", query.where);
      if (query.relatedTo) {
        params.set("relatedTo", query.relatedTo);
        params.set("via", query.via);
      }
      return fetchJSON(`/api/entities/${encodeURIComponent(entity)}?${params}`, signal);
    },
    related: (id, rel, offset, limit, signal) =>
      fetchJSON(`/api/object/related?${new URLSearchParams({ id, rel, offset: String(offset), limit: String(limit) })}`, signal),
    position: (entity, id, limit, signal) =>
      fetchJSON(`/api/entities/${encodeURIComponent(entity)}/position?${new URLSearchParams({ id, limit: String(limit) })}`, signal),
    object: (id, signal) => fetchJSON(`/api/object?${new URLSearchParams({ id })}`, signal),
    exportURL: (id) => storeAPI(`/api/object/export?${new URLSearchParams({ id })}`),
  };

  // ------------------------------------------------------------ Pane states

  /** Shows a loading / empty / error message where a pane's data would be. */
  function setPaneState(pane, stateEl, kind, message, status) {
    pane.dataset.state = kind;
    stateEl.className = "pane-state";
    stateEl.replaceChildren();
    if (kind === "ready") return;
    if (kind === "loading") stateEl.classList.add("is-loading");
    if (kind === "error") stateEl.classList.add("is-error");
    stateEl.append(el("span", "state-message", message));
    if (kind === "error" && status) stateEl.append(el("span", "state-status", `HTTP ${status}`));
  }

  function showError(pane, stateEl, err) {
    setPaneState(pane, stateEl, "error", err.message || String(err), err.status);
  }

  // ------------------------------------------------------------ Value rendering

  /**
   * How a value is shown, by its attribute type (docs/API.md "Values"): the text and
   * the classes that give it its colour. Strings can stand for big integers, Decimals
   * and non-finite doubles, so the type decides, not the JSON kind.
   */
  function describeValue(value, type) {
    if (value === null || value === undefined) return { text: "null", classes: ["val-null"] };
    if (isPlainObject(value)) {
      if (value.type === "binary") return { text: `‹binary, ${formatCount(value.bytes)} bytes›`, classes: ["val-binary"] };
      if (value.type === "error") {
        const message = typeof value.message === "string" ? value.message : "undecodable value";
        return { text: `⚠ ${message}`, classes: ["val-error"], title: message };
      }
      return { text: JSON.stringify(value), classes: [] };
    }
    if (typeof value === "boolean") return { text: String(value), classes: [value ? "val-true" : "val-false"] };
    const base = NUMERIC_TYPES.has(type) ? ["col-numeric"] : type === "Date" ? ["col-date"] : [];
    if (type === "Date" && typeof value === "string") {
      // Local time or UTC (the top bar's "Dates" choice), the zone named in the text; the title gives the
      // other zone and the stored value.
      const shown = formatDate(value, state.dateZone);
      if (shown) return { text: shown.text, classes: base, title: shown.title, iso: value };
    }
    if (typeof value === "string") {
      if (FLOAT_TYPES.has(type) && NON_FINITE.has(value)) return { text: value, classes: [...base, "val-nonfinite"] };
      if (value === "") return { text: "", classes: [...base, "val-empty"] };
      return { text: value, classes: base };
    }
    if (typeof value === "number") return { text: String(value), classes: base };
    return { text: JSON.stringify(value), classes: base };
  }

  /** A Binary or Transformable value (the API sends its size, not its bytes). */
  function isBinary(value) {
    return isPlainObject(value) && value.type === "binary";
  }

  function paintValue(node, value, type) {
    const shown = describeValue(value, type);
    setVisibleText(node, shown.text);
    if (shown.classes.length) node.classList.add(...shown.classes);
    if (shown.title) node.title = visibleText(shown.title);
    else if (shown.text.length > 40) node.title = visibleText(shown.text);
    if (shown.iso) node.dataset.iso = shown.iso;
    return shown;
  }

  function attributesOf(entityName) {
    const entity = state.entityByName.get(entityName);
    return entity && Array.isArray(entity.attributes) ? entity.attributes : [];
  }

  /** The attributes of a fetched record: the model's (with types) plus any extra keys. */
  function recordAttributes(record) {
    const known = attributesOf(record.entity);
    const attrs = isPlainObject(record.attrs) ? record.attrs : {};
    const names = new Set(known.map((a) => a.name));
    const extra = Object.keys(attrs).filter((n) => !names.has(n)).sort().map((name) => ({ name, type: "" }));
    return [...known, ...extra];
  }

  // ------------------------------------------------------------ Column preferences

  /** Identifiers: UUID attributes and names that say they hold one (`id`, `uuid`, `identifier`, `productId`,
   *  `cloudID`, `owner_id`, `remoteUUID`, `albumGUID`). Read rarely, wide, alike: they go last by default. */
  function isIdentifierLike(attribute) {
    const name = attribute.name;
    return attribute.type === "UUID" || /^(id|uuid|guid|identifier)$/i.test(name)
      || /(Id|ID|_id|Identifier|UUID|Uuid|GUID|Guid)$/.test(name);
  }

  /** The display attribute first, then the rest in the model's order, identifiers after them, bytes (Binary,
   *  Transformable) last. */
  function defaultCols(entityName) {
    const entity = state.entityByName.get(entityName);
    const first = entity && entity.summaryAttribute;
    const attributes = attributesOf(entityName);
    const rank = (a) => (a.name === first ? 0 : UNSORTABLE_TYPES.has(a.type) ? 3 : isIdentifierLike(a) ? 2 : 1);
    const order = attributes.map((a, index) => ({ a, index }))
      .sort((x, y) => rank(x.a) - rank(y.a) || x.index - y.index)
      .map(({ a }) => a.name);
    return { order, widths: {}, hidden: [] };
  }

  /** Reads cdb.lab.cols.<Entity>; anything malformed or unknown falls back to defaults. */
  function loadCols(entityName) {
    const prefs = defaultCols(entityName);
    const known = new Set(prefs.order);
    const raw = storageJSON(STORAGE.cols(entityName));
    if (!isPlainObject(raw)) return prefs;
    if (Array.isArray(raw.order)) {
      const order = [];
      for (const name of raw.order) {
        if (typeof name === "string" && known.has(name) && !order.includes(name)) order.push(name);
      }
      for (const name of prefs.order) if (!order.includes(name)) order.push(name);
      prefs.order = order;
    }
    if (isPlainObject(raw.widths)) {
      for (const [name, width] of Object.entries(raw.widths)) {
        if (known.has(name) && typeof width === "number" && Number.isFinite(width)) {
          prefs.widths[name] = clamp(Math.round(width), COL_WIDTH_MIN, COL_WIDTH_MAX);
        }
      }
    }
    if (Array.isArray(raw.hidden)) {
      prefs.hidden = [...new Set(raw.hidden.filter((n) => typeof n === "string" && known.has(n)))];
    }
    return prefs;
  }

  function saveCols() {
    if (!state.entity || !state.cols) return;
    storageSet(STORAGE.cols(state.entity), JSON.stringify(state.cols));
  }

  function visibleColumns() {
    if (!state.cols) return [];
    const types = new Map(attributesOf(state.entity).map((a) => [a.name, a.type]));
    const hidden = new Set(state.cols.hidden);
    return state.cols.order.filter((n) => !hidden.has(n) && types.has(n)).map((name) => ({ name, type: types.get(name) }));
  }

  // ------------------------------------------------------------ URL state

  function readURL() {
    const params = new URLSearchParams(window.location.search);
    const limit = Number(params.get("limit"));
    const offset = Number(params.get("offset"));
    return {
      entity: params.get("entity") || null,
      id: params.get("id") || null,
      sort: params.get("sort") || null,
      order: params.get("order") === "desc" ? "desc" : "asc",
      search: params.get("search") || "",
      searchAttr: params.get("searchAttr") || "",
      where: params.get("where") || "",
      // Any page size the server accepts is kept (limit=30 stays 30); the server caps it at 500.
      limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_LIMIT) : DEFAULT_LIMIT,
      offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
      relatedTo: params.get("relatedTo") || "",
      via: params.get("via") || "",
    };
  }

  function stateURL() {
    const params = new URLSearchParams();
    if (state.entity) params.set("entity", state.entity);
    if (state.selectedId) params.set("id", state.selectedId);
    if (state.sort) {
      params.set("sort", state.sort);
      params.set("order", state.order);
    }
    if (state.search) params.set("search", state.search);
    if (state.searchAttr) params.set("searchAttr", state.searchAttr);
    if (state.where) params.set("where", state.where);
    if (state.limit !== DEFAULT_LIMIT) params.set("limit", String(state.limit));
    if (state.offset) params.set("offset", String(state.offset));
    if (state.relatedTo) {
      params.set("relatedTo", state.relatedTo);
      params.set("via", state.via);
    }
    return viewURL(window.location.pathname, params);
  }

  /** mode "push" adds a history entry (user-picked records, entities); "replace" does not. */
  function syncURL(mode) {
    const url = stateURL();
    if (url === window.location.pathname + window.location.search) return;
    if (mode === "push") window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }

  // ------------------------------------------------------------ Health / status bar

  async function loadHealth() {
    const ctl = restart("health");
    try {
      const health = await api.health(ctl.signal);
      dom.pulse.classList.remove("is-offline");
      dom.statusStore.textContent = typeof health.store === "string" ? health.store : "";
      dom.statusStore.title = dom.statusStore.textContent;
      // The key of this store's "Name by" choices: the same text the Inspector uses.
      state.storeKey = dom.statusStore.textContent;
      // Where the model came from, as the Inspector says it (a warning when it was guessed from the tables).
      window.CDBShared.showModelLine(dom.modelLine, health.model);
      if (state.record) renderDetail(state.record);  // names may follow this store's choices now
      dom.modeChip.textContent = health.readOnly === false ? "read-write" : "read-only";
    } catch (err) {
      if (isAbort(err)) return;
      dom.pulse.classList.add("is-offline");
      dom.statusStore.textContent = `Server: ${err.message}`;
    }
  }

  /** The list in the grid for "Export" (export.js): the same parameters as its pages, without paging. */
  function describeExport() {
    if (!state.entity) return null;
    return {
      entity: state.entity,
      params: {
        search: state.search,
        searchAttr: state.searchAttr,
        where: state.where,
        sort: state.sort || "",
        order: state.sort && state.order === "desc" ? "desc" : "",
        relatedTo: state.relatedTo,
        via: state.relatedTo ? state.via : "",
      },
      total: state.total,
    };
  }

  function updateStatus() {
    dom.gridExportBtn.disabled = !state.entity || document.body.dataset.offline === "true";
    dom.gridQueryBtn.disabled = dom.gridExportBtn.disabled;
    dom.gridWhereBtn.disabled = dom.gridExportBtn.disabled;
    dom.gridSwiftBtn.disabled = dom.gridExportBtn.disabled;
    if (!state.entity) {
      dom.statusText.textContent = "";
      return;
    }
    const parts = [`${state.entity}: ${formatCount(state.total)} record${state.total === 1 ? "" : "s"}`];
    if (state.search) parts.push(`matching “${state.search}”`);
    if (state.where) parts.push("filtered");
    if (state.sort) parts.push(`sorted by ${state.sort} ${state.order === "asc" ? "▲" : "▼"}`);
    if (typeof window.__cdbLastRenderMs === "number") {
      parts.push(`${window.__cdbLastRenderRows} rows drawn in ${window.__cdbLastRenderMs.toFixed(1)} ms`);
    }
    setVisibleText(dom.statusText, parts.join(" · ")); // it may quote the search text
  }

  // ------------------------------------------------------------ Sidebar

  async function loadEntities() {
    const ctl = restart("entities");
    if (!state.entities.length) setPaneState(dom.paneSidebar, dom.sidebarState, "loading", "Loading entities…");
    try {
      const list = await api.entities(ctl.signal);
      if (!Array.isArray(list)) throw new ApiError("Unexpected /api/entities answer", 0);
      state.entities = list.filter((e) => isPlainObject(e) && typeof e.name === "string");
      state.entityByName = new Map(state.entities.map((e) => [e.name, e]));
      state.entitiesError = null;
      renderSidebar();
    } catch (err) {
      if (isAbort(err)) throw err;
      state.entitiesError = err;
      dom.entityList.replaceChildren();
      showError(dom.paneSidebar, dom.sidebarState, err);
    }
  }

  function renderSidebar() {
    // Counts are compared with those of when the person came to the list in the grid (taken with its first rows,
    // or here when the entities arrive after them).
    if (since.countsKey === listKey() && since.counts && since.counts.size === 0) {
      since.counts = new Map(state.entities.map((entity) => [entity.name, entity.count]));
    }
    const frag = document.createDocumentFragment();
    // The same tree, filter and "Hide empty" as the Inspector's sidebar (shared.js); the list is one tab stop.
    const shown = shownEntities(state.entities, { filter: dom.entityFilter.value, hideEmpty: dom.hideEmpty.checked, selected: state.entity });
    for (const { entity, depth } of shown) {
      const li = el("li");
      li.dataset.entity = entity.name;
      li.dataset.depth = String(depth);
      li.title = visibleText(entityTitle(entity));
      if (depth > 0) {
        li.classList.add("is-sub");
        li.style.paddingLeft = `${8 + 14 * depth}px`;
      }
      li.append(el("span", "name", entity.name));
      if (entity.abstract) {
        li.dataset.abstract = "true";
        li.append(el("span", "entity-badge", "abstract"));
      }
      li.append(el("span", "count", Number.isFinite(entity.count) ? entity.count.toLocaleString() : ""));
      const before = since.counts && since.countsKey === listKey() ? since.counts.get(entity.name) : undefined;
      if (Number.isFinite(before) && Number.isFinite(entity.count) && before !== entity.count) {
        const delta = entity.count - before;
        li.dataset.delta = String(delta);
        li.append(countDelta(delta));
      }
      frag.append(li);
    }
    dom.entityList.replaceChildren(frag);
    if (!state.entities.length) setPaneState(dom.paneSidebar, dom.sidebarState, "empty", "The store has no entities.");
    else if (!shown.length) setPaneState(dom.paneSidebar, dom.sidebarState, "empty", "No entity matches the filter.");
    else setPaneState(dom.paneSidebar, dom.sidebarState, "ready");
    markActiveEntity();
  }

  function markActiveEntity() {
    for (const li of dom.entityList.children) {
      const active = li.dataset.entity === state.entity;
      li.classList.toggle("active", active);
      if (active) li.setAttribute("aria-current", "true");
      else li.removeAttribute("aria-current");
    }
  }

  function onSidebarClick(event) {
    const li = event.target.closest("li[data-entity]");
    if (!li) return;
    event.preventDefault();
    selectEntity(li.dataset.entity);
  }


  function selectEntity(name) {
    if (name === state.entity) return;
    closeMenu();
    setGridEntity(name);
    state.sort = null;
    state.order = "asc";
    state.search = "";
    state.searchAttr = "";
    state.where = "";
    state.offset = 0;
    state.relatedTo = "";
    state.via = "";
    state.selectedId = null;
    syncControls();
    syncURL("push");
    loadGrid();
    loadRecord();
  }

  function setGridEntity(name) {
    state.entity = name;
    state.cols = loadCols(name);
    document.title = name ? `${name} · CoreDataBrowser Lab` : "CoreDataBrowser · Lab";
    populateSearchAttr();
    markActiveEntity();
  }

  // ------------------------------------------------------------ Toolbar

  function populateSearchAttr() {
    const strings = attributesOf(state.entity).filter((a) => a.type === "String");
    const options = [el("option", null, "All text")];
    options[0].value = "";
    for (const attr of strings) {
      const option = el("option", null, attr.name);
      option.value = attr.name;
      options.push(option);
    }
    dom.searchAttr.replaceChildren(...options);
  }

  function syncControls() {
    dom.search.value = state.search;
    dom.searchAttr.value = state.searchAttr;
    const limit = String(state.limit);
    if (![...dom.pageSize.options].some((o) => o.value === limit)) {
      const option = el("option", null, limit);
      option.value = limit;
      dom.pageSize.append(option);
    }
    dom.pageSize.value = limit;
    renderScope();
  }

  /** The "related to" chip over the grid, with a button that lists every record again. */
  function renderScope() {
    if (!state.relatedTo) {
      dom.scope.hidden = true;
      return;
    }
    window.CDBShared.showScope(dom.scopeText, state.relatedTo, state.via, state.storeKey);
    dom.scope.title = state.relatedTo;
    dom.scope.hidden = false;
  }

  function isSortable(name) {
    const attribute = attributesOf(state.entity).find((a) => a.name === name);
    return !attribute || !UNSORTABLE_TYPES.has(attribute.type);
  }

  let searchTimer = 0;

  function applySearch() {
    clearTimeout(searchTimer);
    const value = dom.search.value;
    if (value === state.search) return;
    state.search = value;
    state.offset = 0;
    syncURL("replace");
    loadGrid();
  }

  function wireToolbar() {
    dom.search.addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(applySearch, SEARCH_DEBOUNCE_MS);
    });
    dom.search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") applySearch();
    });
    dom.searchAttr.addEventListener("change", () => {
      state.searchAttr = dom.searchAttr.value;
      state.offset = 0;
      syncURL("replace");
      if (state.search) loadGrid();
    });
    dom.pageSize.addEventListener("change", () => {
      const limit = Number(dom.pageSize.value);
      if (!PAGE_SIZES.includes(limit)) return;
      state.limit = limit;
      state.offset = Math.floor(state.offset / limit) * limit;
      syncURL("replace");
      loadGrid();
    });
    dom.prev.addEventListener("click", () => goToOffset(state.offset - state.limit));
    dom.next.addEventListener("click", () => goToOffset(state.offset + state.limit));
    dom.first.addEventListener("click", () => goToOffset(0));
    dom.last.addEventListener("click", () => goToOffset(lastPageOffset()));
    window.CDBShared.wirePageInput(dom.pageInput, () => ({ limit: state.limit, total: state.total }), goToOffset);
    dom.scopeClear.addEventListener("click", () => {
      state.relatedTo = "";
      state.via = "";
      state.offset = 0;
      renderScope();
      syncURL("replace");
      loadGrid();
    });
    window.CDBExport.attach(dom.gridExportBtn, describeExport);
    wireEditing();
    const describePage = () => {
      const list = describeExport();
      return list && { entity: list.entity, params: { ...list.params, limit: state.limit, offset: state.offset } };
    };
    window.CDBQuery.attach(dom.gridQueryBtn, describePage);
    window.CDBPredicate.attach({
      button: dom.gridWhereBtn,
      chip: dom.whereChip,
      describe: () => state.entity && { entity: state.entity, where: state.where, storeKey: state.storeKey, params: describePage().params },
      entities: () => state.entities,
      apply: (where) => {
        if (where === state.where) return;
        state.where = where;
        state.offset = 0;
        syncURL("push");
        loadGrid();
      },
    });
    window.CDBSwift.attach(dom.gridSwiftBtn);
    dom.columnsBtn.addEventListener("click", () => {
      if (openMenuState && openMenuState.name === "columns") closeMenu();
      else openColumnsMenu();
    });
    dom.refreshBtn.addEventListener("click", refresh);
    window.CDBLive.attach(document.getElementById("live-toggle"), refresh);
    dom.exportBtn.addEventListener("click", () => {
      if (state.selectedId) dom.detailExport.click();
    });
    for (const tab of dom.tabs) {
      tab.addEventListener("click", () => storageSet(STORAGE.preferredView, tab.dataset.view));
    }
  }

  function goToOffset(offset) {
    const next = Math.max(0, offset);
    if (next === state.offset || (next >= state.total && next > 0)) return;
    state.offset = next;
    syncURL("replace");
    loadGrid();
  }

  function lastPageOffset() {
    return window.CDBShared.lastPageOffset(state.total, state.limit);
  }

  function updatePager() {
    const count = state.rows.length;
    const n = (value) => value.toLocaleString();
    dom.pageIndicator.textContent = count
      ? `${n(state.offset + 1)}–${n(state.offset + count)} of ${n(state.total)}`
      : `0 of ${n(state.total)}`;
    dom.prev.disabled = state.offset <= 0;
    dom.first.disabled = state.offset <= 0;
    dom.next.disabled = state.offset + state.limit >= state.total;
    dom.last.disabled = state.offset >= lastPageOffset();
    dom.pageInput.disabled = state.total <= state.limit;
    dom.pageInput.placeholder = `/ ${formatCount(Math.max(1, Math.ceil(state.total / state.limit)))}`;
  }

  // ------------------------------------------------------------ Grid: data

  async function loadGrid() {
    const ctl = restart("grid");
    const entity = state.entity;
    if (!entity) {
      clearGrid();
      const message = state.entitiesError ? state.entitiesError : { message: "No entity to show." };
      if (state.entitiesError) showError(dom.paneGrid, dom.gridState, message);
      else setPaneState(dom.paneGrid, dom.gridState, "empty", message.message);
      dom.gridScroll.dataset.state = dom.paneGrid.dataset.state;
      return;
    }
    setPaneState(dom.paneGrid, dom.gridState, "loading", `Loading ${entity}…`);
    dom.gridScroll.dataset.state = "loading";
    dom.grid.setAttribute("aria-busy", "true");
    updateSortIndicators();
    try {
      const page = await api.records(entity, state, ctl.signal);
      if (!isPlainObject(page) || !Array.isArray(page.rows)) throw new ApiError("Unexpected records answer", 0);
      state.total = Number(page.total) || 0;
      state.rows = page.rows;
      if (!state.rows.length && state.offset > 0 && state.total > 0) {
        // The page is past the end (records went away, or a stale URL): show the last one.
        state.offset = Math.floor((state.total - 1) / state.limit) * state.limit;
        syncURL("replace");
        loadGrid();
        return;
      }
      renderGrid();
      window.CDBQuery.pageShown();
      window.CDBPredicate.viewChanged();
    } catch (err) {
      if (isAbort(err)) return;
      clearGrid();
      renderHeader(visibleColumns());
      showError(dom.paneGrid, dom.gridState, err);
      window.CDBPredicate.viewChanged(); // a filter the store refuses stays on screen, to edit or clear
      dom.gridScroll.dataset.state = "error";
      updatePager();
      updateStatus();
    } finally {
      if (inflight.grid === ctl) dom.grid.removeAttribute("aria-busy");
    }
  }

  function clearGrid() {
    state.rows = [];
    state.total = 0;
    state.rowById = new Map();
    dom.gridHeadRow.replaceChildren();
    dom.gridBody.replaceChildren();
    dom.grid.setAttribute("aria-rowcount", "0");
  }

  // ------------------------------------------------------------ Grid: rendering

  /** Renders the whole page in one pass. Only data, sort, filter, page or column changes call this. */
  function renderGrid() {
    const started = performance.now();
    const columns = visibleColumns();
    renderHeader(columns);
    const frag = document.createDocumentFragment();
    const rowById = new Map();
    state.rows.forEach((row, index) => {
      const tr = buildRow(row, index, columns);
      rowById.set(tr.dataset.id, tr);
      frag.append(tr);
    });
    markChangesSinceYouLooked(frag, columns);
    dom.gridBody.replaceChildren(frag);
    state.rowById = rowById;
    paintColumnWidths();
    dom.grid.setAttribute("aria-rowcount", String(state.total));
    void dom.grid.offsetHeight; // force layout so the measured time includes it
    window.__cdbLastRenderMs = performance.now() - started;
    window.__cdbLastRenderRows = state.rows.length;

    if (!state.rows.length) {
      const message = state.search || state.where
        ? `No ${state.entity} records match ${[state.search ? `“${state.search}”` : "", state.where ? "the filter" : ""].filter(Boolean).join(" and ")}.`
        : `${state.entity} has no records.`;
      setPaneState(dom.paneGrid, dom.gridState, "empty", message);
    } else if (!columns.length) {
      setPaneState(dom.paneGrid, dom.gridState, "empty", "Every column is hidden. Use Columns ▾ to show some.");
    } else {
      setPaneState(dom.paneGrid, dom.gridState, "ready");
    }
    dom.gridScroll.dataset.state = dom.paneGrid.dataset.state;
    markSelectedRow({ scroll: true });
    selectKeptRow();
    updatePager();
    updateStatus();
  }

  /** Marks, in the rows just built, what changed since the list was first drawn (see `since`); on a new list,
   *  takes the baseline instead. Ghost rows have no data-id: selection, keys and clicks pass them by. */
  function markChangesSinceYouLooked(frag, columns) {
    const key = listKey();
    if (since.key !== key) {
      since.key = key;
      since.countsKey = key;
      since.counts = new Map(state.entities.map((entity) => [entity.name, entity.count]));
      since.order = state.rows.map((row) => String(row.id));
      since.rows = new Map(state.rows.map((row) => [String(row.id), { attrs: isPlainObject(row.attrs) ? row.attrs : {}, row }]));
      // Deltas belonged to the list the person left.
      if (dom.entityList.querySelector("[data-delta]")) renderSidebar();
      return;
    }
    const shown = new Set();
    const rowsNow = new Map(state.rows.map((row) => [String(row.id), row]));
    for (const tr of frag.querySelectorAll("tr[data-id]")) {
      shown.add(tr.dataset.id);
      const before = since.rows.get(tr.dataset.id);
      if (!before) {
        markChange(tr, "created", "New since you looked");
        continue;
      }
      const now = rowsNow.get(tr.dataset.id);
      const attrs = now && isPlainObject(now.attrs) ? now.attrs : {};
      let changed = false;
      for (const td of tr.querySelectorAll("td[data-col]")) {
        if (JSON.stringify(attrs[td.dataset.col]) !== JSON.stringify(before.attrs[td.dataset.col])) {
          markChange(td, "changed", `Changed since you looked (was ${JSON.stringify(before.attrs[td.dataset.col]) ?? "absent"})`);
          changed = true;
        }
      }
      if (changed || JSON.stringify(attrs) !== JSON.stringify(before.attrs)) markChange(tr, "changed", "Changed since you looked");
    }
    for (const id of since.order) {
      if (shown.has(id)) continue;
      const gone = since.rows.get(id);
      const ghost = el("tr", "row-ghost");
      ghost.dataset.ghostId = id;
      ghost.setAttribute("aria-disabled", "true");
      ghost.append(el("td", "col-select", "–"));
      columns.forEach((column, index) => {
        const td = el("td");
        td.dataset.col = column.name;
        if (index === 0) td.textContent = `${nameOf(gone.row)} · no longer in this list`;
        ghost.append(td);
      });
      markChange(ghost, "deleted", "Gone since you looked (deleted, or moved out of this list)");
      frag.append(ghost);
    }
  }

  function renderHeader(columns) {
    const frag = document.createDocumentFragment();
    const gutter = el("th", "col-select", "#");
    gutter.scope = "col";
    frag.append(gutter);
    // One tab stop for the whole header row (roving tabindex): the column focused last, else the first; the
    // arrow keys move between columns (onHeaderKeyDown).
    const current = columns.some((c) => c.name === state.headerFocus) ? state.headerFocus : columns[0]?.name;
    for (const column of columns) {
      const th = el("th");
      th.scope = "col";
      th.tabIndex = column.name === current ? 0 : -1;
      th.dataset.col = column.name;
      th.title = `${column.name}: ${column.type}. Click to sort, drag to reorder, drag the edge to resize, right-click for more.`;
      th.append(
        el("span", "th-label", column.name),
        el("span", "th-type", shortType(column.type)),
        el("span", "th-sort"),
      );
      const grip = el("span", "col-resize");
      grip.setAttribute("aria-hidden", "true");
      th.append(grip);
      frag.append(th);
    }
    dom.gridHeadRow.replaceChildren(frag);
    updateSortIndicators();
  }

  function updateSortIndicators() {
    for (const th of dom.gridHeadRow.querySelectorAll("th[data-col]")) {
      const sorted = th.dataset.col === state.sort;
      th.querySelector(".th-sort").textContent = sorted ? (state.order === "asc" ? "▲" : "▼") : "";
      th.setAttribute("aria-sort", sorted ? (state.order === "asc" ? "ascending" : "descending") : "none");
    }
  }

  function buildRow(row, index, columns) {
    const tr = el("tr");
    tr.dataset.id = String(row.id);
    tr.dataset.entity = String(row.entity ?? state.entity);
    tr.setAttribute("aria-rowindex", String(state.offset + index + 1));
    const gutter = el("td", "col-select", state.offset + index + 1);
    if (row.entity && row.entity !== state.entity) {
      // A sub-entity's row in its parent's (or an abstract entity's) list says which entity it is, as the
      // Inspector's rows do.
      tr.classList.add("row-sub");
      gutter.title = visibleText(`${row.entity} (a sub-entity of ${state.entity})`);
      gutter.prepend(el("span", "row-entity", row.entity), " ");
    }
    tr.append(gutter);
    const attrs = isPlainObject(row.attrs) ? row.attrs : {};
    for (const column of columns) {
      const td = el("td");
      td.dataset.col = column.name;
      const value = attrs[column.name];
      if (window.CDBShared.isLongValue(value)) {
        // A cell shows one line: its start is enough (a 187,000-character value would cost layout and a tooltip
        // as long); the detail pane and the content viewer hold it whole.
        setVisibleText(td, `${value.slice(0, 500)}…`);
        td.title = `${formatCount(value.length)} characters: the detail pane and the content viewer show it whole`;
      } else {
        paintValue(td, value, column.type);
      }
      if (isBinary(value)) window.CDBContent.lazySummary(td, String(row.id), column.name);
      else window.CDBContent.markURL(td, value, column.type);
      tr.append(td);
    }
    return tr;
  }

  /**
   * User-set widths live in one generated style sheet (one nth-child rule per sized column), so a
   * resize drag restyles the column without touching any row. Chrome honours max-width on table
   * cells, which is what lets a column become narrower than its content.
   */
  function paintColumnWidths() {
    const widths = state.cols ? state.cols.widths : {};
    const rules = [];
    dom.gridHeadRow.querySelectorAll("th[data-col]").forEach((th) => {
      const width = widths[th.dataset.col];
      if (typeof width !== "number") return;
      const nth = th.cellIndex + 1;
      rules.push(`#grid tr > :nth-child(${nth}) { width: ${width}px; min-width: ${width}px; max-width: ${width}px; }`);
    });
    dom.widthSheet.textContent = rules.join("\n");
  }

  // ------------------------------------------------------------ Grid: selection

  function markSelectedRow({ scroll = false } = {}) {
    const previous = dom.gridBody.querySelector("tr.is-selected");
    const current = state.selectedId ? state.rowById.get(state.selectedId) : null;
    if (previous && previous !== current) {
      previous.classList.remove("is-selected");
      previous.removeAttribute("aria-selected");
    }
    if (current) {
      current.classList.add("is-selected");
      current.setAttribute("aria-selected", "true");
      if (scroll) scrollRowIntoView(current);
    }
  }

  /** Keeps a row visible below the sticky header. */
  function scrollRowIntoView(tr) {
    const scroller = dom.gridScroll;
    const headerHeight = dom.gridHeadRow.offsetHeight;
    const top = dom.grid.offsetTop + tr.offsetTop;
    const bottom = top + tr.offsetHeight;
    if (top - headerHeight < scroller.scrollTop) scroller.scrollTop = top - headerHeight;
    else if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight;
  }

  /**
   * Shows a record in detail + sub-panels. The grid only changes its selected-row
   * class; the grid's entity never changes here (plan v1.1 decision).
   */
  function selectRecord(id, { history = "push", scroll = false, keepTrail = false } = {}) {
    if (!id || id === state.selectedId) return;
    if (!keepTrail) state.trail = [];
    state.selectedId = id;
    markSelectedRow({ scroll });
    syncURL(history);
    loadRecord();
  }

  function moveSelection(delta) {
    const rows = dom.gridBody.rows;
    if (!rows.length) return;
    const current = state.selectedId ? state.rowById.get(state.selectedId) : null;
    const index = current ? current.sectionRowIndex : -1;
    let next;
    if (delta === Infinity) next = rows.length - 1;
    else if (delta === -Infinity) next = 0;
    else if (index < 0) next = delta > 0 ? 0 : rows.length - 1;
    else next = clamp(index + delta, 0, rows.length - 1);
    if (next === index) return;
    // Arrow keys replace the history entry: one Back undoes a whole keyboard walk.
    selectRecord(rows[next].dataset.id, { history: "replace", scroll: true });
  }

  function onGridKeyDown(event) {
    if (event.target.closest("thead") || event.altKey) return;
    const moves = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity };
    if ((event.key === "PageDown" || event.key === "PageUp") && !event.metaKey) {
      event.preventDefault();
      turnPage(event.key === "PageDown" ? 1 : -1);
    } else if (event.key in moves && !event.metaKey) {
      event.preventDefault();
      moveSelection(moves[event.key]);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!state.selectedId) moveSelection(1);
      else focusDetail();
    } else if (state.selectedId && (event.key === "ContextMenu" || (event.shiftKey && event.key === "F10"))) {
      // The keyboard's way to the copy menu: for the selected row.
      event.preventDefault();
      const tr = state.rowById.get(state.selectedId);
      const rect = (tr ?? dom.gridScroll).getBoundingClientRect();
      openCellMenu(state.selectedId, null, rect.left + 40, rect.bottom, dom.gridScroll);
    } else if (state.selectedId && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "c"
               && !window.getSelection()?.toString()) {
      // Cmd/Ctrl+C with a row selected and no text selected: the row's object ID.
      event.preventDefault();
      const row = rowData(state.selectedId);
      if (row) copyText(String(row.id));
    }
  }

  /**
   * PageDown / PageUp: the next or previous page (as in the Inspector). A selected row's place is kept: the row at
   * the same position on the new page is selected, so a keyboard walk goes on; past the last page (or before the
   * first) the selection goes to the last (first) row instead.
   */
  function turnPage(direction) {
    const rows = [...dom.gridBody.querySelectorAll("tr[data-id]")];
    const current = state.selectedId ? state.rowById.get(state.selectedId) : null;
    const index = current ? rows.indexOf(current) : -1;
    const offset = steppedOffset(state.offset, direction, state.limit, state.total);
    if (offset === state.offset) {
      if (index >= 0) moveSelection(direction > 0 ? Infinity : -Infinity);
      return;
    }
    state.selectOnPage = index >= 0 ? { offset, index } : null;
    goToOffset(offset);
  }

  /** After turnPage: selects the row at the kept position once its page is drawn. */
  function selectKeptRow() {
    const kept = state.selectOnPage;
    state.selectOnPage = null;
    if (!kept || kept.offset !== state.offset) return;
    const rows = dom.gridBody.querySelectorAll("tr[data-id]");
    if (rows.length) selectRecord(rows[Math.min(kept.index, rows.length - 1)].dataset.id, { history: "replace", scroll: true });
  }

  // ------------------------------------------------------------ Editing (issue 18: only when the server writes)

  /** Edits one cell of the grid: reads the record's version first (a write names it), then stages on Enter. */
  async function editCell(tr, td) {
    const attribute = attributesOf(tr.dataset.entity).find((a) => a.name === td.dataset.col);
    if (!attribute) return;
    let record;
    try {
      record = await api.object(tr.dataset.id);
    } catch (err) {
      setVisibleText(dom.statusText, `Cannot edit: ${err.message}`);
      return;
    }
    const value = isPlainObject(record.attrs) ? record.attrs[attribute.name] ?? null : null;
    window.CDBRecordEditing.editCell(td, { id: record.id, entity: record.entity, version: record.version }, attribute, value);
  }

  function wireEditing() {
    const E = window.CDBEditing;
    E.writable().then((writable) => {
      state.writable = writable;
      if (!writable) return;
      const create = el("button", "gt-btn new-record", "+ New");
      create.type = "button";
      create.id = "new-record-btn";
      create.title = "Create a record of this entity";
      create.addEventListener("click", () => {
        const schema = state.entityByName.get(state.entity);
        if (!schema || schema.isAbstract) return;
        window.CDBRecordEditing.openCreate(state.entity, schema, (created) => {
          loadGrid();
          selectRecord(created.id);
        });
      });
      dom.gridExportBtn.after(create);
      const remove = el("button", "gt-btn delete-record", "Delete…");
      remove.type = "button";
      remove.id = "delete-record-btn";
      remove.title = "Delete the selected record";
      remove.addEventListener("click", () => {
        if (!state.record) return;
        E.confirmDelete(state.record, () => {
          state.selectedId = null;
          syncURL("replace");
          loadGrid();
          loadRecord();
        });
      });
      create.after(remove);
    });
    E.onSaved(() => { loadGrid(); loadRecord(); });
  }

  function openInInspector(tr) {
    const params = new URLSearchParams({ entity: state.entity, id: tr.dataset.id });
    window.open(viewURL("/", params), "_blank");
  }

  // ------------------------------------------------------------ Grid: sorting and column ops

  function cycleSort(name) {
    if (!isSortable(name)) return; // bytes have no order (the server refuses it too)
    if (state.sort !== name) {
      state.sort = name;
      state.order = "asc";
    } else if (state.order === "asc") {
      state.order = "desc";
    } else {
      state.sort = null;
      state.order = "asc";
    }
    state.offset = 0;
    syncURL("replace");
    loadGrid();
  }

  function setSort(name, order) {
    state.sort = name;
    state.order = order;
    state.offset = 0;
    syncURL("replace");
    loadGrid();
  }

  function setColumnHidden(name, hidden) {
    const set = new Set(state.cols.hidden);
    if (hidden) set.add(name);
    else set.delete(name);
    state.cols.hidden = state.cols.order.filter((n) => set.has(n));
    saveCols();
    renderGrid();
  }

  function resetColumns() {
    state.cols = defaultCols(state.entity);
    saveCols();
    renderGrid();
  }

  /** Moves `name` before `beforeName` (null: after the last visible column). */
  function moveColumn(name, beforeName) {
    const order = state.cols.order.filter((n) => n !== name);
    let index;
    if (beforeName) {
      index = order.indexOf(beforeName);
    } else {
      const visible = visibleColumns().map((c) => c.name).filter((n) => n !== name);
      index = visible.length ? order.indexOf(visible[visible.length - 1]) + 1 : order.length;
    }
    order.splice(index, 0, name);
    if (order.join("\u0000") === state.cols.order.join("\u0000")) return;
    state.cols.order = order;
    saveCols();
    renderGrid();
    const th = headerCell(name);
    if (th) th.focus({ preventScroll: true });
  }

  function headerCell(name) {
    for (const th of dom.gridHeadRow.querySelectorAll("th[data-col]")) if (th.dataset.col === name) return th;
    return null;
  }

  // A drag ends with a click on whatever is under the pointer; swallow that one click.
  let swallowClick = false;

  function swallowNextClick() {
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
  }

  /** Pointer-drag helper shared by splitters, column resize and column reorder. */
  function trackDrag(start, { cursor, threshold = 0, handle, onStart, onMove, onEnd }) {
    const x0 = start.clientX;
    const y0 = start.clientY;
    let active = false;
    const begin = () => {
      active = true;
      document.body.classList.add("is-dragging", cursor);
      if (handle) handle.classList.add("is-dragging");
      if (onStart) onStart();
    };
    const move = (event) => {
      if (event.pointerId !== start.pointerId) return;
      const dx = event.clientX - x0;
      const dy = event.clientY - y0;
      if (!active) {
        if (Math.hypot(dx, dy) < threshold) return;
        begin();
      }
      event.preventDefault();
      onMove(event, dx, dy);
    };
    const finish = (event, cancelled) => {
      if (event.pointerId !== start.pointerId) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
      if (!active) return;
      document.body.classList.remove("is-dragging", cursor);
      if (handle) handle.classList.remove("is-dragging");
      swallowNextClick();
      onEnd(event, cancelled);
    };
    const up = (event) => finish(event, false);
    const cancel = (event) => finish(event, true);
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
    if (threshold === 0) begin();
  }

  function onHeaderPointerDown(event) {
    if (event.button !== 0) return;
    const th = event.target.closest("th[data-col]");
    if (!th) return;
    const name = th.dataset.col;
    const grip = event.target.closest(".col-resize");
    if (grip) {
      event.preventDefault();
      const startWidth = th.getBoundingClientRect().width;
      trackDrag(event, {
        cursor: "is-dragging-col",
        handle: grip,
        onMove: (_, dx) => {
          state.cols.widths[name] = Math.round(clamp(startWidth + dx, COL_WIDTH_MIN, COL_WIDTH_MAX));
          paintColumnWidths();
        },
        onEnd: () => saveCols(),
      });
      return;
    }
    let drop = null;
    trackDrag(event, {
      cursor: "is-dragging-move",
      threshold: DRAG_THRESHOLD_PX,
      handle: th,
      onStart: () => th.classList.add("is-drag-source"),
      onMove: (move) => {
        autoScrollGrid(move.clientX);
        drop = dropTarget(move.clientX);
        paintDropIndicator(drop);
      },
      onEnd: (_, cancelled) => {
        th.classList.remove("is-drag-source");
        paintDropIndicator(null);
        if (!cancelled && drop) moveColumn(name, drop.before);
      },
    });
  }

  /** Near the grid's left or right edge a header drag scrolls the grid sideways. */
  function autoScrollGrid(x) {
    const box = dom.gridScroll.getBoundingClientRect();
    const edge = 40;
    if (x < box.left + edge) dom.gridScroll.scrollLeft -= Math.ceil((box.left + edge - x) / 2);
    else if (x > box.right - edge) dom.gridScroll.scrollLeft += Math.ceil((x - (box.right - edge)) / 2);
  }

  /** Where a dragged header would land: before the first header whose middle is right of x. */
  function dropTarget(x) {
    const ths = [...dom.gridHeadRow.querySelectorAll("th[data-col]")];
    for (const th of ths) {
      const rect = th.getBoundingClientRect();
      if (x < rect.left + rect.width / 2) return { before: th.dataset.col, th, side: "before" };
    }
    return ths.length ? { before: null, th: ths[ths.length - 1], side: "after" } : null;
  }

  function paintDropIndicator(drop) {
    for (const th of dom.gridHeadRow.querySelectorAll(".drop-before, .drop-after")) {
      th.classList.remove("drop-before", "drop-after");
    }
    if (drop) drop.th.classList.add(drop.side === "before" ? "drop-before" : "drop-after");
  }

  function onHeaderClick(event) {
    const th = event.target.closest("th[data-col]");
    if (!th || swallowClick || event.target.closest(".col-resize")) return;
    cycleSort(th.dataset.col);
  }

  function onHeaderDoubleClick(event) {
    const grip = event.target.closest(".col-resize");
    if (!grip) return;
    const name = grip.closest("th[data-col]").dataset.col;
    delete state.cols.widths[name];
    paintColumnWidths();
    saveCols();
  }

  function onHeaderKeyDown(event) {
    const th = event.target.closest("th[data-col]");
    if (!th) return;
    const name = th.dataset.col;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      cycleSort(name);
    } else if (event.altKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      const visible = visibleColumns().map((c) => c.name);
      const index = visible.indexOf(name);
      if (event.key === "ArrowLeft" && index > 0) moveColumn(name, visible[index - 1]);
      if (event.key === "ArrowRight" && index < visible.length - 1) moveColumn(name, visible[index + 2] ?? null);
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      const sibling = event.key === "ArrowLeft" ? th.previousElementSibling : th.nextElementSibling;
      if (sibling && sibling.dataset.col) focusHeader(sibling);
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      dom.gridScroll.focus();
      if (!state.selectedId) moveSelection(1);
    } else if (event.key === "ContextMenu" || (event.shiftKey && event.key === "F10")) {
      event.preventDefault();
      const rect = th.getBoundingClientRect();
      openHeaderMenu(name, rect.left, rect.bottom, th);
    }
  }

  /** Moves the header row's one tab stop to `th` and focuses it. */
  function focusHeader(th) {
    for (const other of dom.gridHeadRow.querySelectorAll("th[data-col]")) other.tabIndex = other === th ? 0 : -1;
    state.headerFocus = th.dataset.col;
    th.focus();
  }

  /** The value of a grid cell as stored (what "Copy value" copies): text as is, anything else as JSON. */
  function cellValue(row, column) {
    const value = isPlainObject(row?.attrs) ? row.attrs[column] : undefined;
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function rowData(id) {
    return state.rows.find((row) => String(row.id) === id);
  }

  /** Copy value / cell as shown / object ID / row as JSON, for a grid cell (`column` null: the row only). */
  function openCellMenu(id, column, x, y, returnFocus) {
    const row = rowData(id);
    if (!row) return;
    const menu = el("div");
    menu.append(el("div", "pop-label", column ? `${column} · ${row.entity ?? state.entity}` : String(row.entity ?? state.entity)));
    if (column) {
      const td = returnFocus?.closest?.("tr")?.querySelector(`td[data-col="${CSS.escape(column)}"]`);
      menu.append(
        menuButton("Copy value", "copy-value", () => copyText(cellValue(row, column))),
        menuButton("Copy cell as shown", "copy-shown", () => copyText(td ? td.textContent : cellValue(row, column))),
      );
      const value = isPlainObject(row.attrs) ? row.attrs[column] : undefined;
      const node = window.CDBPredicate.conditionFor(column, value === undefined ? null : value);
      if (node) {
        menu.append(el("div", "pop-sep"),
          menuButton("Filter by this value", "filter-value", () => window.CDBPredicate.addCondition(node)),
          menuButton("Exclude this value", "exclude-value", () => window.CDBPredicate.addCondition({ ...node, op: "!=" })));
      }
    }
    menu.append(
      menuButton("Copy object ID", "copy-id", () => copyText(String(row.id))),
      menuButton("Copy row as JSON", "copy-json", () => copyText(recordJSON(row))),
    );
    openPopover("cell", menu, { x, y, returnFocus });
  }

  function wireGrid() {
    dom.gridBody.addEventListener("contextmenu", (event) => {
      const td = event.target.closest("td");
      const tr = event.target.closest("tr[data-id]");
      if (!tr) return;
      event.preventDefault();
      selectRecord(tr.dataset.id);
      openCellMenu(tr.dataset.id, td?.dataset.col ?? null, event.clientX, event.clientY, td ?? tr);
    });
    dom.gridHeadRow.addEventListener("pointerdown", onHeaderPointerDown);
    dom.gridHeadRow.addEventListener("click", onHeaderClick);
    dom.gridHeadRow.addEventListener("dblclick", onHeaderDoubleClick);
    dom.gridHeadRow.addEventListener("keydown", onHeaderKeyDown);
    dom.gridHeadRow.addEventListener("contextmenu", (event) => {
      const th = event.target.closest("th[data-col]");
      if (!th) return;
      event.preventDefault();
      openHeaderMenu(th.dataset.col, event.clientX, event.clientY, th);
    });
    dom.gridBody.addEventListener("click", (event) => {
      const tr = event.target.closest("tr[data-id]");
      if (tr) selectRecord(tr.dataset.id);
    });
    dom.gridBody.addEventListener("dblclick", (event) => {
      const tr = event.target.closest("tr[data-id]");
      if (!tr) return;
      // With writes on, a value's cell is edited in place; the row number still opens the Inspector.
      const td = event.target.closest("td[data-col]");
      if (state.writable && td) editCell(tr, td);
      else openInInspector(tr);
    });
    dom.gridScroll.addEventListener("keydown", onGridKeyDown);
    dom.gridScroll.addEventListener("scroll", () => {
      if (openMenuState && openMenuState.name === "header") closeMenu();
    }, { passive: true });
  }

  // ------------------------------------------------------------ Menus (popovers)

  let openMenuState = null; // {name, node, returnFocus}

  function openPopover(name, node, { x, y, alignRight = false, returnFocus }) {
    closeMenu();
    node.classList.add("cdb-popover");
    node.dataset.menu = name;
    node.setAttribute("role", "menu");
    node.style.left = "0px";
    node.style.top = "0px";
    document.body.append(node);
    const rect = node.getBoundingClientRect();
    const left = alignRight ? x - rect.width : x;
    node.style.left = `${clamp(left, 8, window.innerWidth - rect.width - 8)}px`;
    node.style.top = `${clamp(y, 8, window.innerHeight - rect.height - 8)}px`;
    openMenuState = { name, node, returnFocus };
    const first = node.querySelector(".pop-item");
    if (first) first.focus({ preventScroll: true });
  }

  function closeMenu({ restoreFocus = false } = {}) {
    if (!openMenuState) return;
    const { node, returnFocus, name } = openMenuState;
    openMenuState = null;
    node.remove();
    if (name === "columns") dom.columnsBtn.setAttribute("aria-expanded", "false");
    if (restoreFocus && returnFocus && returnFocus.isConnected) returnFocus.focus({ preventScroll: true });
  }

  function menuButton(label, action, onSelect) {
    const button = el("button", "pop-item", label);
    button.type = "button";
    button.dataset.action = action;
    button.setAttribute("role", "menuitem");
    button.addEventListener("click", () => {
      closeMenu();
      onSelect();
    });
    return button;
  }

  function openHeaderMenu(name, x, y, th) {
    const menu = el("div");
    menu.append(el("div", "pop-label", name));
    if (isSortable(name)) {
      menu.append(
        menuButton("Sort ascending ▲", "sort-asc", () => setSort(name, "asc")),
        menuButton("Sort descending ▼", "sort-desc", () => setSort(name, "desc")),
      );
    } else {
      menu.append(el("div", "pop-label pop-note", "Bytes have no order to sort by"));
    }
    if (state.sort === name) menu.append(menuButton("Clear sort", "sort-clear", () => setSort(null, "asc")));
    if (window.CDBFacets.facetable(attributesOf(state.entity).find((a) => a.name === name)?.type)) {
      menu.append(menuButton("Facets…", "facets", () => window.CDBFacets.open(name, th)));
    }
    menu.append(el("div", "pop-sep"));
    menu.append(menuButton("Hide column", "hide", () => setColumnHidden(name, true)));
    if (typeof state.cols.widths[name] === "number") {
      menu.append(menuButton("Reset width", "reset-width", () => {
        delete state.cols.widths[name];
        saveCols();
        paintColumnWidths();
      }));
    }
    menu.append(menuButton("Reset all columns", "reset", resetColumns));
    openPopover("header", menu, { x, y, returnFocus: th });
  }

  function openColumnsMenu() {
    if (!state.cols) return;
    const menu = el("div");
    menu.append(el("div", "pop-label", `${state.entity} columns`));
    const types = new Map(attributesOf(state.entity).map((a) => [a.name, a.type]));
    const hidden = new Set(state.cols.hidden);
    for (const name of state.cols.order) {
      const label = el("label", "pop-item");
      label.setAttribute("role", "menuitemcheckbox");
      label.setAttribute("aria-checked", String(!hidden.has(name)));
      const box = el("input");
      box.type = "checkbox";
      box.checked = !hidden.has(name);
      box.dataset.col = name;
      box.addEventListener("change", () => {
        label.setAttribute("aria-checked", String(box.checked));
        setColumnHidden(name, !box.checked);
      });
      label.append(box, el("span", null, name), el("span", "pop-type", shortType(types.get(name))));
      menu.append(label);
    }
    menu.append(el("div", "pop-sep"));
    menu.append(
      menuButton("Show all", "show-all", () => {
        state.cols.hidden = [];
        saveCols();
        renderGrid();
      }),
      menuButton("Reset columns", "reset", resetColumns),
    );
    const rect = dom.columnsBtn.getBoundingClientRect();
    openPopover("columns", menu, { x: rect.right, y: rect.bottom + 4, alignRight: true, returnFocus: dom.columnsBtn });
    dom.columnsBtn.setAttribute("aria-expanded", "true");
  }

  function wireMenus() {
    document.addEventListener("pointerdown", (event) => {
      if (!openMenuState) return;
      if (openMenuState.node.contains(event.target)) return;
      if (openMenuState.name === "columns" && dom.columnsBtn.contains(event.target)) return;
      closeMenu();
    }, true);
    window.addEventListener("resize", () => closeMenu());
    window.addEventListener("blur", () => closeMenu());
  }

  function onMenuKeyDown(event) {
    const items = [...openMenuState.node.querySelectorAll(".pop-item")];
    const index = items.indexOf(document.activeElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      const next = items[(index + step + items.length) % items.length];
      if (next) next.focus();
    } else if (event.key === "Tab") {
      closeMenu();
    }
  }

  // ------------------------------------------------------------ Record: detail + sub-panels

  /** After a relationship was followed from the keyboard: focus its pane's first item, else the pane's body. */
  function refocusAfterFollow() {
    const pane = state.refocusPane;
    state.refocusPane = null;
    if (pane) window.CDBShared.focusWithin(pane.querySelector(".pane-body") || pane, ".rel-item[data-id], [data-id][tabindex='0']");
  }

  async function loadRecord() {
    const ctl = restart("record");
    const id = state.selectedId;
    dom.exportBtn.disabled = !id;
    if (!id) {
      state.record = null;
      renderNoRecord();
      return;
    }
    const loading = (pane, stateEl, body) => {
      body.replaceChildren();
      setPaneState(pane, stateEl, "loading", "Loading…");
    };
    loading(dom.paneDetail, dom.detailState, dom.detailContent);
    loading(dom.paneRel, dom.relState, dom.relList);
    loading(dom.paneContent, dom.contentState, dom.contentView);
    dom.paneDetail.dataset.id = id;
    // One visible Export button (the top bar's); this anchor only carries the download it clicks.
    dom.detailExport.href = api.exportURL(id);
    try {
      const record = await api.object(id, ctl.signal);
      if (!isPlainObject(record)) throw new ApiError("Unexpected /api/object answer", 0);
      state.record = record;
      renderDetail(record);
      renderRelationships(record);
      renderContent(record);
      refocusAfterFollow();
    } catch (err) {
      if (isAbort(err)) return;
      state.record = null;
      for (const [pane, stateEl] of [[dom.paneDetail, dom.detailState], [dom.paneRel, dom.relState], [dom.paneContent, dom.contentState]]) {
        showError(pane, stateEl, err);
      }
      dom.relSelect.replaceChildren();
      dom.relSelect.disabled = true;
      dom.contentSelect.replaceChildren();
      dom.contentSelect.disabled = true;
      dom.contentMeta.textContent = "";
    }
  }

  function renderNoRecord() {
    delete dom.paneDetail.dataset.id;
    dom.detailExport.removeAttribute("href");
    dom.detailContent.replaceChildren();
    dom.relList.replaceChildren();
    dom.contentView.replaceChildren();
    dom.relSelect.replaceChildren();
    dom.relSelect.disabled = true;
    dom.contentSelect.replaceChildren();
    dom.contentSelect.disabled = true;
    dom.contentMeta.textContent = "";
    setPaneState(dom.paneDetail, dom.detailState, "empty", "Select a row to see its attributes and relationships.");
    setPaneState(dom.paneRel, dom.relState, "empty", "Select a row to browse its relationships.");
    setPaneState(dom.paneContent, dom.contentState, "empty", "Select a row to view an attribute's content.");
  }

  function relatedItem(tag, className, item, destination) {
    const node = el(tag, className);
    node.dataset.id = String(item.id);
    node.dataset.entity = String(item.entity ?? destination ?? "");
    node.tabIndex = 0;
    node.setAttribute("role", "link");
    node.title = visibleText(`Show ${item.summary} (${item.entity})`);
    node.append(el("span", "name", item.summary ?? item.id));
    if (item.entity && item.entity !== destination) node.append(el("span", "meta", item.entity));
    if (item.id === state.selectedId) node.classList.add("active");
    return node;
  }

  /** Where you are: the records followed to reach this one, each a way back to it. */
  function renderBreadcrumb(record) {
    if (!state.trail.length) {
      dom.breadcrumb.hidden = true;
      dom.breadcrumb.replaceChildren();
      return;
    }
    const parts = [];
    for (const step of state.trail) {
      const button = el("button", null, `${step.entity}: ${step.summary ?? step.id}`);
      button.type = "button";
      button.dataset.id = step.id;
      button.dataset.entity = step.entity;
      parts.push(button, el("span", "sep", "›"));
    }
    parts.push(el("span", "current", `${record.entity}: ${nameOf(record)}`));
    dom.breadcrumb.replaceChildren(...parts);
    dom.breadcrumb.hidden = false;
  }

  /** A record's name: the "Name by" attributes picked for its entity in this store (shared with the Inspector),
   *  else the server's summary. */
  function nameOf(record) {
    return displayName(record.attrs, displayChoices(state.storeKey, record.entity), record.summary ?? record.id);
  }

  /** "Name by" for the record's entity: one or two String attributes (the same choice as the Inspector's). */
  function nameByControls(record) {
    const strings = recordAttributes(record).filter((a) => a.type === "String");
    const holder = el("div", "detail-nameby");
    if (!strings.length) return holder;
    const chosen = displayChoices(state.storeKey, record.entity);
    const select = (id, label, options, value) => {
      const node = el("select", "pane-select");
      node.id = id;
      node.setAttribute("aria-label", label);
      for (const [optionValue, text] of options) {
        const option = el("option", null, text);
        option.value = optionValue;
        node.append(option);
      }
      node.value = value;
      return node;
    };
    const first = select("detail-name-by", "Name records by", [["", "Name: default"], ...strings.map((a) => [a.name, `Name: ${a.name}`])], chosen[0] || "");
    const second = select("detail-name-by-2", "And name records by",
      [["", "+ (nothing)"], ...strings.filter((a) => a.name !== chosen[0]).map((a) => [a.name, `+ ${a.name}`])], chosen[1] || "");
    second.hidden = !chosen[0];
    const changed = () => {
      setDisplayChoices(state.storeKey, record.entity, [first.value, first.value ? second.value : ""]);
      renderDetail(record);
    };
    first.addEventListener("change", changed);
    second.addEventListener("change", changed);
    holder.append(first, second);
    return holder;
  }

  /** A button that copies `text` when clicked (shared.js copyFrom marks whether it worked). */
  function copyButton(id, label, text, title) {
    const button = el("button", "copy-btn", label);
    button.type = "button";
    if (id) button.id = id;
    button.dataset.copy = text;
    button.title = visibleText(title);
    return button;
  }

  function renderDetail(record) {
    renderBreadcrumb(record);
    const frag = document.createDocumentFragment();
    frag.append(nameByControls(record));
    frag.append(el("h2", "detail-heading", nameOf(record)));
    frag.append(el("p", "detail-id", `${record.entity} · ${record.id}`));
    // Copying from the detail pane: the object ID, the record as JSON (the same text as the grid's menu and the
    // Inspector's buttons), and each value with the button beside it.
    const copies = el("div", "detail-copy");
    copies.append(copyButton("detail-copy-id", "Copy ID", String(record.id), "Copy the object ID"),
      copyButton("detail-copy-json", "Copy as JSON", recordJSON(record), "Copy the record's attributes as JSON"));
    frag.append(copies);

    const attributes = recordAttributes(record);
    const values = isPlainObject(record.attrs) ? record.attrs : {};
    frag.append(el("h3", "detail-section", `Attributes (${attributes.length})`));
    const list = el("dl", "attr-list");
    for (const attr of attributes) {
      const row = el("div", "attr-row");
      row.dataset.attr = attr.name;
      const dt = el("dt", null, attr.name);
      dt.title = visibleText(attr.name);
      if (attr.type) dt.append(el("span", "attr-type", attr.type));
      const dd = el("dd");
      if (window.CDBShared.isLongValue(values[attr.name])) {
        // A few lines, the length and "Show all" (the content viewer below shows it whole too).
        dd.classList.add("has-long-value");
        dd.append(window.CDBShared.longValue(values[attr.name], (text) => el("span", null, text)));
      } else {
        paintValue(dd, values[attr.name], attr.type);
      }
      if (isBinary(values[attr.name])) window.CDBContent.lazySummary(dd, String(record.id), attr.name);
      else window.CDBContent.markURL(dd, values[attr.name], attr.type);
      const link = window.CDBContent.webLink(values[attr.name]);
      if (link) dd.append(" ", link);
      row.append(dt, dd);
      const value = values[attr.name];
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        // The stored value (a date's ISO text, a big integer's digits), never the rendering.
        const copy = copyButton(null, "⧉", String(value), `Copy ${attr.name}`);
        copy.classList.add("copy-value");
        copy.setAttribute("aria-label", `Copy ${attr.name}`);
        row.append(copy);
      }
      list.append(row);
    }
    frag.append(list);

    const relationships = Array.isArray(record.relationships) ? record.relationships : [];
    frag.append(el("h3", "detail-section", `Relationships (${relationships.length})`));
    for (const rel of relationships) {
      const card = el("div", "rel-card");
      card.dataset.rel = rel.name;
      const head = el("div", "rel-card-head");
      // The destination is a link to its list, as in the Inspector.
      const destination = el("a", "rel-destination-link", rel.destination);
      destination.href = viewURL("/lab", new URLSearchParams({ entity: rel.destination }));
      destination.dataset.entity = rel.destination;
      destination.title = visibleText(`Browse every ${rel.destination}`);
      const dest = el("span", "rel-dest", "→ ");
      dest.append(destination, rel.toMany ? (rel.ordered ? " · ordered to-many" : " · to-many") : " · to-one");
      head.append(el("span", "rel-name", rel.name), dest, el("span", "count", formatCount(rel.count)));
      card.append(head);
      const items = Array.isArray(rel.items) ? rel.items : [];
      for (const item of items.slice(0, DETAIL_REL_PREVIEW)) card.append(relatedItem("div", "rel-item", item, rel.destination));
      if (!items.length) card.append(el("div", "rel-none", rel.toMany ? "No related records" : "None"));
      else if (rel.count > Math.min(items.length, DETAIL_REL_PREVIEW)) {
        const more = el("button", "rel-more", `+ ${(rel.count - Math.min(items.length, DETAIL_REL_PREVIEW)).toLocaleString()} more · show all in the grid`);
        more.type = "button";
        more.dataset.rel = rel.name;
        card.append(more);
      }
      frag.append(card);
    }
    if (!relationships.length) frag.append(el("div", "rel-none", "This entity has no relationships."));
    dom.detailContent.replaceChildren(frag);
    setPaneState(dom.paneDetail, dom.detailState, "ready");
  }

  function renderRelationships(record) {
    const relationships = Array.isArray(record.relationships) ? record.relationships : [];
    const options = relationships.map((rel) => {
      const option = el("option", null, `${rel.name} → ${rel.destination} (${formatCount(rel.count)})`);
      option.value = rel.name;
      return option;
    });
    dom.relSelect.replaceChildren(...options);
    dom.relSelect.disabled = !relationships.length;
    if (!relationships.length) {
      dom.relList.replaceChildren();
      setPaneState(dom.paneRel, dom.relState, "empty", `${record.entity} has no relationships.`);
      return;
    }
    const remembered = state.relChoice.get(record.entity);
    const chosen = relationships.some((r) => r.name === remembered) ? remembered : relationships[0].name;
    dom.relSelect.value = chosen;
    renderRelationshipItems();
  }

  function renderRelationshipItems() {
    const record = state.record;
    if (!record) return;
    const rel = (record.relationships || []).find((r) => r.name === dom.relSelect.value);
    if (!rel) return;
    if (!state.relShown || state.relShown.id !== record.id || state.relShown.rel !== rel.name) {
      state.relShown = { id: record.id, rel: rel.name, items: Array.isArray(rel.items) ? [...rel.items] : [] };
    }
    const items = state.relShown.items;
    const frag = document.createDocumentFragment();
    for (const item of items) frag.append(relatedItem("li", null, item, rel.destination));
    dom.relList.replaceChildren(frag);
    // Every to-many can be paged to its end here, or opened in the grid (sorted, searched, paged like any list).
    dom.relActions.hidden = !(rel.toMany && rel.count > 0);
    dom.relLoadMore.hidden = items.length >= rel.count;
    dom.relLoadMore.textContent = `Load ${Math.min(REL_PAGE, rel.count - items.length).toLocaleString()} more`;
    dom.relShowAll.textContent = `Show all ${rel.count.toLocaleString()} in the grid`;
    if (!items.length) {
      setPaneState(dom.paneRel, dom.relState, "empty", rel.toMany ? `No related ${rel.destination} records.` : `No ${rel.name}.`);
    } else if (rel.count > items.length) {
      setPaneState(dom.paneRel, dom.relState, "ready");
      dom.relState.textContent = `Showing ${items.length.toLocaleString()} of ${rel.count.toLocaleString()}.`;
    } else {
      setPaneState(dom.paneRel, dom.relState, "ready");
    }
  }

  /** Appends the next page of the shown relationship (GET /api/object/related). */
  async function loadMoreRelated() {
    const shown = state.relShown;
    const record = state.record;
    if (!shown || !record) return;
    const ctl = restart("related");
    dom.relLoadMore.disabled = true;
    try {
      const page = await api.related(record.id, shown.rel, shown.items.length, REL_PAGE, ctl.signal);
      if (state.relShown !== shown) return;
      for (const row of Array.isArray(page.rows) ? page.rows : []) {
        shown.items.push({ id: row.id, entity: row.entity, summary: row.summary });
      }
      renderRelationshipItems();
    } catch (err) {
      if (isAbort(err)) return;
      showError(dom.paneRel, dom.relState, err);
    } finally {
      dom.relLoadMore.disabled = false;
    }
  }

  /** Lists the shown relationship's records in the grid, with a removable "related to" chip. */
  function showRelatedInGrid() {
    const record = state.record;
    const rel = record && (record.relationships || []).find((r) => r.name === dom.relSelect.value);
    if (!rel) return;
    closeMenu();
    if (rel.destination !== state.entity) setGridEntity(rel.destination);
    Object.assign(state, { sort: null, order: "asc", search: "", searchAttr: "", where: "", offset: 0, relatedTo: record.id, via: rel.name });
    syncControls();
    syncURL("push");
    loadGrid();
  }

  /**
   * Follows a relationship to a record: its concrete entity's grid opens at the page that holds it (the server
   * says at which offset it sits), and the record is selected there.
   */
  async function openRecord(id, entity) {
    // The breadcrumb: the record being left is added, unless the user goes back to one already on it.
    const back = state.trail.findIndex((step) => step.id === id);
    if (back >= 0) state.trail = state.trail.slice(0, back);
    else if (state.record) state.trail.push({ id: state.record.id, entity: state.record.entity, summary: state.record.summary });
    if (state.rowById.has(id) || !entity) {
      selectRecord(id, { scroll: true, keepTrail: true });
      return;
    }
    let offset = 0;
    try {
      const position = await api.position(entity, id, state.limit);
      offset = Number.isSafeInteger(position.pageOffset) ? position.pageOffset : 0;
    } catch (err) {
      if (isAbort(err)) return;
      offset = 0; // the detail pane says what is wrong with the record
    }
    closeMenu();
    setGridEntity(entity);
    Object.assign(state, { sort: null, order: "asc", search: "", searchAttr: "", where: "", offset, relatedTo: "", via: "", selectedId: id });
    syncControls();
    syncURL("push");
    loadGrid();
    loadRecord();
  }

  function renderContent(record) {
    const attributes = recordAttributes(record);
    const options = attributes.map((attr) => {
      const option = el("option", null, attr.type ? `${attr.name} · ${shortType(attr.type)}` : attr.name);
      option.value = attr.name;
      return option;
    });
    dom.contentSelect.replaceChildren(...options);
    dom.contentSelect.disabled = !attributes.length;
    if (!attributes.length) {
      dom.contentView.replaceChildren();
      dom.contentMeta.textContent = "";
      setPaneState(dom.paneContent, dom.contentState, "empty", `${record.entity} has no attributes.`);
      return;
    }
    const remembered = state.contentChoice.get(record.entity);
    dom.contentSelect.value = attributes.some((a) => a.name === remembered) ? remembered : attributes[0].name;
    renderContentValue();
  }

  function renderContentValue() {
    const record = state.record;
    if (!record) return;
    const name = dom.contentSelect.value;
    const attr = recordAttributes(record).find((a) => a.name === name);
    if (!attr) return;
    const value = isPlainObject(record.attrs) ? record.attrs[name] : undefined;
    const view = dom.contentView;
    view.replaceChildren();
    view.dataset.attr = name;
    let meta = attr.type;

    const asJSON = typeof value === "string" && !NUMERIC_TYPES.has(attr.type) ? parseStructuredJSON(value) : null;
    if (asJSON) {
      const pre = el("pre", "cv-json");
      renderJSONInto(pre, value, asJSON);
      view.append(pre);
      meta = `${attr.type} · JSON · ${formatCount(value.length)} chars`;
    } else if (typeof value === "string" && (attr.type === "String" || attr.type === "URI" || !attr.type)) {
      const pre = el("pre", "cv-text", value);
      view.append(pre);
      if (value === "") view.append(el("div", "cv-note", "(empty string)"));
      meta = `${attr.type || "text"} · ${formatCount(value.length)} chars`;
    } else {
      const box = el("div", "cv-value");
      paintValue(box, value, attr.type);
      view.append(box);
      if (isBinary(value)) {
        // What is inside: the kind's viewer, a hex view paged with Range requests, and a download.
        view.replaceChildren(window.CDBContent.viewer(String(record.id), name, Number.isFinite(value.bytes) ? value.bytes : 0));
        meta = `${attr.type}${attr.transformer ? ` (${attr.transformer})` : ""} · ${formatCount(value.bytes)} bytes`;
      }
    }
    dom.contentMeta.textContent = meta;
    setPaneState(dom.paneContent, dom.contentState, "ready");
  }

  /** The parsed value when `text` is a JSON object or array, else null. */
  function parseStructuredJSON(text) {
    const trimmed = text.trim();
    if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return null;
    try {
      const parsed = JSON.parse(trimmed);
      return parsed !== null && typeof parsed === "object" ? parsed : null;
    } catch {
      return null;
    }
  }

  const JSON_TOKEN = /\s+|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\],:]/y;

  /**
   * Pretty-prints JSON by re-indenting its own tokens, so numbers keep their exact
   * digits (JSON.parse would round integers beyond 2^53). Highlighted with spans.
   */
  function renderJSONInto(pre, text, parsed) {
    const source = text.trim();
    if (source.length > JSON_HIGHLIGHT_LIMIT) {
      setVisibleText(pre, JSON.stringify(parsed, null, 2));
      return;
    }
    const tokens = [];
    JSON_TOKEN.lastIndex = 0;
    while (JSON_TOKEN.lastIndex < source.length) {
      const match = JSON_TOKEN.exec(source);
      if (!match) {
        setVisibleText(pre, JSON.stringify(parsed, null, 2));
        return;
      }
      if (!/^\s/.test(match[0])) tokens.push(match[0]);
    }
    const frag = document.createDocumentFragment();
    let depth = 0;
    const out = (kind, text) => frag.append(kind ? el("span", kind, text) : document.createTextNode(text));
    const newline = () => out(null, `\n${"  ".repeat(depth)}`);
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      const next = tokens[i + 1];
      if (token === "{" || token === "[") {
        out("j-punct", token);
        const close = token === "{" ? "}" : "]";
        if (next === close) {
          out("j-punct", close);
          i++;
        } else {
          depth++;
          newline();
        }
      } else if (token === "}" || token === "]") {
        depth--;
        newline();
        out("j-punct", token);
      } else if (token === ",") {
        out("j-punct", ",");
        newline();
      } else if (token === ":") {
        out("j-punct", ": ");
      } else if (token[0] === "\"") {
        out(next === ":" ? "j-key" : "j-str", token);
      } else if (token === "true" || token === "false" || token === "null") {
        out("j-lit", token);
      } else {
        out("j-num", token);
      }
    }
    pre.append(frag);
  }

  /** The "Dates" choice changed (here or in another tab): the dates on screen are redrawn, nothing is fetched. */
  function onDateZoneChange(zone) {
    state.dateZone = zone;
    repaintDates(dom.layout, zone);
  }

  function focusDetail() {
    if (dom.paneDetail.dataset.state === "ready") dom.detailBody.focus();
  }

  function onRelatedActivate(event) {
    const more = event.target.closest("button.rel-more[data-rel]");
    if (more && event.type === "click") {
      dom.relSelect.value = more.dataset.rel;
      renderRelationshipItems();
      showRelatedInGrid();
      return;
    }
    const item = event.target.closest("[data-id]");
    if (!item) return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    // From the keyboard, focus stays in the pane the item was in once it shows the followed record (the item
    // itself is replaced), instead of falling back to the page.
    if (event.type === "keydown") state.refocusPane = item.closest(".pane");
    openRecord(item.dataset.id, item.dataset.entity);
  }

  function wireRecordPanes() {
    dom.relLoadMore.addEventListener("click", loadMoreRelated);
    dom.breadcrumb.addEventListener("click", (event) => {
      const step = event.target.closest("button[data-id]");
      if (step) openRecord(step.dataset.id, step.dataset.entity);
    });
    document.getElementById("nav-back").addEventListener("click", () => window.history.back());
    document.getElementById("nav-forward").addEventListener("click", () => window.history.forward());
    dom.relShowAll.addEventListener("click", showRelatedInGrid);
    dom.relSelect.addEventListener("change", () => {
      if (state.record) state.relChoice.set(state.record.entity, dom.relSelect.value);
      renderRelationshipItems();
    });
    dom.contentSelect.addEventListener("change", () => {
      if (state.record) state.contentChoice.set(state.record.entity, dom.contentSelect.value);
      renderContentValue();
    });
    dom.detailContent.addEventListener("click", (event) => {
      const copy = event.target.closest("button.copy-btn[data-copy]");
      if (copy) window.CDBShared.copyFrom(copy);
      const destination = event.target.closest("a.rel-destination-link");
      // A plain click shows the destination's list here; with a modifier the browser opens the link.
      if (!destination || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      selectEntity(destination.dataset.entity);
      if (event.detail === 0) dom.gridScroll.focus(); // from the keyboard: focus goes with the view
    });
    for (const container of [dom.relList, dom.detailContent]) {
      container.addEventListener("click", onRelatedActivate);
      container.addEventListener("keydown", onRelatedActivate);
    }
  }

  // ------------------------------------------------------------ Splitters and pane sizes

  const SPLITS = {
    sidebar: { axis: "x", sign: 1, min: PANE_MIN.sidebar },
    detail: { axis: "x", sign: -1, min: PANE_MIN.detail },
    bottom: { axis: "y", sign: -1, min: PANE_MIN.subHeight },
    bottomLeft: { axis: "x", sign: 1, min: PANE_MIN.subWidth },
  };

  /** The largest size a pane may take with every other pane at least at its minimum. */
  function paneMax(name) {
    const sizes = state.panes;
    const innerWidth = dom.layout.clientWidth - 2 * LAYOUT_PADDING_PX;
    switch (name) {
      case "sidebar": return innerWidth - 2 * SPLITTER_PX - sizes.detail - CENTER_MIN_WIDTH;
      case "detail": return innerWidth - 2 * SPLITTER_PX - sizes.sidebar - CENTER_MIN_WIDTH;
      case "bottom": return dom.center.clientHeight - SPLITTER_PX - PANE_MIN.gridHeight;
      case "bottomLeft": return dom.center.clientWidth - SPLITTER_PX - PANE_MIN.subWidth;
      default: return Infinity;
    }
  }

  function clampPane(name, value) {
    const min = SPLITS[name].min;
    return Math.round(clamp(value, min, Math.max(min, paneMax(name))));
  }

  function applyPaneSizes() {
    const { sidebar, detail, bottom, bottomLeft } = state.panes;
    dom.paneSidebar.style.flexBasis = `${sidebar}px`;
    dom.paneDetail.style.flexBasis = `${detail}px`;
    dom.bottomRow.style.flexBasis = `${bottom}px`;
    dom.paneRel.style.flex = bottomLeft === null ? "" : `0 0 ${bottomLeft}px`;
  }

  /** Clamps every pane to the plan's minimums and to what the window leaves. */
  function clampPanes() {
    const sizes = state.panes;
    sizes.sidebar = clampPane("sidebar", sizes.sidebar);
    sizes.detail = clampPane("detail", sizes.detail);
    applyPaneSizes(); // the center's size depends on the two side panes
    sizes.bottom = clampPane("bottom", sizes.bottom);
    if (sizes.bottomLeft !== null) sizes.bottomLeft = clampPane("bottomLeft", sizes.bottomLeft);
    applyPaneSizes();
  }

  function loadPanes() {
    const raw = storageJSON(STORAGE.panes);
    const sizes = { ...PANE_DEFAULT };
    if (isPlainObject(raw)) {
      for (const name of Object.keys(SPLITS)) {
        if (typeof raw[name] === "number" && Number.isFinite(raw[name])) sizes[name] = raw[name];
      }
    }
    state.panes = sizes;
    clampPanes();
  }

  function savePanes() {
    storageSet(STORAGE.panes, JSON.stringify(state.panes));
  }

  function measuredPane(name) {
    const node = { sidebar: dom.paneSidebar, detail: dom.paneDetail, bottom: dom.bottomRow, bottomLeft: dom.paneRel }[name];
    const rect = node.getBoundingClientRect();
    return SPLITS[name].axis === "x" ? rect.width : rect.height;
  }

  function wireSplitters() {
    for (const splitter of dom.splitters) {
      const name = splitter.dataset.split;
      const split = SPLITS[name];
      if (!split) continue;
      splitter.addEventListener("pointerdown", (event) => {
        if (event.button !== 0) return;
        event.preventDefault();
        const startSize = measuredPane(name);
        trackDrag(event, {
          cursor: split.axis === "x" ? "is-dragging-col" : "is-dragging-row",
          handle: splitter,
          onMove: (_, dx, dy) => {
            state.panes[name] = clampPane(name, startSize + split.sign * (split.axis === "x" ? dx : dy));
            applyPaneSizes();
          },
          onEnd: () => savePanes(),
        });
      });
      splitter.addEventListener("keydown", (event) => {
        const keys = split.axis === "x" ? { ArrowLeft: -1, ArrowRight: 1 } : { ArrowUp: -1, ArrowDown: 1 };
        if (!(event.key in keys)) return;
        event.preventDefault();
        const delta = keys[event.key] * split.sign * SPLITTER_KEY_STEP;
        state.panes[name] = clampPane(name, measuredPane(name) + delta);
        applyPaneSizes();
        savePanes();
      });
      splitter.addEventListener("dblclick", () => {
        state.panes[name] = PANE_DEFAULT[name];
        clampPanes();
        savePanes();
      });
    }
    let pending = 0;
    window.addEventListener("resize", () => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(() => {
        // Panes the user never dragged follow the window; dragged ones keep their size (clamped to fit).
        const stored = storageJSON(STORAGE.panes);
        if (!isPlainObject(stored)) state.panes = paneDefaults();
        clampPanes();
      });
    });
  }

  // ------------------------------------------------------------ Keyboard (global)

  function onDocumentKeyDown(event) {
    if (openMenuState) {
      if (event.key === "Escape") {
        event.preventDefault();
        closeMenu({ restoreFocus: true });
      } else {
        onMenuKeyDown(event);
      }
      return;
    }
    if (event.key === "Escape") {
      if (dom.detailBody.contains(document.activeElement) || dom.paneRel.contains(document.activeElement)) {
        dom.gridScroll.focus();
      } else if (document.activeElement === dom.search && dom.search.value) {
        dom.search.value = "";
        applySearch();
      }
      return;
    }
    // "/" focuses the search box, as in the Inspector (unless the user is typing somewhere).
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName);
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      dom.search.focus();
      dom.search.select();
      return;
    }
    // Arrow keys with nothing focused (e.g. after a reload) drive the grid.
    if (document.activeElement === document.body && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      dom.gridScroll.focus({ preventScroll: true });
      onGridKeyDown(event);
    }
  }

  // ------------------------------------------------------------ Navigation

  /** Applies a URL's state (initial load, popstate). */
  function applyURL(url) {
    let entity = url.entity;
    if (!entity) entity = state.entities.length ? state.entities[0].name : null;
    const entityChanged = entity !== state.entity;
    if (entityChanged) setGridEntity(entity);
    const attrs = attributesOf(entity);
    const sort = url.sort && (!attrs.length || attrs.some((a) => a.name === url.sort)) ? url.sort : null;
    const searchAttr = url.searchAttr && attrs.some((a) => a.name === url.searchAttr && a.type === "String") ? url.searchAttr : "";
    const gridChanged = entityChanged
      || sort !== state.sort
      || (sort && url.order !== state.order)
      || url.search !== state.search
      || searchAttr !== state.searchAttr
      || url.where !== state.where
      || url.limit !== state.limit
      || url.offset !== state.offset
      || url.relatedTo !== state.relatedTo
      || url.via !== state.via;
    Object.assign(state, { sort, order: sort ? url.order : "asc", search: url.search, searchAttr, where: url.where, limit: url.limit, offset: url.offset,
      relatedTo: url.relatedTo, via: url.relatedTo ? url.via : "" });
    syncControls();
    const idChanged = url.id !== state.selectedId;
    state.selectedId = url.id;
    syncURL("replace"); // normalise (default entity, dropped unknown params)
    if (gridChanged || !state.rows.length) loadGrid();
    else markSelectedRow({ scroll: true });
    if (idChanged || !state.record) loadRecord();
  }

  async function refresh() {
    await loadEntities().catch(() => {});
    if (state.entity) {
      state.cols = loadCols(state.entity);
      const searchAttr = state.searchAttr;
      populateSearchAttr();
      dom.searchAttr.value = searchAttr;
    }
    markActiveEntity();
    loadHealth();
    loadGrid();
    loadRecord();
  }

  // ------------------------------------------------------------ Init (the one entry point)

  async function init() {
    cacheDom();
    storageSet(STORAGE.preferredView, "lab");
    loadPanes();
    wireSplitters();
    wireToolbar();
    wireGrid();
    wireMenus();
    wireRecordPanes();
    state.dateZone = readDateZone();
    wireDateZoneSelect(dom.dateZone, onDateZoneChange);
    dom.entityList.addEventListener("click", onSidebarClick);
    // One tab stop: arrow keys, Home and End show the next entity (as in the Inspector).
    dom.entityList.addEventListener("keydown", (event) => window.CDBShared.onEntityListKey(event, dom.entityList, state.entity, selectEntity));
    dom.hideEmpty.checked = readHideEmpty();
    dom.entityFilter.addEventListener("input", renderSidebar);
    dom.hideEmpty.addEventListener("change", () => {
      writeHideEmpty(dom.hideEmpty.checked);
      renderSidebar();
    });
    document.addEventListener("keydown", onDocumentKeyDown);
    window.addEventListener("click", (event) => {
      if (swallowClick) {
        event.stopPropagation();
        event.preventDefault();
      }
    }, true);
    window.addEventListener("popstate", () => applyURL(readURL()));
    renderNoRecord();
    loadHealth();
    try {
      await loadEntities();
    } catch (err) {
      if (!isAbort(err)) throw err;
    }
    applyURL(readURL());
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
