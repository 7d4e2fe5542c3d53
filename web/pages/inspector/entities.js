/*
 * CoreDataBrowser — Inspector view: the health chip of the top bar and the entities pane (tree, filter, "Hide empty").
 */

import { noteHealth } from '../../features/editing/editing.js';
import { ApiError, getJSON, isAbort, restartFetch } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { countDelta, entityTitle, shownEntities, writeHideEmpty } from '../../shared/entity-list.js';
import { emptyListView, listKey } from '../../shared/list-view.js';
import { showModelLine } from '../../shared/model-line.js';
import { formatCount } from '../../shared/paging.js';
import { showPaneStatus } from '../../shared/pane-status.js';
import { visibleText } from '../../shared/visible-text.js';
import { loadDetail } from './detail.js';
import { loadPage } from './record-list.js';
import { commitView, data, dom, errorText, inflight, setView, since, view } from './state.js';
import { renderToolbar, repaintNames, syncSearchInput } from './toolbar.js';

// ---------------------------------------------------------------------------------------------
// Health (top-bar chip)
// ---------------------------------------------------------------------------------------------

async function loadHealth() {
  const signal = restartFetch(inflight, 'health').signal;
  try {
    const health = await getJSON('/api/health', signal);
    noteHealth(health);
    dom.readOnlyChip.hidden = health.readOnly !== true;
    const caps = Array.isArray(health.capabilities) ? health.capabilities.join(', ') : '';
    dom.readOnlyChip.title = caps ? `Capabilities: ${caps}` : 'The server is read-only';
    dom.storeName.textContent = typeof health.store === 'string' ? health.store : '';
    dom.storeName.title = dom.storeName.textContent;
    dom.storeName.classList.remove('is-error');
    const storeChanged = data.storeKey !== dom.storeName.textContent;
    data.storeKey = dom.storeName.textContent;
    showModelLine(dom.modelLine, health.model);
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
  const signal = restartFetch(inflight, 'entities').signal;
  showPaneStatus(dom.entitiesPane, dom.entitiesStatus, 'loading', data.entities.length ? null : 'loading', 'Loading entities…');
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
        showPaneStatus(dom.entitiesPane, dom.entitiesStatus, 'ready', null);
      } else {
        showPaneStatus(dom.entitiesPane, dom.entitiesStatus, 'ready', 'empty', 'This model has no entities.');
      }
    } catch (err) {
      if (isAbort(err)) return;
      showPaneStatus(dom.entitiesPane, dom.entitiesStatus, 'error', 'error', errorText(err));
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
  showList({ ...emptyListView(), entity: name, limit: view.limit });
}

/** Moves to another list (a new history entry): the sidebar's mark, the toolbar, the search box and the page follow,
 *  and the detail unless `detail` is false (the record shown stays, as when its relationship's list opens). */
function showList(nextView, { detail = true } = {}) {
  setView(nextView);
  commitView('push');
  markSelectedEntity();
  renderToolbar();
  syncSearchInput();
  loadPage();
  if (detail) loadDetail();
}

export {
  loadEntities,
  loadHealth,
  markSelectedEntity,
  onEntityClick,
  onEntityFilterInput,
  onHideEmptyChange,
  selectEntity,
  showList,
};
