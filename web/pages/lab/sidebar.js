/*
 * CoreDataBrowser — Lab view: the status bar (health, the store, the model line) and the entities sidebar.
 */

import { noteHealth } from '../../features/editing/editing.js';
import { ApiError, isAbort, restartFetch } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { countDelta, entityTitle, shownEntities } from '../../shared/entity-list.js';
import { listKey } from '../../shared/list-view.js';
import { showModelLine } from '../../shared/model-line.js';
import { formatCount } from '../../shared/paging.js';
import { showPaneError, showPaneStatus } from '../../shared/pane-status.js';
import { setVisibleText, visibleText } from '../../shared/visible-text.js';
import { actions } from './actions.js';
import { loadCols } from './columns.js';
import { closeMenu } from './menus.js';
import { loadRecord, renderDetail } from './record-detail.js';
import { api, dom, inflight, isPlainObject, since, state } from './state.js';
import { populateSearchAttr, syncControls } from './toolbar.js';

// ------------------------------------------------------------ Health / status bar

async function loadHealth() {
  const ctl = restartFetch(inflight, 'health');
  try {
    const health = await api.health(ctl.signal);
    noteHealth(health);
    dom.pulse.classList.remove('is-offline');
    dom.statusStore.textContent = typeof health.store === 'string' ? health.store : '';
    dom.statusStore.title = dom.statusStore.textContent;
    // The key of this store's "Name by" choices: the same text the Inspector uses.
    state.storeKey = dom.statusStore.textContent;
    // Where the model came from, as the Inspector says it (a warning when it was guessed from the tables).
    showModelLine(dom.modelLine, health.model);
    if (state.record) renderDetail(state.record);  // names may follow this store's choices now
    dom.modeChip.textContent = health.readOnly === false ? 'read-write' : 'read-only';
  } catch (err) {
    if (isAbort(err)) return;
    dom.pulse.classList.add('is-offline');
    dom.statusStore.textContent = `Server: ${err.message}`;
  }
}

function updateStatus() {
  dom.gridExportBtn.disabled = !state.entity || document.body.dataset.offline === 'true';
  dom.gridQueryBtn.disabled = dom.gridExportBtn.disabled;
  dom.gridWhereBtn.disabled = dom.gridExportBtn.disabled;
  dom.gridSwiftBtn.disabled = dom.gridExportBtn.disabled;
  if (!state.entity) {
    dom.statusText.textContent = '';
    return;
  }
  const parts = [`${state.entity}: ${formatCount(state.total)} record${state.total === 1 ? '' : 's'}`];
  if (state.search) parts.push(`matching “${state.search}”`);
  if (state.where) parts.push('filtered');
  if (state.sort) parts.push(`sorted by ${state.sort} ${state.order === 'asc' ? '▲' : '▼'}`);
  if (typeof window.__cdbLastRenderMs === 'number') {
    parts.push(`${window.__cdbLastRenderRows} rows drawn in ${window.__cdbLastRenderMs.toFixed(1)} ms`);
  }
  setVisibleText(dom.statusText, parts.join(' · ')); // it may quote the search text
}

// ------------------------------------------------------------ Sidebar

async function loadEntities() {
  const ctl = restartFetch(inflight, 'entities');
  if (!state.entities.length) showPaneStatus(dom.paneSidebar, dom.sidebarState, 'loading', 'loading', 'Loading entities…');
  try {
    const list = await api.entities(ctl.signal);
    if (!Array.isArray(list)) throw new ApiError('Unexpected /api/entities answer', 0);
    state.entities = list.filter((e) => isPlainObject(e) && typeof e.name === 'string');
    state.entityByName = new Map(state.entities.map((e) => [e.name, e]));
    state.entitiesError = null;
    renderSidebar();
  } catch (err) {
    if (isAbort(err)) throw err;
    state.entitiesError = err;
    dom.entityList.replaceChildren();
    showPaneError(dom.paneSidebar, dom.sidebarState, err);
  }
}

function renderSidebar() {
  // Counts are compared with those of when the person came to the list in the grid (taken with its first rows,
  // or here when the entities arrive after them).
  if (since.counts && since.counts.key === listKey(state) && since.counts.counts.size === 0) {
    since.counts.counts = new Map(state.entities.map((entity) => [entity.name, entity.count]));
  }
  const frag = document.createDocumentFragment();
  // The same tree, filter and "Hide empty" as the Inspector's sidebar (shared.js); the list is one tab stop.
  const shown = shownEntities(state.entities, { filter: dom.entityFilter.value, hideEmpty: dom.hideEmpty.checked, selected: state.entity });
  for (const { entity, depth } of shown) {
    const li = el('li');
    li.dataset.entity = entity.name;
    li.dataset.depth = String(depth);
    li.title = visibleText(entityTitle(entity));
    if (depth > 0) {
      li.classList.add('is-sub');
      li.style.paddingLeft = `${8 + 14 * depth}px`;
    }
    li.append(el('span', 'name', entity.name));
    if (entity.abstract) {
      li.dataset.abstract = 'true';
      li.append(el('span', 'entity-badge', 'abstract'));
    }
    li.append(el('span', 'count', Number.isFinite(entity.count) ? entity.count.toLocaleString() : ''));
    const before = since.counts && since.counts.key === listKey(state) ? since.counts.counts.get(entity.name) : undefined;
    if (Number.isFinite(before) && Number.isFinite(entity.count) && before !== entity.count) {
      const delta = entity.count - before;
      li.dataset.delta = String(delta);
      li.append(countDelta(delta));
    }
    frag.append(li);
  }
  dom.entityList.replaceChildren(frag);
  if (!state.entities.length) showPaneStatus(dom.paneSidebar, dom.sidebarState, 'empty', 'empty', 'The store has no entities.');
  else if (!shown.length) showPaneStatus(dom.paneSidebar, dom.sidebarState, 'empty', 'empty', 'No entity matches the filter.');
  else showPaneStatus(dom.paneSidebar, dom.sidebarState, 'ready');
  markActiveEntity();
}

function markActiveEntity() {
  for (const li of dom.entityList.children) {
    const active = li.dataset.entity === state.entity;
    li.classList.toggle('active', active);
    if (active) li.setAttribute('aria-current', 'true');
    else li.removeAttribute('aria-current');
  }
}

function onSidebarClick(event) {
  const li = event.target.closest('li[data-entity]');
  if (!li) return;
  event.preventDefault();
  selectEntity(li.dataset.entity);
}

function selectEntity(name) {
  if (name === state.entity) return;
  closeMenu();
  setGridEntity(name);
  state.sort = null;
  state.order = 'asc';
  state.search = '';
  state.searchAttr = '';
  state.where = '';
  state.offset = 0;
  state.relatedTo = '';
  state.via = '';
  state.selectedId = null;
  syncControls();
  actions.syncURL('push');
  actions.loadGrid();
  loadRecord();
}

function setGridEntity(name) {
  state.entity = name;
  state.cols = loadCols(name);
  document.title = name ? `${name} · CoreDataBrowser Lab` : 'CoreDataBrowser · Lab';
  populateSearchAttr();
  markActiveEntity();
}

export {
  loadEntities,
  loadHealth,
  markActiveEntity,
  onSidebarClick,
  renderSidebar,
  selectEntity,
  setGridEntity,
  updateStatus,
};
