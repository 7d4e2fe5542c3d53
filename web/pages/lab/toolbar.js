/*
 * CoreDataBrowser — Lab view: the grid's toolbar: search, page size, paging, the "related to" scope, and the
 * top bar's export, query, filter and Swift buttons.
 */

import { onReachability, onReconnect } from '../../shared/connection.js';
import { el } from '../../shared/dom.js';
import { listParams, SEARCH_DEBOUNCE_MS } from '../../shared/list-view.js';
import { formatCount, lastPageOffset, showPageSize, wirePageInput } from '../../shared/paging.js';
import { showScope } from '../../shared/record-names.js';
import { writeStored } from '../../shared/storage.js';
import * as exporting from '../../features/export/export.js';
import * as live from '../../features/live/live.js';
import * as predicate from '../../features/predicate/predicate.js';
import * as queryDrawer from '../../features/query/query.js';
import * as swift from '../../features/swift/swift.js';
import { actions } from './actions.js';
import { attributesOf } from './columns.js';
import { closeMenu, openColumnsMenu, openMenuState } from './menus.js';
import { PAGE_SIZES, STORAGE, dom, state } from './state.js';

// ------------------------------------------------------------ Toolbar

function populateSearchAttr() {
  const strings = attributesOf(state.entity).filter((a) => a.type === 'String');
  const options = [el('option', null, 'All text')];
  options[0].value = '';
  for (const attr of strings) {
    const option = el('option', null, attr.name);
    option.value = attr.name;
    options.push(option);
  }
  dom.searchAttr.replaceChildren(...options);
}

function syncControls() {
  dom.search.value = state.search;
  dom.searchAttr.value = state.searchAttr;
  showPageSize(dom.pageSize, state.limit);
  renderScope();
}

/** The "related to" chip over the grid, with a button that lists every record again. */
function renderScope() {
  showScope(dom.scope, dom.scopeText, state, state.storeKey);
}

/** The list in the grid for "Export" (export.js): the same parameters as its pages, without paging. */
function describeExport() {
  if (!state.entity) return null;
  return {
    entity: state.entity,
    params: listParams(state),
    total: state.total,
  };
}

/**
 * While the server does not answer: the status dot turns red and the controls that need it are disabled.
 * The next answer (Refresh) brings everything back.
 */
function setOffline(offline) {
  if ((document.body.dataset.offline === 'true') === offline) return;
  if (offline) document.body.dataset.offline = 'true'; else delete document.body.dataset.offline;
  dom.pulse.classList.toggle('is-offline', offline);
  for (const control of [dom.search, dom.searchAttr, dom.pageSize, dom.prev, dom.next, dom.first, dom.last, dom.pageInput, dom.columnsBtn, dom.exportBtn,
    dom.gridExportBtn, dom.gridQueryBtn, dom.gridWhereBtn, dom.gridSwiftBtn]) {
    control.disabled = offline || (control === dom.exportBtn && !state.selectedId)
      || ([dom.gridExportBtn, dom.gridQueryBtn, dom.gridWhereBtn, dom.gridSwiftBtn].includes(control) && !state.entity);
  }
  if (!offline) updatePager();
  if (offline) dom.statusText.textContent = 'The server does not answer: trying again (see the banner above).';
}

let searchTimer = 0;

function applySearch() {
  clearTimeout(searchTimer);
  const value = dom.search.value;
  if (value === state.search) return;
  state.search = value;
  state.offset = 0;
  actions.syncURL('replace');
  actions.loadGrid();
}

function wireToolbar() {
  dom.search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(applySearch, SEARCH_DEBOUNCE_MS);
  });
  dom.search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') applySearch();
  });
  dom.searchAttr.addEventListener('change', () => {
    state.searchAttr = dom.searchAttr.value;
    state.offset = 0;
    actions.syncURL('replace');
    if (state.search) actions.loadGrid();
  });
  dom.pageSize.addEventListener('change', () => {
    const limit = Number(dom.pageSize.value);
    if (!PAGE_SIZES.includes(limit)) return;
    state.limit = limit;
    state.offset = Math.floor(state.offset / limit) * limit;
    actions.syncURL('replace');
    actions.loadGrid();
  });
  dom.prev.addEventListener('click', () => goToOffset(state.offset - state.limit));
  dom.next.addEventListener('click', () => goToOffset(state.offset + state.limit));
  dom.first.addEventListener('click', () => goToOffset(0));
  dom.last.addEventListener('click', () => goToOffset(lastOffset()));
  wirePageInput(dom.pageInput, () => ({ limit: state.limit, total: state.total }), goToOffset);
  dom.scopeClear.addEventListener('click', () => {
    state.relatedTo = '';
    state.via = '';
    state.offset = 0;
    renderScope();
    actions.syncURL('replace');
    actions.loadGrid();
  });
  exporting.attach(dom.gridExportBtn, describeExport);
  const describePage = () => {
    const list = describeExport();
    return list && { entity: list.entity, params: { ...list.params, limit: state.limit, offset: state.offset } };
  };
  queryDrawer.attach(dom.gridQueryBtn, describePage);
  predicate.attach({
    button: dom.gridWhereBtn,
    chip: dom.whereChip,
    describe: () => state.entity && { entity: state.entity, where: state.where, storeKey: state.storeKey, params: describePage().params },
    entities: () => state.entities,
    apply: (where) => {
      if (where === state.where) return;
      state.where = where;
      state.offset = 0;
      actions.syncURL('push');
      actions.loadGrid();
    },
  });
  swift.attach(dom.gridSwiftBtn);
  dom.columnsBtn.addEventListener('click', () => {
    if (openMenuState && openMenuState.name === 'columns') closeMenu();
    else openColumnsMenu();
  });
  dom.refreshBtn.addEventListener('click', actions.refresh);
  live.attach(document.getElementById('live-toggle'), actions.refresh);
  // The server is back (shared/connection.js): show what it holds now. While it is away the dot is red whatever
  // request noticed it (an event stream's, a retry's), not only the grid's own.
  onReconnect(actions.refresh);
  onReachability((up) => setOffline(!up));
  dom.exportBtn.addEventListener('click', () => {
    if (state.selectedId) dom.detailExport.click();
  });
  for (const tab of dom.tabs) {
    tab.addEventListener('click', () => writeStored(STORAGE.preferredView, tab.dataset.view));
  }
}

function goToOffset(offset) {
  const next = Math.max(0, offset);
  if (next === state.offset || (next >= state.total && next > 0)) return;
  state.offset = next;
  actions.syncURL('replace');
  actions.loadGrid();
}

function lastOffset() {
  return lastPageOffset(state.total, state.limit);
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
  dom.last.disabled = state.offset >= lastOffset();
  dom.pageInput.disabled = state.total <= state.limit;
  dom.pageInput.placeholder = `/ ${formatCount(Math.max(1, Math.ceil(state.total / state.limit)))}`;
}

export {
  applySearch,
  goToOffset,
  populateSearchAttr,
  syncControls,
  updatePager,
  wireToolbar,
};
