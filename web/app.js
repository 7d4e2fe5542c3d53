/*
 * CoreDataBrowser — Inspector view (three panes: entities · records · detail).
 *
 * Vanilla ES2020, no framework, no build step. Data comes only from the JSON API (docs/API.md).
 * User data is always inserted with textContent / attributes, never parsed as HTML.
 *
 * View state lives in the URL, so Back/Forward, reload and a pasted link all restore the view:
 *   /?entity=Book&search=the&searchAttr=title&sort=pageCount&order=desc&limit=100&offset=0&id=<uri>
 * Empty values and defaults (order=asc, limit=100, offset=0) are left out of the URL.
 * History: selecting an entity, clicking a record or a related object pushes an entry; search, sort, order,
 * page size, paging and arrow-key moves replace the current one (they would flood the history otherwise).
 *
 * Stable hooks for tests (do not rename without updating scripts/ui-tests):
 *   Top bar    #tab-inspector, #tab-lab (a[aria-current="page"] marks the active view), #refresh-btn,
 *              #export-btn (disabled until a record is selected), #export-link (the <a download> it clicks),
 *              #readonly-chip (hidden unless /api/health says readOnly), #store-name
 *   Panes      #entities-pane, #records-pane, #detail-pane, each with data-state="idle|loading|ready|error"
 *              and a status line #entities-status, #records-status, #detail-status
 *              (data-kind="loading|empty|error|hint"; hidden when there is nothing to say)
 *   Entities   #entity-list > li.entity-item[data-entity][data-count][aria-current="true" when selected]
 *              with .entity-name and .entity-count
 *   Toolbar    #search-input, #search-attr, #sort-select, #order-btn[data-order="asc|desc"], #limit-select,
 *              #prev-btn, #next-btn, #page-indicator ("1–100 of 312")
 *   Records    #record-list (listbox, ArrowUp/ArrowDown/Home/End move the selection)
 *              > li.record-row[data-id][data-entity][aria-selected] with .record-summary and .record-sub
 *              (.record-sub holds .record-entity when the row's entity differs from the selected one)
 *   Detail     #detail[data-id][data-entity], #detail-entity, #detail-summary, #detail-id,
 *              #attr-table > tbody > tr.attr-row[data-attr][data-type] > td.attr-value > span.val (+ kind class),
 *              #rel-list > .rel-block[data-rel][data-destination] with .rel-count, a.rel-item[data-id][data-entity],
 *              .rel-more ("+N more"), .rel-empty
 *   Values     span.val plus one kind: val-string val-empty val-number val-nonfinite val-true val-false
 *              val-date val-uuid val-binary val-error val-null val-other; big integers sent as strings are
 *              "val-number val-bigint" (exact digits), Decimals "val-number val-decimal" (the string as sent)
 *   Splitters  #splitter-left, #splitter-right; sizes persisted in localStorage "cdb.inspector.panes"
 *              as {"left": px, "right": px}
 *   Storage    localStorage "cdb.preferredView" = "inspector" on every load of this page
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

  const byId = (id) => document.getElementById(id);
  const dom = {
    layout: byId('layout'),
    storeName: byId('store-name'),
    readOnlyChip: byId('readonly-chip'),
    refreshBtn: byId('refresh-btn'),
    exportBtn: byId('export-btn'),
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
    /** Last rendered page response. */
    page: null,
  };

  /** One AbortController per kind of request: a newer request supersedes the older one. */
  const inflight = { health: null, entities: null, page: null, detail: null };
  let searchTimer = 0;

  function emptyView() {
    return { entity: '', search: '', searchAttr: '', sort: '', order: 'asc', limit: DEFAULT_LIMIT, offset: 0, id: '' };
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
    v.sort = q.get('sort') || '';
    v.order = q.get('order') === 'desc' ? 'desc' : 'asc';
    v.limit = parsePositiveInt(q.get('limit'), DEFAULT_LIMIT, { min: 1, max: MAX_LIMIT });
    v.offset = parsePositiveInt(q.get('offset'), 0);
    v.id = q.get('id') || '';
    // A link to a record alone (/?id=…, as the Lab's double-click opens) still shows its entity's list.
    if (!v.entity && v.id) v.entity = entityFromId(v.id) || '';
    return v;
  }

  function urlForView(v) {
    const q = new URLSearchParams();
    if (v.entity) q.set('entity', v.entity);
    if (v.search) q.set('search', v.search);
    if (v.searchAttr) q.set('searchAttr', v.searchAttr);
    if (v.sort) q.set('sort', v.sort);
    if (v.order !== 'asc') q.set('order', v.order);
    if (v.limit !== DEFAULT_LIMIT) q.set('limit', String(v.limit));
    if (v.offset !== 0) q.set('offset', String(v.offset));
    if (v.id) q.set('id', v.id);
    const text = q.toString();
    return text ? `/?${text}` : '/';
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

  /** "x-coredata://<store>/Book/p12" -> "Book" (or null). */
  function entityFromId(id) {
    const m = /\/([^/]+)\/p\d+$/.exec(id);
    return m ? decodeURIComponent(m[1]) : null;
  }

  function shortId(id) {
    const m = /\/(p\d+)$/.exec(id);
    return m ? m[1] : id;
  }

  // ---------------------------------------------------------------------------------------------
  // Fetching
  // ---------------------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.name = 'ApiError';
      this.status = status;
    }
  }

  /** Starts a request of one kind, aborting the previous request of that kind. */
  function begin(kind) {
    if (inflight[kind]) inflight[kind].abort();
    const controller = new AbortController();
    inflight[kind] = controller;
    return controller.signal;
  }

  /** GETs JSON; a non-2xx answer throws ApiError carrying the server's {"error": …} message. */
  async function getJSON(path, signal) {
    let response;
    try {
      response = await fetch(path, { signal, headers: { Accept: 'application/json' }, cache: 'no-store' });
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
      const message = body && typeof body.error === 'string' && body.error
        ? body.error
        : `${response.status} ${response.statusText}`.trim();
      throw new ApiError(message, response.status);
    }
    if (body === null) throw new ApiError('The server sent a response that is not JSON', response.status);
    return body;
  }

  const isAbort = (err) => err && err.name === 'AbortError';

  function errorText(err) {
    if (err instanceof ApiError) return err.status ? `${err.status} · ${err.message}` : err.message;
    return String(err && err.message ? err.message : err);
  }

  function apiPath(path, params) {
    const q = new URLSearchParams();
    for (const [key, value] of Object.entries(params || {})) {
      if (value !== '' && value !== null && value !== undefined) q.set(key, String(value));
    }
    const text = q.toString();
    return text ? `${path}?${text}` : path;
  }

  // ---------------------------------------------------------------------------------------------
  // DOM helpers
  // ---------------------------------------------------------------------------------------------

  /** createElement + className + textContent; never HTML. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

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
    statusEl.textContent = message;
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
      if (title) node.title = title;
      return node;
    };

    if (value === null || value === undefined) return span('null', 'null');

    if (typeof value === 'object') {
      if (value.type === 'binary') {
        const bytes = Number.isFinite(value.bytes) ? value.bytes : '?';
        return span('binary', `‹binary, ${bytes} byte${bytes === 1 ? '' : 's'}›`, `${type || 'Binary'} value; contents are not sent`);
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
      const date = new Date(value);
      const local = Number.isNaN(date.getTime()) ? '' : `Local time: ${date.toLocaleString()}`;
      return span('date', value, local);
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
    const items = data.entities.map((entity) => {
      const li = el('li', 'entity-item');
      li.dataset.entity = entity.name;
      li.dataset.count = String(entity.count);
      const button = el('button', 'entity-button');
      button.type = 'button';
      const name = el('span', 'entity-name', entity.name);
      button.append(name);
      if (entity.parent) {
        button.append(el('span', 'entity-parent', `⊂ ${entity.parent}`));
        button.title = `${entity.name}, a sub-entity of ${entity.parent}`;
      }
      button.append(el('span', 'entity-count', entity.count));
      li.append(button);
      return li;
    });
    dom.entityList.replaceChildren(...items);
    markSelectedEntity();
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
    setOptions(dom.sortSelect, [{ value: '', label: '(none)' }, ...attributes.map((a) => ({ value: a.name, label: a.name }))], view.sort);
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
    for (const control of [dom.searchInput, dom.searchAttr, dom.sortSelect, dom.orderBtn, dom.limitSelect]) {
      control.disabled = !enabled;
    }
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
    let offset = view.offset + direction * view.limit;
    if (page && offset >= page.total) offset = Math.max(0, page.total - view.limit);
    offset = Math.max(0, offset);
    if (offset === view.offset) return;
    refineQuery({ offset }, { resetOffset: false });
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
      sort: requested.sort,
      order: requested.order === 'desc' ? 'desc' : '',
      limit: requested.limit,
      offset: requested.offset,
    });
    try {
      const page = await getJSON(path, signal);
      if (signal.aborted) return;
      data.page = page;
      renderRecords(page, requested);
      renderPager();
      if (!page.rows.length) {
        const message = page.total > 0
          ? `No records on this page (${page.total} in all).`
          : requested.search ? `No ${requested.entity} records match “${requested.search}”.` : `No ${requested.entity} records.`;
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
      li.append(el('span', 'record-summary', row.summary));
      const sub = el('span', 'record-sub');
      if (row.entity !== requested.entity) sub.append(el('span', 'record-entity', row.entity), ' · ');
      sub.append(el('span', 'record-pk', shortId(row.id)));
      li.append(sub);
      li.title = row.summary;
      return li;
    });
    dom.recordList.replaceChildren(...items);
    dom.recordList.dataset.entity = requested.entity;
    markSelectedRecord();
    dom.recordList.scrollTop = 0;
  }

  function renderPager() {
    const page = data.page;
    if (!page) {
      dom.pageIndicator.textContent = '';
      dom.prevBtn.disabled = true;
      dom.nextBtn.disabled = true;
      return;
    }
    const count = Array.isArray(page.rows) ? page.rows.length : 0;
    const first = page.offset + 1;
    const last = page.offset + count;
    dom.pageIndicator.textContent = count ? `${first}–${last} of ${page.total}` : `0 of ${page.total}`;
    dom.prevBtn.disabled = page.offset <= 0;
    dom.nextBtn.disabled = page.offset + page.limit >= page.total;
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

  function onRecordClick(event) {
    const row = event.target.closest('.record-row');
    if (!row || !dom.recordList.contains(row)) return;
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
    const rows = [...dom.recordList.children];
    if (!rows.length) return;
    const current = rows.findIndex((li) => li.dataset.id === view.id);
    let next = -1;
    switch (event.key) {
      case 'ArrowDown': next = current < 0 ? 0 : Math.min(rows.length - 1, current + 1); break;
      case 'ArrowUp': next = current < 0 ? rows.length - 1 : Math.max(0, current - 1); break;
      case 'Home': next = 0; break;
      case 'End': next = rows.length - 1; break;
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
    if (object) parts.push(object.summary);
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
    const title = el('h2', 'detail-summary', object.summary);
    title.id = 'detail-summary';
    const idLine = el('code', 'detail-id', object.id);
    idLine.id = 'detail-id';
    idLine.title = 'Object ID (Core Data URI)';
    header.append(entityBadge, title, idLine);

    // Attributes: the schema's order (sorted by name), then anything the schema does not list.
    const attrs = object.attrs && typeof object.attrs === 'object' ? object.attrs : {};
    const names = schema ? schema.attributes.map((a) => a.name) : [];
    for (const name of Object.keys(attrs).sort()) if (!types.has(name)) names.push(name);

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
        valueCell.append(renderValue(Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : null, type));
        tr.append(el('td', 'attr-name', name), el('td', 'attr-type', type || '?'), valueCell);
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
      for (const rel of relationships) list.append(renderRelationship(rel));
      relSection.append(list);
    } else {
      relSection.append(el('p', 'section-empty', 'No relationships.'));
    }

    dom.detail.replaceChildren(header, attrSection, relSection);
    dom.detail.dataset.id = object.id;
    dom.detail.dataset.entity = object.entity;
    dom.detail.scrollTop = 0;
    dom.detailPane.scrollTop = 0;
  }

  function renderRelationship(rel) {
    const block = el('div', 'rel-block');
    block.dataset.rel = rel.name;
    block.dataset.destination = rel.destination;

    const head = el('div', 'rel-head');
    head.append(
      el('span', 'rel-name', rel.name),
      el('span', 'rel-arrow', rel.toMany ? '→→' : '→'),
      el('span', 'rel-destination', rel.destination),
      el('span', 'rel-kind', rel.toMany ? (rel.ordered ? 'to-many, ordered' : 'to-many') : 'to-one'),
      el('span', 'rel-count', rel.count),
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
    if (rel.count > items.length) block.append(el('p', 'rel-more', `+${rel.count - items.length} more`));
    return block;
  }

  function onDetailClick(event) {
    const link = event.target.closest('a.rel-item');
    if (!link || !dom.detail.contains(link)) return;
    // Let the browser handle new-tab / new-window clicks on the real href.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    openRelated(link.dataset.id, link.dataset.destination, link.dataset.entity);
  }

  /** Follows a relationship: the list switches to the destination entity unless it already shows the record's kind. */
  function openRelated(id, destination, entity) {
    const listShowsIt = view.entity === destination || view.entity === entity;
    if (listShowsIt) {
      view = { ...view, id };
    } else {
      view = { ...emptyView(), entity: destination, limit: view.limit, id };
    }
    commitView('push');
    if (!listShowsIt) {
      markSelectedEntity();
      renderToolbar();
      syncSearchInput();
      loadPage();
    } else {
      markSelectedRecord();
    }
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
    const listChanged = ['entity', 'search', 'searchAttr', 'sort', 'order', 'limit', 'offset']
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
    dom.exportBtn.addEventListener('click', exportRecord);
    dom.entityList.addEventListener('click', onEntityClick);
    dom.searchInput.addEventListener('input', onSearchInput);
    dom.searchInput.addEventListener('keydown', onSearchKey);
    dom.searchAttr.addEventListener('change', onSearchAttrChange);
    dom.sortSelect.addEventListener('change', onSortChange);
    dom.orderBtn.addEventListener('click', onOrderClick);
    dom.limitSelect.addEventListener('change', onLimitChange);
    dom.prevBtn.addEventListener('click', () => onPageStep(-1));
    dom.nextBtn.addEventListener('click', () => onPageStep(1));
    dom.recordList.addEventListener('click', onRecordClick);
    dom.recordList.addEventListener('keydown', onRecordKey);
    dom.detail.addEventListener('click', onDetailClick);
    window.addEventListener('popstate', onPopState);
    window.addEventListener('resize', applyPaneSizes);
    setupSplitter(dom.splitterLeft, 'left');
    setupSplitter(dom.splitterRight, 'right');
  }

  function init() {
    rememberPreferredView();
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
