/*
 * CoreDataBrowser — Inspector view (three panes: entities · records · detail).
 *
 * Vanilla ES2020, no framework, no build step. Data comes only from the JSON API (docs/API.md).
 * User data is always inserted with textContent / attributes, never parsed as HTML.
 *
 * View state lives in the URL, so Back/Forward, reload and a pasted link all restore the view:
 *   /?entity=Book&search=the&searchAttr=title&where=pageCount%20%3E%20300&sort=pageCount&order=desc&limit=100&offset=0&id=<uri>
 * Empty values and defaults (order=asc, limit=100, offset=0) are left out of the URL.
 * History: selecting an entity, clicking a record or a related object pushes an entry; search, sort, order,
 * applying a filter (where=) pushes one too; page size, paging and arrow-key moves replace the current one (they would flood the history otherwise).
 *
 * Stable hooks for tests (do not rename without updating scripts/ui-tests):
 *   Top bar    #nav-back, #nav-forward (in-app history), #tab-inspector, #tab-lab (a[aria-current="page"] marks the active view), #refresh-btn,
 *              #export-btn (disabled until a record is selected), #export-link (the <a download> it clicks),
 *              #readonly-chip (hidden unless /api/health says readOnly), #store-name
 *   Panes      #entities-pane, #records-pane, #detail-pane, each with data-state="idle|loading|ready|error"
 *              and a status line #entities-status, #records-status, #detail-status
 *              (data-kind="loading|empty|error|hint"; hidden when there is nothing to say)
 *   Entities   #entity-list > li.entity-item[data-entity][data-count][aria-current="true" when selected]
 *              with .entity-name and .entity-count
 *   Toolbar    #search-input, #search-attr, #display-attr, #sort-select, #order-btn[data-order="asc|desc"],
 *              #limit-select, #first-btn, #prev-btn, #next-btn, #last-btn, #page-input, #page-indicator
 *              ("1–100 of 312", numbers grouped by the browser's locale), #export-view-btn (the list as a
 *              CSV / NDJSON file: export.js's menu and progress panel), #query-btn (query.js's drawer: the SQL
 *              and plan behind the page)
 *   Predicates #where-btn (predicate.js's filter panel), #facets-btn (facets.js), #swift-btn (swift.js: Copy as Swift),
 *              #where-chip (the active where=, canonical; .where-clear removes it); in the detail, beside a value of the
 *              list's entity, button.filter-value ("Filter by this value") and button.facet-attr (its facets)
 *   Scope      #scope-chip (shown for ?relatedTo=<id>&via=<rel>) with #scope-text and #scope-clear
 *   Sidebar    #entity-filter, #hide-empty; .entity-item[data-depth][data-abstract] (sub-entities under their parent)
 *   Top bar    #model-line[data-source] (where the model came from; .is-warning when guessed from the tables)
 *   Records    #record-list (listbox, ArrowUp/ArrowDown/Home/End move the selection, PageUp/PageDown the page,
 *              Ctrl/Cmd+C copies the selected row's object ID, Shift+F10 / the context-menu key opens its copy menu)
 *              > li.record-row[data-id][data-entity][aria-selected] with .record-summary, .record-sub and, when
 *              sorted, .record-sort-value (the sorted attribute's value)
 *              (.record-sub holds .record-entity when the row's entity differs from the selected one)
 *   Detail     #detail[data-id][data-entity], #detail-entity, #detail-summary, #detail-id,
 *              #attr-table > tbody > tr.attr-row[data-attr][data-type] > td.attr-value > span.val (+ kind class),
 *              #rel-list > .rel-block[data-rel][data-destination] with .rel-count, a.rel-destination-link,
 *              a.rel-item[data-id][data-entity], .rel-more ("+N more") holding a.rel-show-all, .rel-empty;
 *              #copy-id-btn, #copy-json-btn; long strings clamped (shared.js longValue: .long-value[data-length]
 *              with .long-value-count and button.show-all-value)
 *   Values     span.val plus one kind: val-string val-empty val-number val-nonfinite val-true val-false
 *              val-date val-uuid val-binary val-error val-null val-other; big integers sent as strings are
 *              "val-number val-bigint" (exact digits), Decimals "val-number val-decimal" (the string as sent);
 *              val-date carries data-iso (the stored value) and shows it in the #date-zone choice's zone
 *   Invisible  span.cdb-invisible[data-code="202E"][title="RIGHT-TO-LEFT OVERRIDE (U+202E)"] stands for each
 *              bidi control, zero-width or control character in displayed text (web/shared.js; el() does it)
 *   Dates      #date-zone (select: local | utc), stored in localStorage "cdb.dateZone" (shared with the Lab)
 *   Splitters  #splitter-left, #splitter-right; sizes persisted in localStorage "cdb.inspector.panes"
 *              as {"left": px, "right": px}
 *   Storage    localStorage "cdb.preferredView" = "inspector" on every load of this page; "cdb.hideEmpty";
 *              "cdb.displayAttributes" = {"<store>": {"<Entity>": "attr" | ["attr", "attr"]}} (the "Name by" choices, shared.js)
 *   Keyboard   "/" focuses the search box
 */
'use strict';

(() => {
  // ---------------------------------------------------------------------------------------------
  // Constants and DOM handles (every selector is defined here, once)
  // ---------------------------------------------------------------------------------------------

  const DEFAULT_LIMIT = 100;
  const MAX_LIMIT = 500;
  const SEARCH_DEBOUNCE_MS = 250;
  const PANES_KEY = 'cdb.inspector.panes';
  const PANE_DEFAULTS = { left: 240, right: 420 };
  const PANE_MIN = { left: 160, middle: 280, right: 240 };
  const SPLITTER_KEY_STEP = 16;
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
    /** Whether the server writes (/api/health's capabilities): the editing controls exist only then. */
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
  let refocusDetail = false;
  let searchTimer = 0;

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
    const url = urlForView(view);
    const current = window.location.pathname + window.location.search;
    if (mode === 'push' && url !== current) {
      window.history.pushState(null, '', url);
    } else {
      window.history.replaceState(null, '', url);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Fetching
  // ---------------------------------------------------------------------------------------------

  /** Starts a request of one kind, aborting the previous request of that kind. */
  function begin(kind) {
    if (inflight[kind]) inflight[kind].abort();
    const controller = new AbortController();
    inflight[kind] = controller;
    return controller.signal;
  }

  const isAbort = (err) => err && err.name === 'AbortError';

  function errorText(err) {
    if (err instanceof ApiError) return err.status ? `${err.status} · ${err.message}` : err.message;
    return String(err && err.message ? err.message : err);
  }

  // ---------------------------------------------------------------------------------------------
  // DOM helpers
  // ---------------------------------------------------------------------------------------------

  /** shared.js: invisible characters shown as markers, dates in the chosen zone. */
  const { el, apiPath, viewURL, ApiError, getJSON, entityFromId, shortId, markChange, countDelta, setVisibleText, visibleText, formatDate, readDateZone, repaintDates,
    wireDateZoneSelect, readHideEmpty, writeHideEmpty, shownEntities, entityTitle, formatCount,
    steppedOffset } = window.CDBShared;

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

  // ---------------------------------------------------------------------------------------------
  // Value rendering (shared by every place that shows an attribute value)
  // ---------------------------------------------------------------------------------------------

  const INTEGER_TYPES = new Set(['Integer 16', 'Integer 32', 'Integer 64']);
  const FLOAT_TYPES = new Set(['Double', 'Float']);
  const NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

  /**
   * Renders one attribute value as a <span class="val val-KIND">, reading the attribute's type
   * from /api/entities because a JSON string may be text, a big integer, a Decimal or a non-finite double.
   */
  function renderValue(value, type) {
    // kind may name several classes: "number bigint" -> class="val val-number val-bigint".
    const span = (kind, text, title) => {
      const node = el('span', ['val', ...kind.split(' ').map((k) => `val-${k}`)].join(' '), text);
      if (title) node.title = visibleText(title);
      return node;
    };

    if (value === null || value === undefined) return span('null', 'null');

    if (typeof value === 'object') {
      if (value.type === 'binary') {
        const bytes = Number.isFinite(value.bytes) ? value.bytes : '?';
        return span('binary', `‹binary, ${formatCount(bytes)} byte${bytes === 1 ? '' : 's'}›`, `${type || 'Binary'} value; contents are not sent`);
      }
      if (value.type === 'error') {
        const message = typeof value.message === 'string' ? value.message : 'undecodable value';
        return span('error', `⚠ ${message}`, `The store could not decode this value: ${message}`);
      }
      return span('other', JSON.stringify(value));
    }

    if (typeof value === 'boolean') return span(value ? 'true' : 'false', value ? 'true' : 'false');

    if (INTEGER_TYPES.has(type)) {
      // Integers beyond ±(2^53−1) arrive as strings: show the exact digits, never a rounded Number.
      if (typeof value === 'string') return span('number bigint', value, 'Exact integer (beyond JavaScript’s safe range)');
      return span('number', String(value));
    }
    if (FLOAT_TYPES.has(type)) {
      if (typeof value === 'string') {
        return NON_FINITE.has(value) ? span('nonfinite', value, 'Non-finite floating-point value') : span('other', value);
      }
      return span('number', String(value));
    }
    if (type === 'Decimal') return span('number decimal', String(value));
    if (type === 'Date' && typeof value === 'string') {
      // Local time or UTC (the top bar's "Dates" choice), the zone named in the text; the title gives the
      // other zone and the stored value.
      const shown = formatDate(value, readDateZone());
      if (!shown) return span('date', value, 'Not a date the browser can read: shown as stored');
      const node = span('date', shown.text, shown.title);
      node.dataset.iso = value;
      return node;
    }
    if (type === 'UUID') return span('uuid', String(value));
    if (typeof value === 'number') return span('number', String(value));
    if (typeof value === 'string') {
      if (value === '') return span('empty', '""', 'Empty string');
      return span('string', value);
    }
    return span('other', String(value));
  }

  // ---------------------------------------------------------------------------------------------
  // Health (top-bar chip)
  // ---------------------------------------------------------------------------------------------

  async function loadHealth() {
    const signal = begin('health');
    try {
      const health = await getJSON('/api/health', signal);
      dom.readOnlyChip.hidden = health.readOnly !== true;
      const caps = Array.isArray(health.capabilities) ? health.capabilities.join(', ') : '';
      dom.readOnlyChip.title = caps ? `Capabilities: ${caps}` : 'The server is read-only';
      dom.storeName.textContent = typeof health.store === 'string' ? health.store : '';
      dom.storeName.title = dom.storeName.textContent;
      dom.storeName.classList.remove('is-error');
      const storeChanged = data.storeKey !== dom.storeName.textContent;
      data.storeKey = dom.storeName.textContent;
      window.CDBShared.showModelLine(dom.modelLine, health.model);
      renderToolbar();
      // A page drawn before the store was known used no store's choices: its names may differ now.
      if (storeChanged) repaintNames();
    } catch (err) {
      if (isAbort(err)) return;
      dom.readOnlyChip.hidden = true;
      dom.storeName.textContent = `Health check failed: ${errorText(err)}`;
      dom.storeName.title = dom.storeName.textContent;
      dom.storeName.classList.add('is-error');
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Entities pane
  // ---------------------------------------------------------------------------------------------

  function loadEntities() {
    const signal = begin('entities');
    setStatus(dom.entitiesPane, dom.entitiesStatus, 'loading', data.entities.length ? null : 'loading', 'Loading entities…');
    const done = (async () => {
      try {
        const entities = await getJSON('/api/entities', signal);
        if (!Array.isArray(entities)) throw new ApiError('Unexpected answer from /api/entities', 200);
        data.entities = entities;
        data.entityByName = new Map(entities.map((e) => [e.name, e]));
        // Counts are compared with those of when the person came to the list on screen.
        const key = listKey(view);
        if (!since.counts || since.counts.key !== key) {
          since.counts = { key, counts: new Map(entities.map((e) => [e.name, e.count])) };
        }
        renderEntities();
        renderToolbar();
        if (entities.length) {
          setStatus(dom.entitiesPane, dom.entitiesStatus, 'ready', null);
        } else {
          setStatus(dom.entitiesPane, dom.entitiesStatus, 'ready', 'empty', 'This model has no entities.');
        }
      } catch (err) {
        if (isAbort(err)) return;
        setStatus(dom.entitiesPane, dom.entitiesStatus, 'error', 'error', errorText(err));
      }
    })();
    data.entitiesLoaded = done;
    return done;
  }

  function renderEntities() {
    const items = [];
    const shown = shownEntities(data.entities, { filter: dom.entityFilter.value, hideEmpty: dom.hideEmpty.checked, selected: view.entity });
    for (const { entity, depth } of shown) {
      const li = el('li', 'entity-item');
      li.dataset.entity = entity.name;
      li.dataset.count = String(entity.count);
      li.dataset.depth = String(depth);
      li.style.setProperty('--depth', String(depth));
      const button = el('button', 'entity-button');
      button.type = 'button';
      button.tabIndex = -1; // one tab stop for the whole list: arrow keys move inside it
      button.append(el('span', 'entity-name', entity.name));
      if (entity.abstract) {
        li.dataset.abstract = 'true';
        button.append(el('span', 'entity-badge', 'abstract'));
      }
      button.title = visibleText(entityTitle(entity));
      button.append(el('span', 'entity-count', formatCount(entity.count)));
      const before = since.counts && since.counts.key === listKey(view) ? since.counts.counts.get(entity.name) : undefined;
      if (before !== undefined && before !== null && before !== entity.count) {
        const delta = entity.count - before;
        li.dataset.delta = String(delta);
        button.append(countDelta(delta));
      }
      li.append(button);
      items.push(li);
    }
    dom.entityList.replaceChildren(...items);
    markSelectedEntity();
  }

  function onEntityFilterInput() {
    renderEntities();
  }

  function onHideEmptyChange() {
    writeHideEmpty(dom.hideEmpty.checked);
    renderEntities();
  }

  function markSelectedEntity() {
    for (const li of dom.entityList.children) {
      if (li.dataset.entity === view.entity) {
        li.setAttribute('aria-current', 'true');
        li.classList.add('active');
      } else {
        li.removeAttribute('aria-current');
        li.classList.remove('active');
      }
    }
  }

  function onEntityClick(event) {
    const item = event.target.closest('.entity-item');
    if (!item || !dom.entityList.contains(item)) return;
    const name = item.dataset.entity;
    if (name === view.entity) return;
    selectEntity(name);
  }

  function selectEntity(name) {
    view = { ...emptyView(), entity: name, limit: view.limit };
    commitView('push');
    markSelectedEntity();
    renderToolbar();
    syncSearchInput();
    loadPage();
    loadDetail();
  }

  // ---------------------------------------------------------------------------------------------
  // Records pane: toolbar
  // ---------------------------------------------------------------------------------------------

  function renderToolbar() {
    const entity = data.entityByName.get(view.entity);
    const attributes = entity ? entity.attributes : [];
    const stringAttrs = attributes.filter((a) => a.type === 'String');

    setOptions(dom.searchAttr, [{ value: '', label: 'All text' }, ...stringAttrs.map((a) => ({ value: a.name, label: a.name }))], view.searchAttr);
    const sortable = attributes.filter((a) => !UNSORTABLE_TYPES.has(a.type));
    setOptions(dom.sortSelect, [{ value: '', label: '(none)' }, ...sortable.map((a) => ({ value: a.name, label: a.name }))], view.sort);
    const fallback = entity && entity.summaryAttribute ? `Name: ${entity.summaryAttribute} (default)` : 'Name: default';
    const chosen = displayChoice(view.entity);
    setOptions(dom.displayAttr, [{ value: '', label: fallback }, ...stringAttrs.map((a) => ({ value: a.name, label: `Name: ${a.name}` }))],
      chosen[0] || '');
    // A second attribute, for names made of two (firstName lastName).
    setOptions(dom.displayAttr2, [{ value: '', label: '+ (nothing)' },
      ...stringAttrs.filter((a) => a.name !== chosen[0]).map((a) => ({ value: a.name, label: `+ ${a.name}` }))], chosen[1] || '');
    dom.displayAttr2.hidden = !chosen[0];
    // Keep a value from the URL that the schema does not know, so the server's 400 explains it.
    if (view.searchAttr && dom.searchAttr.value !== view.searchAttr) addOrphanOption(dom.searchAttr, view.searchAttr);
    if (view.sort && dom.sortSelect.value !== view.sort) addOrphanOption(dom.sortSelect, view.sort);

    const limitText = String(view.limit);
    if (![...dom.limitSelect.options].some((o) => o.value === limitText)) {
      const option = el('option', null, limitText);
      option.value = limitText;
      dom.limitSelect.append(option);
    }
    dom.limitSelect.value = limitText;
    renderOrder();

    const enabled = Boolean(view.entity);
    for (const control of [dom.searchInput, dom.searchAttr, dom.displayAttr, dom.sortSelect, dom.orderBtn, dom.limitSelect,
      dom.exportViewBtn, dom.queryBtn, dom.whereBtn, dom.facetsBtn, dom.swiftBtn]) {
      control.disabled = !enabled;
    }
    const create = byId('new-record-btn');
    if (create) create.disabled = !entity || entity.isAbstract;
  }

  // ---------------------------------------------------------------------------------------------
  // Display attributes: which attribute names the records (the server's choice unless the user picked one)
  // ---------------------------------------------------------------------------------------------

  /** The attributes the user picked for the entity's names in this store (shared.js), [] for the default. */
  function displayChoice(entityName) {
    return window.CDBShared.displayChoices(data.storeKey, entityName);
  }

  function onDisplayAttrChange() {
    const first = dom.displayAttr.value;
    const second = first ? dom.displayAttr2.value : '';
    window.CDBShared.setDisplayChoices(data.storeKey, view.entity, [first, second !== first ? second : '']);
    renderToolbar();
    repaintNames();
  }

  /** The list on screen for "Export view" (export.js): the same parameters as its pages, without paging. */
  function describeExport() {
    if (!view.entity) return null;
    const shown = data.page && data.pageView && data.pageView.entity === view.entity ? data.page.total : null;
    return {
      entity: view.entity,
      params: {
        search: view.search,
        searchAttr: view.searchAttr,
        where: view.where,
        sort: view.sort,
        order: view.order === 'desc' ? 'desc' : '',
        relatedTo: view.relatedTo,
        via: view.via,
      },
      total: shown,
    };
  }

  /** The page on screen for the Query drawer (query.js): the list's parameters with its limit and offset. */
  function describeQuery() {
    const list = describeExport();
    if (!list) return null;
    return { entity: list.entity, params: { ...list.params, limit: view.limit, offset: view.offset } };
  }

  /** Redraws the names on screen after the "Name by" choice or the store it is kept under changed. */
  function repaintNames() {
    if (data.page && data.pageView) renderRecords(data.page, data.pageView);
    if (view.id) loadDetail();
  }

  /** The "Dates" choice changed (here or in another tab): the dates on screen are redrawn, nothing is fetched. */
  function onDateZoneChange(zone) {
    repaintDates(dom.layout, zone);
  }

  /** A record's name: the user's chosen attributes' values (joined by a space) when any has one, else the
   *  server's summary. */
  function nameOf(record) {
    const own = displayChoice(record.entity);
    return window.CDBShared.displayName(record.attrs, own.length ? own : displayChoice(view.entity), record.summary);
  }

  /** Puts view.search into the search box; only on navigation, so text still being typed is not lost. */
  function syncSearchInput() {
    window.clearTimeout(searchTimer);
    if (dom.searchInput.value !== view.search) dom.searchInput.value = view.search;
  }

  function addOrphanOption(select, value) {
    const option = el('option', null, `${value} (unknown)`);
    option.value = value;
    select.append(option);
    select.value = value;
  }

  function renderOrder() {
    const desc = view.order === 'desc';
    dom.orderBtn.dataset.order = view.order;
    dom.orderBtn.textContent = desc ? '↓ desc' : '↑ asc';
    dom.orderBtn.setAttribute('aria-label', `Sort order: ${desc ? 'descending' : 'ascending'}`);
  }

  /** Applies a change to the query part of the view (search, sort, …), starting again at the first page. */
  function refineQuery(changes, { resetOffset = true } = {}) {
    view = { ...view, ...changes };
    if (resetOffset) view.offset = 0;
    commitView('replace');
    loadPage();
  }

  function onSearchInput() {
    window.clearTimeout(searchTimer);
    searchTimer = window.setTimeout(() => {
      if (dom.searchInput.value !== view.search) refineQuery({ search: dom.searchInput.value });
    }, SEARCH_DEBOUNCE_MS);
  }

  function onSearchKey(event) {
    if (event.key === 'Enter') {
      window.clearTimeout(searchTimer);
      if (dom.searchInput.value !== view.search) refineQuery({ search: dom.searchInput.value });
    }
  }

  function onSearchAttrChange() {
    view = { ...view, searchAttr: dom.searchAttr.value, offset: view.search ? 0 : view.offset };
    commitView('replace');
    if (view.search) loadPage();
  }

  function onSortChange() {
    refineQuery({ sort: dom.sortSelect.value });
  }

  function onOrderClick() {
    refineQuery({ order: view.order === 'desc' ? 'asc' : 'desc' });
    renderOrder();
  }

  function onLimitChange() {
    const limit = parsePositiveInt(dom.limitSelect.value, DEFAULT_LIMIT, { min: 1, max: MAX_LIMIT });
    // Keep the first visible record on screen: start the new page at a multiple of the new size.
    refineQuery({ limit, offset: Math.floor(view.offset / limit) * limit }, { resetOffset: false });
  }

  function onPageStep(direction) {
    const page = data.page;
    // Within the first and last pages (the last page's offset is a multiple of the page size, as Last's is).
    const offset = page ? steppedOffset(view.offset, direction, view.limit, page.total) : Math.max(0, view.offset + direction * view.limit);
    if (offset === view.offset) return;
    refineQuery({ offset }, { resetOffset: false });
  }

  /** The first page, or the last one: the last of a million rows is one click away. */
  function onPageJump(toEnd) {
    const page = data.page;
    const offset = toEnd && page ? lastPageOffset(page.total) : 0;
    if (offset !== view.offset) refineQuery({ offset }, { resetOffset: false });
  }

  function lastPageOffset(total) {
    return window.CDBShared.lastPageOffset(total, view.limit);
  }

  function onScopeClear() {
    refineQuery({ relatedTo: '', via: '' });
    renderScope();
  }

  /** The "related to" chip: which record and relationship restrict the list, with a button to remove it. */
  function renderScope() {
    if (!view.relatedTo) {
      dom.scopeChip.hidden = true;
      return;
    }
    // "Related to Émile Zola (Author) through books": the record's name once it is known (shared.js).
    window.CDBShared.showScope(dom.scopeText, view.relatedTo, view.via, data.storeKey);
    dom.scopeChip.title = view.relatedTo;
    dom.scopeChip.hidden = false;
  }

  // ---------------------------------------------------------------------------------------------
  // Records pane: list
  // ---------------------------------------------------------------------------------------------

  async function loadPage() {
    const signal = begin('page');
    if (!view.entity) {
      inflight.page = null;
      data.page = null;
      dom.recordList.replaceChildren();
      renderPager();
      setStatus(dom.recordsPane, dom.recordsStatus, 'idle', 'hint', 'Pick an entity on the left.');
      return;
    }
    // Rows already on screen stay (dimmed by CSS) until the new page arrives, so the list does not jump.
    setStatus(dom.recordsPane, dom.recordsStatus, 'loading', dom.recordList.children.length ? null : 'loading', 'Loading records…');
    const requested = { ...view };
    const path = apiPath(`/api/entities/${encodeURIComponent(requested.entity)}`, {
      search: requested.search,
      searchAttr: requested.searchAttr,
      where: requested.where,
      sort: requested.sort,
      order: requested.order === 'desc' ? 'desc' : '',
      limit: requested.limit,
      offset: requested.offset,
      relatedTo: requested.relatedTo,
      via: requested.via,
    });
    renderScope();
    try {
      const page = await getJSON(path, signal);
      if (signal.aborted) return;
      data.page = page;
      data.pageView = requested;
      renderRecords(page, requested);
      window.CDBQuery.pageShown();
      window.CDBPredicate.viewChanged();
      renderPager();
      if (!page.rows.length) {
        const message = page.total > 0
          ? `No records on this page (${formatCount(page.total)} in all).`
          : requested.search || requested.where ? `No ${requested.entity} records match ${[requested.search ? `“${requested.search}”` : '', requested.where ? 'the filter' : ''].filter(Boolean).join(' and ')}.` : `No ${requested.entity} records.`;
        setStatus(dom.recordsPane, dom.recordsStatus, 'ready', 'empty', message);
      } else {
        setStatus(dom.recordsPane, dom.recordsStatus, 'ready', null);
      }
    } catch (err) {
      if (isAbort(err)) return;
      data.page = null;
      dom.recordList.replaceChildren();
      renderPager();
      setStatus(dom.recordsPane, dom.recordsStatus, 'error', 'error', errorText(err));
      window.CDBPredicate.viewChanged(); // a filter the store refuses stays on screen, to edit or clear
    }
  }

  function renderRecords(page, requested) {
    const rows = Array.isArray(page.rows) ? page.rows : [];
    const items = rows.map((row) => {
      const li = el('li', 'record-row');
      li.setAttribute('role', 'option');
      li.id = `record-${shortId(row.id)}-${row.entity}`;
      li.dataset.id = row.id;
      li.dataset.entity = row.entity;
      const name = nameOf(row);
      li.append(el('span', 'record-summary', name));
      const sub = el('span', 'record-sub');
      if (row.entity !== requested.entity) sub.append(el('span', 'record-entity', row.entity), ' · ');
      sub.append(el('span', 'record-pk', shortId(row.id)));
      li.append(sub);
      if (requested.sort) {
        // The sorted attribute's value, so a sort can be checked by eye.
        const schema = data.entityByName.get(requested.entity);
        const type = schema ? (schema.attributes.find((a) => a.name === requested.sort) || {}).type : '';
        const holder = el('span', 'record-sort-value');
        holder.append(renderValue(row.attrs ? row.attrs[requested.sort] : null, type));
        li.append(holder);
      }
      li.title = visibleText(name);
      return li;
    });
    const key = listKey(requested);
    const scrollTop = dom.recordList.scrollTop;
    const sameList = since.page && since.page.key === key;
    if (sameList) {
      // The same list again (Live or Refresh): mark what changed since it was first drawn.
      const shown = new Set(rows.map((row) => row.id));
      rows.forEach((row, index) => {
        const before = since.page.rows.get(row.id);
        if (!before) markChange(items[index], 'created', 'New since you looked');
        else if (before.json !== JSON.stringify(row.attrs)) markChange(items[index], 'changed', 'Changed since you looked');
      });
      for (const id of since.page.order) {
        if (shown.has(id)) continue;
        const gone = since.page.rows.get(id).row;
        const ghost = el('li', 'record-row record-ghost');
        ghost.dataset.id = gone.id;
        ghost.dataset.entity = gone.entity;
        ghost.setAttribute('aria-disabled', 'true');
        ghost.append(el('span', 'record-summary', nameOf(gone)), el('span', 'record-sub', `${shortId(gone.id)} · no longer in this list`));
        markChange(ghost, 'deleted', 'Gone since you looked (deleted, or moved out of this list)');
        items.push(ghost);
      }
    } else {
      since.page = {
        key,
        order: rows.map((row) => row.id),
        rows: new Map(rows.map((row) => [row.id, { json: JSON.stringify(row.attrs), row }])),
      };
    }
    dom.recordList.replaceChildren(...items);
    dom.recordList.dataset.entity = requested.entity;
    markSelectedRecord();
    // A redraw of the same list keeps the reader's place; a new list starts at the top.
    dom.recordList.scrollTop = sameList ? scrollTop : 0;
  }

  function renderPager() {
    const page = data.page;
    if (!page) {
      dom.pageIndicator.textContent = '';
      for (const button of [dom.firstBtn, dom.prevBtn, dom.nextBtn, dom.lastBtn, dom.pageInput]) button.disabled = true;
      return;
    }
    const count = Array.isArray(page.rows) ? page.rows.length : 0;
    const first = page.offset + 1;
    const last = page.offset + count;
    dom.pageIndicator.textContent = count
      ? `${formatCount(first)}–${formatCount(last)} of ${formatCount(page.total)}`
      : `0 of ${formatCount(page.total)}`;
    dom.prevBtn.disabled = page.offset <= 0;
    dom.firstBtn.disabled = page.offset <= 0;
    dom.nextBtn.disabled = page.offset + page.limit >= page.total;
    dom.lastBtn.disabled = page.offset >= lastPageOffset(page.total);
    dom.pageInput.disabled = page.total <= page.limit;
    dom.pageInput.placeholder = `page / ${formatCount(Math.max(1, Math.ceil(page.total / page.limit)))}`;
  }

  function markSelectedRecord() {
    let selected = null;
    for (const li of dom.recordList.children) {
      const on = Boolean(view.id) && li.dataset.id === view.id;
      li.setAttribute('aria-selected', on ? 'true' : 'false');
      li.classList.toggle('active', on);
      if (on) selected = li;
    }
    if (selected) {
      dom.recordList.setAttribute('aria-activedescendant', selected.id);
    } else {
      dom.recordList.removeAttribute('aria-activedescendant');
    }
    return selected;
  }

  /** The copy menu of a list row (right-click, or Shift+F10 / the context-menu key on the selected row). */
  function openRowMenu(id, x, y) {
    closeRowMenu();
    const row = data.page && Array.isArray(data.page.rows) ? data.page.rows.find((r) => r.id === id) : null;
    if (!row) return;
    const menu = el('div', 'row-menu');
    menu.id = 'row-menu';
    menu.setAttribute('role', 'menu');
    const item = (label, action, text) => {
      const button = el('button', 'row-menu-item', label);
      button.type = 'button';
      button.dataset.action = action;
      button.setAttribute('role', 'menuitem');
      button.addEventListener('click', () => {
        closeRowMenu();
        window.CDBShared.copyText(text);
      });
      return button;
    };
    menu.append(
      item('Copy object ID', 'copy-id', row.id),
      item('Copy row as JSON', 'copy-json', window.CDBShared.recordJSON(row)),
    );
    document.body.append(menu);
    const rect = menu.getBoundingClientRect();
    menu.style.left = `${Math.max(8, Math.min(x, window.innerWidth - rect.width - 8))}px`;
    menu.style.top = `${Math.max(8, Math.min(y, window.innerHeight - rect.height - 8))}px`;
    menu.querySelector('button').focus();
    menu.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        closeRowMenu();
        dom.recordList.focus({ preventScroll: true });
      }
    });
  }

  function closeRowMenu() {
    const menu = document.getElementById('row-menu');
    if (menu) menu.remove();
  }

  function onRecordContextMenu(event) {
    const row = event.target.closest('.record-row');
    if (!row || !dom.recordList.contains(row)) return;
    event.preventDefault();
    openRowMenu(row.dataset.id, event.clientX, event.clientY);
  }

  function onRecordClick(event) {
    const row = event.target.closest('.record-row');
    // A ghost stands for a record that is gone: there is nothing to open.
    if (!row || !dom.recordList.contains(row) || row.classList.contains('record-ghost')) return;
    dom.recordList.focus({ preventScroll: true });
    selectRecord(row.dataset.id, 'push');
  }

  function selectRecord(id, mode) {
    if (id === view.id) return;
    view = { ...view, id };
    commitView(mode);
    const row = markSelectedRecord();
    if (row) row.scrollIntoView({ block: 'nearest' });
    loadDetail();
  }

  function onRecordKey(event) {
    const rows = [...dom.recordList.children].filter((li) => !li.classList.contains('record-ghost'));
    if (!rows.length) return;
    if (view.id && (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10'))) {
      event.preventDefault();
      const selected = rows.find((li) => li.dataset.id === view.id);
      const rect = (selected || dom.recordList).getBoundingClientRect();
      openRowMenu(view.id, rect.left + 24, rect.bottom);
      return;
    }
    if (view.id && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'c'
        && !(window.getSelection() && window.getSelection().toString())) {
      // Cmd/Ctrl+C on the selected row with no text selected: its object ID, as in the Lab (the row's JSON is in
      // its menu: Shift+F10).
      event.preventDefault();
      window.CDBShared.copyText(view.id);
      return;
    }
    const current = rows.findIndex((li) => li.dataset.id === view.id);
    let next = -1;
    switch (event.key) {
      case 'ArrowDown': next = current < 0 ? 0 : Math.min(rows.length - 1, current + 1); break;
      case 'ArrowUp': next = current < 0 ? rows.length - 1 : Math.max(0, current - 1); break;
      case 'Home': next = 0; break;
      case 'End': next = rows.length - 1; break;
      case 'PageDown': event.preventDefault(); onPageStep(1); return;
      case 'PageUp': event.preventDefault(); onPageStep(-1); return;
      default: return;
    }
    event.preventDefault();
    if (next !== current) selectRecord(rows[next].dataset.id, 'replace');
  }

  // ---------------------------------------------------------------------------------------------
  // Detail pane
  // ---------------------------------------------------------------------------------------------

  async function loadDetail() {
    const signal = begin('detail');
    const id = view.id;
    dom.exportBtn.disabled = !id;
    if (!id) {
      inflight.detail = null;
      dom.detail.replaceChildren();
      delete dom.detail.dataset.id;
      delete dom.detail.dataset.entity;
      setStatus(dom.detailPane, dom.detailStatus, 'idle', 'hint', view.entity ? 'Select a record to see its attributes and relationships.' : 'Nothing selected.');
      updateTitle(null);
      return;
    }
    setStatus(dom.detailPane, dom.detailStatus, 'loading', dom.detail.children.length ? null : 'loading', 'Loading record…');
    try {
      const [object] = await Promise.all([getJSON(apiPath('/api/object', { id }), signal), data.entitiesLoaded]);
      if (signal.aborted) return;
      renderDetail(object);
      setStatus(dom.detailPane, dom.detailStatus, 'ready', null);
      updateTitle(object);
      if (refocusDetail) window.CDBShared.focusWithin(dom.detail, 'a.rel-item');
      refocusDetail = false;
    } catch (err) {
      if (isAbort(err)) return;
      dom.detail.replaceChildren();
      delete dom.detail.dataset.id;
      delete dom.detail.dataset.entity;
      setStatus(dom.detailPane, dom.detailStatus, 'error', 'error', errorText(err));
      updateTitle(null);
    }
  }

  function updateTitle(object) {
    const parts = [];
    if (object) parts.push(visibleText(object.summary));
    if (view.entity) parts.push(view.entity);
    parts.push('CoreDataBrowser');
    document.title = parts.join(' · ');
  }

  function renderDetail(object) {
    const schema = data.entityByName.get(object.entity);
    const types = new Map((schema ? schema.attributes : []).map((a) => [a.name, a.type]));

    const header = el('header', 'detail-header');
    const entityBadge = el('span', 'detail-entity', object.entity);
    entityBadge.id = 'detail-entity';
    const title = el('h2', 'detail-summary', nameOf(object));
    title.id = 'detail-summary';
    const idLine = el('code', 'detail-id', object.id);
    idLine.id = 'detail-id';
    idLine.title = 'Object ID (Core Data URI)';
    const copies = el('div', 'detail-copy');
    const copyID = el('button', 'copy-btn', 'Copy ID');
    copyID.type = 'button';
    copyID.id = 'copy-id-btn';
    copyID.dataset.copy = object.id;
    const copyJSON = el('button', 'copy-btn', 'Copy as JSON');
    copyJSON.type = 'button';
    copyJSON.id = 'copy-json-btn';
    copyJSON.dataset.copy = window.CDBShared.recordJSON(object);
    copies.append(copyID, copyJSON);
    if (data.writable) copies.append(...editingButtons(object, schema));
    header.append(entityBadge, title, idLine, copies);

    // Attributes: the schema's order (sorted by name), then anything the schema does not list.
    const attrs = object.attrs && typeof object.attrs === 'object' ? object.attrs : {};
    const names = schema ? schema.attributes.map((a) => a.name) : [];
    for (const name of Object.keys(attrs).sort()) if (!types.has(name)) names.push(name);

    const sameRecord = since.record && since.record.id === object.id;
    if (!sameRecord) since.record = { id: object.id, attrs: new Map(Object.entries(attrs).map(([k, v]) => [k, JSON.stringify(v)])) };
    const attrSection = el('section', 'detail-section');
    attrSection.append(el('h3', 'section-title', 'Attributes'));
    if (names.length) {
      const table = el('table', 'attr-table');
      table.id = 'attr-table';
      const head = el('thead');
      const headRow = el('tr');
      headRow.append(el('th', null, 'Name'), el('th', null, 'Type'), el('th', null, 'Value'));
      head.append(headRow);
      const body = el('tbody');
      for (const name of names) {
        const type = types.get(name) || '';
        const tr = el('tr', 'attr-row');
        tr.dataset.attr = name;
        tr.dataset.type = type;
        const valueCell = el('td', 'attr-value');
        const value = Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : null;
        valueCell.append(window.CDBShared.isLongValue(value)
          ? window.CDBShared.longValue(value, (text) => renderValue(text, type)) : renderValue(value, type));
        if (value && typeof value === 'object' && value.type === 'binary') appendContentControls(valueCell, object.id, name, value);
        window.CDBContent.markURL(valueCell.firstElementChild, value, type);
        const link = window.CDBContent.webLink(value);
        if (link) valueCell.append(link);
        appendFilterControls(valueCell, name, value);
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          const copy = el('button', 'copy-btn copy-value', '⧉');
          copy.type = 'button';
          copy.title = `Copy ${name}`;
          copy.setAttribute('aria-label', `Copy ${name}`);
          copy.dataset.copy = String(value);
          valueCell.append(copy);
        }
        const nameCell = el('td', 'attr-name', name);
        nameCell.title = visibleText(name);
        tr.append(nameCell, el('td', 'attr-type', type || '?'), valueCell);
        if (sameRecord && since.record.attrs.get(name) !== JSON.stringify(value)) {
          markChange(tr, 'changed', `Changed since you looked (was ${since.record.attrs.get(name) ?? 'absent'})`);
        }
        body.append(tr);
      }
      table.append(head, body);
      attrSection.append(table);
    } else {
      attrSection.append(el('p', 'section-empty', 'No attributes.'));
    }

    const relSection = el('section', 'detail-section');
    relSection.append(el('h3', 'section-title', 'Relationships'));
    const relationships = Array.isArray(object.relationships) ? object.relationships : [];
    if (relationships.length) {
      const list = el('div', 'rel-list');
      list.id = 'rel-list';
      for (const rel of relationships) list.append(renderRelationship(rel, object));
      relSection.append(list);
    } else {
      relSection.append(el('p', 'section-empty', 'No relationships.'));
    }

    dom.detail.replaceChildren(header, attrSection, relSection);
    dom.detail.dataset.id = object.id;
    dom.detail.dataset.entity = object.entity;
    dom.detail.scrollTop = 0;
    dom.detailPane.scrollTop = 0;
    // A redraw (Save, Live, Refresh) of the record being edited stays in Edit mode.
    if (data.writable && editingID === object.id) window.CDBRecordEditing.editDetail(dom.detail, object, schema);
  }

  // ------------------------------------------------------------------ Editing (issue 18: only when the server writes)

  /** The record whose detail is in Edit mode, or null. */
  let editingID = null;

  function editingButtons(object, schema) {
    const edit = el('button', 'copy-btn edit-record', editingID === object.id ? 'Editing' : 'Edit');
    edit.type = 'button';
    edit.id = 'edit-record-btn';
    edit.disabled = editingID === object.id || object.version === undefined;
    edit.addEventListener('click', () => {
      editingID = object.id;
      edit.disabled = true;
      edit.textContent = 'Editing';
      window.CDBRecordEditing.editDetail(dom.detail, object, schema);
    });
    const remove = el('button', 'copy-btn delete-record', 'Delete…');
    remove.type = 'button';
    remove.id = 'delete-record-btn';
    remove.addEventListener('click', () => window.CDBEditing.confirmDelete(object, () => {
      editingID = null;
      view = { ...view, id: null };
      commitView('replace');
      loadPage();
      loadDetail();
    }));
    return [edit, remove];
  }

  function wireEditing() {
    const E = window.CDBEditing;
    E.writable().then((writable) => {
      data.writable = writable;
      if (!writable) return;
      const create = el('button', 'control new-record', '+ New');
      create.type = 'button';
      create.id = 'new-record-btn';
      create.title = 'Create a record of this entity';
      create.addEventListener('click', () => {
        const schema = data.entityByName.get(view.entity);
        if (!schema || schema.isAbstract) return;
        window.CDBRecordEditing.openCreate(view.entity, schema, (created) => {
          loadPage();
          selectRecord(created.id, 'push');
        });
      });
      dom.exportViewBtn.after(create);
      renderToolbar();
      loadDetail();
    });
    E.onSaved(() => { loadPage(); loadDetail(); });
    E.onErrors((id, fields) => {
      if (dom.detail.dataset.id !== id) return;
      for (const { field, message } of fields) {
        const name = field.slice(field.indexOf('.') + 1);
        const host = field.startsWith('attrs.')
          ? dom.detail.querySelector(`tr.attr-row[data-attr="${CSS.escape(name)}"] .attr-value`)
          : dom.detail.querySelector(`.rel-block[data-rel="${CSS.escape(name)}"]`);
        if (!host) continue;
        const problem = host.querySelector('.field-error') || host.appendChild(el('div', 'field-error'));
        problem.hidden = false;
        problem.textContent = message;
      }
    });
  }

  /**
   * "Filter by this value" (the list's entity's attributes only: a sub-entity's own attribute is not the list's)
   * and the attribute's facets, beside a value in the detail pane.
   */
  function appendFilterControls(cell, attr, value) {
    const schema = data.entityByName.get(view.entity);
    const attribute = schema ? schema.attributes.find((a) => a.name === attr) : null;
    if (!attribute) return;
    const actions = el('span', 'attr-actions');
    const node = window.CDBPredicate.conditionFor(attr, value);
    if (node) {
      const filter = el('button', 'attr-action filter-value', '=');
      filter.type = 'button';
      filter.title = `Filter the list by this value (${window.CDBPredicate.formatTree(node, () => attribute.type)})`;
      filter.setAttribute('aria-label', `Filter the list by this ${attr}`);
      filter.addEventListener('click', () => window.CDBPredicate.addCondition(node));
      actions.append(filter);
    }
    if (window.CDBFacets.facetable(attribute.type)) {
      const facets = el('button', 'attr-action facet-attr', '▥');
      facets.type = 'button';
      facets.dataset.opensFacets = '';
      facets.title = `Facets of ${attr}: its values in the list, with counts`;
      facets.setAttribute('aria-label', `Facets of ${attr}`);
      facets.addEventListener('click', () => window.CDBFacets.open(attr, facets));
      actions.append(facets);
    }
    if (actions.children.length) cell.append(actions);
  }

  /**
   * A Binary or Transformable value: its summary fetched when it scrolls into view ("PNG 48×72 · 10 KB"), and a
   * "Look inside" button that opens the content viewer (content.js) in a row of its own below the attribute's,
   * across the whole table: the value column alone is too narrow for a hex view.
   */
  function appendContentControls(cell, id, attr, value) {
    const shown = cell.querySelector('.val-binary');
    if (shown) window.CDBContent.lazySummary(shown, id, attr);
    const look = el('button', 'copy-btn content-look', 'Look inside');
    look.type = 'button';
    look.setAttribute('aria-expanded', 'false');
    let opened = null;
    look.addEventListener('click', () => {
      if (opened) {
        opened.remove();
        opened = null;
        look.textContent = 'Look inside';
        look.setAttribute('aria-expanded', 'false');
        return;
      }
      opened = el('tr', 'attr-viewer-row');
      opened.dataset.viewerFor = attr;
      const wide = el('td');
      wide.colSpan = 3;
      wide.append(window.CDBContent.viewer(id, attr, Number.isFinite(value.bytes) ? value.bytes : 0));
      opened.append(wide);
      look.closest('tr').after(opened);
      look.textContent = 'Close';
      look.setAttribute('aria-expanded', 'true');
    });
    cell.append(look);
  }

  function renderRelationship(rel, object) {
    const block = el('div', 'rel-block');
    block.dataset.rel = rel.name;
    block.dataset.destination = rel.destination;

    const head = el('div', 'rel-head');
    head.append(
      el('span', 'rel-name', rel.name),
      el('span', 'rel-arrow', rel.toMany ? '→→' : '→'),
      destinationLink(rel.destination),
      el('span', 'rel-kind', rel.toMany ? (rel.ordered ? 'to-many, ordered' : 'to-many') : 'to-one'),
      el('span', 'rel-count', formatCount(rel.count)),
    );
    block.append(head);

    const items = Array.isArray(rel.items) ? rel.items : [];
    if (!items.length) {
      block.append(el('p', 'rel-empty', rel.toMany ? 'none' : 'nil'));
      return block;
    }
    const ul = el('ul', 'rel-items');
    for (const item of items) {
      const li = el('li');
      const link = el('a', 'rel-item');
      link.href = urlForView({ ...emptyView(), entity: rel.destination, id: item.id });
      link.dataset.id = item.id;
      link.dataset.entity = item.entity;
      link.dataset.destination = rel.destination;
      link.append(el('span', 'rel-item-summary', item.summary));
      if (item.entity !== rel.destination) link.append(el('span', 'rel-item-entity', item.entity));
      li.append(link);
      ul.append(li);
    }
    block.append(ul);
    if (rel.toMany && rel.count > 0) {
      const more = el('p', 'rel-more');
      if (rel.count > items.length) more.append(`+${formatCount(rel.count - items.length)} more · `);
      const all = el('a', 'rel-show-all', rel.count > items.length ? `show all ${formatCount(rel.count)} in the list` : 'open as a list');
      all.href = urlForView({ ...emptyView(), entity: rel.destination, relatedTo: object.id, via: rel.name });
      all.dataset.destination = rel.destination;
      all.dataset.relatedTo = object.id;
      all.dataset.via = rel.name;
      more.append(all);
      block.append(more);
    }
    return block;
  }

  function destinationLink(entity) {
    const link = el('a', 'rel-destination rel-destination-link', entity);
    link.href = urlForView({ ...emptyView(), entity });
    link.dataset.entity = entity;
    link.title = `Browse every ${entity}`;
    return link;
  }

  function onDetailClick(event) {
    const copy = event.target.closest('button.copy-btn');
    if (copy && dom.detail.contains(copy)) {
      window.CDBShared.copyFrom(copy);
      return;
    }
    const link = event.target.closest('a.rel-item, a.rel-show-all, a.rel-destination-link');
    if (!link || !dom.detail.contains(link)) return;
    // Let the browser handle new-tab / new-window clicks on the real href.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // Enter on a link (a click with no pointer: detail 0) keeps focus in the pane the view moved to, instead of
    // letting it fall to the page when the link is replaced: the followed record's detail, or the list.
    const fromKeyboard = event.detail === 0;
    if (link.classList.contains('rel-show-all')) {
      showRelatedList(link.dataset.destination, link.dataset.relatedTo, link.dataset.via);
      if (fromKeyboard) dom.recordList.focus();
    } else if (link.classList.contains('rel-destination-link')) {
      selectEntity(link.dataset.entity);
      if (fromKeyboard) dom.recordList.focus();
    } else {
      refocusDetail = fromKeyboard;
      openRelated(link.dataset.id, link.dataset.entity);
    }
  }

  /** Lists the destination's records restricted to what one record reaches through a relationship. */
  function showRelatedList(destination, relatedTo, via) {
    view = { ...emptyView(), entity: destination, limit: view.limit, relatedTo, via, id: view.id };
    commitView('push');
    markSelectedEntity();
    renderToolbar();
    syncSearchInput();
    loadPage();
  }

  /**
   * Follows a relationship to a record: its concrete entity is selected and the list opens on the page that
   * holds it (the server says at which offset it sits), so the record is always in view and selected.
   */
  async function openRelated(id, entity) {
    const row = [...dom.recordList.children].find((li) => li.dataset.id === id);
    if (row) {
      view = { ...view, id };
      commitView('push');
      markSelectedRecord().scrollIntoView({ block: 'nearest' });
      loadDetail();
      return;
    }
    let offset = 0;
    try {
      const position = await getJSON(apiPath(`/api/entities/${encodeURIComponent(entity)}/position`, { id, limit: view.limit }));
      offset = Number.isSafeInteger(position.pageOffset) ? position.pageOffset : 0;
    } catch (_) {
      offset = 0; // the detail pane then says what is wrong with the record
    }
    view = { ...emptyView(), entity, limit: view.limit, offset, id };
    commitView('push');
    markSelectedEntity();
    renderToolbar();
    syncSearchInput();
    loadPage();
    loadDetail();
  }

  // ---------------------------------------------------------------------------------------------
  // Top bar actions
  // ---------------------------------------------------------------------------------------------

  async function refresh() {
    dom.refreshBtn.disabled = true;
    dom.refreshBtn.setAttribute('aria-busy', 'true');
    try {
      await Promise.all([loadHealth(), loadEntities(), loadPage(), loadDetail()]);
    } finally {
      dom.refreshBtn.disabled = false;
      dom.refreshBtn.removeAttribute('aria-busy');
    }
  }

  function exportRecord() {
    if (!view.id) return;
    dom.exportLink.href = apiPath('/api/object/export', { id: view.id });
    // The file name is the server's (Content-Disposition), as in the Lab: one rule, in BrowserService.
    dom.exportLink.setAttribute('download', '');
    dom.exportLink.click();
  }

  // ---------------------------------------------------------------------------------------------
  // History
  // ---------------------------------------------------------------------------------------------

  function onPopState() {
    const previous = view;
    view = viewFromLocation();
    const listChanged = ['entity', 'search', 'searchAttr', 'where', 'sort', 'order', 'limit', 'offset', 'relatedTo', 'via']
      .some((key) => previous[key] !== view[key]);
    markSelectedEntity();
    renderToolbar();
    syncSearchInput();
    if (listChanged) loadPage(); else markSelectedRecord();
    if (previous.id !== view.id) loadDetail();
  }

  // ---------------------------------------------------------------------------------------------
  // Resizable panes
  // ---------------------------------------------------------------------------------------------

  let paneSizes = { ...PANE_DEFAULTS };

  function readPaneSizes() {
    try {
      const stored = JSON.parse(window.localStorage.getItem(PANES_KEY) || 'null');
      if (stored && typeof stored === 'object') {
        const sizes = { ...PANE_DEFAULTS };
        if (Number.isFinite(stored.left)) sizes.left = stored.left;
        if (Number.isFinite(stored.right)) sizes.right = stored.right;
        return sizes;
      }
    } catch (_) {
      // A malformed value falls back to the defaults.
    }
    return { ...PANE_DEFAULTS };
  }

  function savePaneSizes() {
    try {
      window.localStorage.setItem(PANES_KEY, JSON.stringify({ left: Math.round(paneSizes.left), right: Math.round(paneSizes.right) }));
    } catch (_) {
      // Storage may be unavailable (private mode); sizes then last for this page only.
    }
  }

  /** Keeps every pane at or above its minimum width within the layout's current width. */
  function clampPaneSizes(sizes) {
    const style = window.getComputedStyle(dom.layout);
    const inner = dom.layout.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - dom.splitterLeft.offsetWidth - dom.splitterRight.offsetWidth;
    let left = Math.max(PANE_MIN.left, sizes.left);
    let right = Math.max(PANE_MIN.right, sizes.right);
    const spare = inner - PANE_MIN.middle;
    if (left + right > spare) {
      // Shrink the one being squeezed last, but never below its minimum.
      right = Math.max(PANE_MIN.right, spare - left);
      left = Math.max(PANE_MIN.left, spare - right);
    }
    return { left, right };
  }

  function applyPaneSizes() {
    const { left, right } = clampPaneSizes(paneSizes);
    dom.layout.style.setProperty('--left-w', `${Math.round(left)}px`);
    dom.layout.style.setProperty('--right-w', `${Math.round(right)}px`);
  }

  function setupSplitter(splitter, side) {
    splitter.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      splitter.setPointerCapture(event.pointerId);
      const startX = event.clientX;
      const start = clampPaneSizes(paneSizes);
      document.body.classList.add('is-resizing');
      splitter.classList.add('is-dragging');

      const move = (e) => {
        const dx = e.clientX - startX;
        paneSizes = clampPaneSizes(side === 'left' ? { ...start, left: start.left + dx } : { ...start, right: start.right - dx });
        applyPaneSizes();
      };
      const end = () => {
        splitter.removeEventListener('pointermove', move);
        splitter.removeEventListener('pointerup', end);
        splitter.removeEventListener('pointercancel', end);
        document.body.classList.remove('is-resizing');
        splitter.classList.remove('is-dragging');
        savePaneSizes();
      };
      splitter.addEventListener('pointermove', move);
      splitter.addEventListener('pointerup', end);
      splitter.addEventListener('pointercancel', end);
    });

    splitter.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      const dx = event.key === 'ArrowLeft' ? -SPLITTER_KEY_STEP : SPLITTER_KEY_STEP;
      const start = clampPaneSizes(paneSizes);
      paneSizes = clampPaneSizes(side === 'left' ? { ...start, left: start.left + dx } : { ...start, right: start.right - dx });
      applyPaneSizes();
      savePaneSizes();
    });

    splitter.addEventListener('dblclick', () => {
      paneSizes = { ...paneSizes, [side]: PANE_DEFAULTS[side] };
      applyPaneSizes();
      savePaneSizes();
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Init (the single entry point)
  // ---------------------------------------------------------------------------------------------

  function rememberPreferredView() {
    try {
      window.localStorage.setItem('cdb.preferredView', 'inspector');
    } catch (_) {
      // Storage may be unavailable; the preference is only a convenience.
    }
  }

  function wireEvents() {
    dom.refreshBtn.addEventListener('click', refresh);
    // In-app Back/Forward: every navigation is a history entry (see commitView), so these are the browser's own.
    byId('nav-back').addEventListener('click', () => window.history.back());
    byId('nav-forward').addEventListener('click', () => window.history.forward());
    dom.exportBtn.addEventListener('click', exportRecord);
    window.CDBExport.attach(dom.exportViewBtn, describeExport);
    wireEditing();
    window.CDBQuery.attach(dom.queryBtn, describeQuery);
    window.CDBPredicate.attach({
      button: dom.whereBtn,
      chip: dom.whereChip,
      describe: () => view.entity && { entity: view.entity, where: view.where, storeKey: data.storeKey, params: describeQuery().params },
      entities: () => data.entities,
      apply: (where) => {
        if (where === view.where) return;
        view = { ...view, where, offset: 0 };
        commitView('push');
        loadPage();
      },
    });
    window.CDBSwift.attach(dom.swiftBtn);
    dom.facetsBtn.addEventListener('click', () => {
      const schema = data.entityByName.get(view.entity);
      const attrs = schema ? schema.attributes.filter((a) => window.CDBFacets.facetable(a.type)) : [];
      const first = attrs.find((a) => a.name === view.sort) || attrs[0];
      if (first) window.CDBFacets.open(first.name, dom.facetsBtn);
    });
    window.CDBLive.attach(byId('live-toggle'), refresh);
    dom.entityList.addEventListener('click', onEntityClick);
    dom.searchInput.addEventListener('input', onSearchInput);
    dom.searchInput.addEventListener('keydown', onSearchKey);
    dom.searchAttr.addEventListener('change', onSearchAttrChange);
    dom.sortSelect.addEventListener('change', onSortChange);
    dom.orderBtn.addEventListener('click', onOrderClick);
    dom.limitSelect.addEventListener('change', onLimitChange);
    dom.prevBtn.addEventListener('click', () => onPageStep(-1));
    dom.nextBtn.addEventListener('click', () => onPageStep(1));
    dom.firstBtn.addEventListener('click', () => onPageJump(false));
    dom.lastBtn.addEventListener('click', () => onPageJump(true));
    window.CDBShared.wirePageInput(dom.pageInput, () => data.page && { limit: view.limit, total: data.page.total }, (offset) => {
      if (offset !== view.offset) refineQuery({ offset }, { resetOffset: false });
    });
    dom.scopeClear.addEventListener('click', onScopeClear);
    dom.displayAttr.addEventListener('change', onDisplayAttrChange);
    dom.displayAttr2.addEventListener('change', onDisplayAttrChange);
    dom.entityFilter.addEventListener('input', onEntityFilterInput);
    dom.hideEmpty.addEventListener('change', onHideEmptyChange);
    dom.entityList.addEventListener('keydown', (event) => window.CDBShared.onEntityListKey(event, dom.entityList, view.entity, selectEntity));
    document.addEventListener('keydown', onGlobalKey);
    dom.recordList.addEventListener('click', onRecordClick);
    dom.recordList.addEventListener('contextmenu', onRecordContextMenu);
    dom.recordList.addEventListener('keydown', onRecordKey);
    document.addEventListener('pointerdown', (event) => {
      if (!event.target.closest('#row-menu')) closeRowMenu();
    });
    dom.detail.addEventListener('click', onDetailClick);
    window.addEventListener('popstate', onPopState);
    window.addEventListener('resize', applyPaneSizes);
    setupSplitter(dom.splitterLeft, 'left');
    setupSplitter(dom.splitterRight, 'right');
    wireDateZoneSelect(dom.dateZone, onDateZoneChange);
  }

  /** "/" focuses the search box (unless the user is typing somewhere). */
  function onGlobalKey(event) {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    event.preventDefault();
    dom.searchInput.focus();
    dom.searchInput.select();
  }

  function init() {
    rememberPreferredView();
    dom.hideEmpty.checked = readHideEmpty();
    paneSizes = readPaneSizes();
    applyPaneSizes();
    wireEvents();

    view = viewFromLocation();
    commitView('replace');
    renderToolbar();
    syncSearchInput();

    loadHealth();
    loadEntities();
    loadPage();
    loadDetail();
  }

  init();
})();
