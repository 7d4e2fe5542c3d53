/*
 * CoreDataBrowser — Lab view: the grid: loading a page and rendering it (header, rows, what changed since you
 * looked, column widths).
 */

import { ApiError, isAbort, restartFetch } from '../../shared/api.js';
import { el, markChange } from '../../shared/dom.js';
import { listKey } from '../../shared/list-view.js';
import { isLongValue } from '../../shared/long-value.js';
import { formatCount } from '../../shared/paging.js';
import { showPaneError, showPaneStatus } from '../../shared/pane-status.js';
import { formatBytes, isBinary, isCutText } from '../../shared/values.js';
import { setVisibleText, visibleText } from '../../shared/visible-text.js';
import * as content from '../../features/content/content.js';
import * as predicate from '../../features/predicate/predicate.js';
import * as queryDrawer from '../../features/query/query.js';
import { paintCell, paintColumnWidths, visibleColumns } from './columns.js';
import { markSelectedRow, selectKeptRow } from './grid-selection.js';
import { syncURL } from './navigation.js';
import { nameOf } from './record-detail.js';
import { renderSidebar, updateStatus } from './sidebar.js';
import { api, dom, inflight, isPlainObject, shortType, since, state } from './state.js';
import { updatePager } from './toolbar.js';

// ------------------------------------------------------------ Grid: data

async function loadGrid() {
  const ctl = restartFetch(inflight, 'grid');
  const entity = state.entity;
  if (!entity) {
    clearGrid();
    const message = state.entitiesError ? state.entitiesError : { message: 'No entity to show.' };
    if (state.entitiesError) showPaneError(dom.paneGrid, dom.gridState, message);
    else showPaneStatus(dom.paneGrid, dom.gridState, 'empty', 'empty', message.message);
    dom.gridScroll.dataset.state = dom.paneGrid.dataset.state;
    return;
  }
  showPaneStatus(dom.paneGrid, dom.gridState, 'loading', 'loading', `Loading ${entity}…`);
  dom.gridScroll.dataset.state = 'loading';
  dom.grid.setAttribute('aria-busy', 'true');
  updateSortIndicators();
  try {
    const page = await api.records(entity, state, ctl.signal);
    if (!isPlainObject(page) || !Array.isArray(page.rows)) throw new ApiError('Unexpected records answer', 0);
    state.total = Number(page.total) || 0;
    state.rows = page.rows;
    if (!state.rows.length && state.offset > 0 && state.total > 0) {
      // The page is past the end (records went away, or a stale URL): show the last one.
      state.offset = Math.floor((state.total - 1) / state.limit) * state.limit;
      syncURL('replace');
      loadGrid();
      return;
    }
    renderGrid();
    queryDrawer.pageShown();
    predicate.viewChanged();
  } catch (err) {
    if (isAbort(err)) return;
    clearGrid();
    renderHeader(visibleColumns());
    showPaneError(dom.paneGrid, dom.gridState, err);
    predicate.viewChanged(); // a filter the store refuses stays on screen, to edit or clear
    dom.gridScroll.dataset.state = 'error';
    updatePager();
    updateStatus();
  } finally {
    if (inflight.grid === ctl) dom.grid.removeAttribute('aria-busy');
  }
}

function clearGrid() {
  state.rows = [];
  state.total = 0;
  state.rowById = new Map();
  dom.gridHeadRow.replaceChildren();
  dom.gridBody.replaceChildren();
  dom.grid.setAttribute('aria-rowcount', '0');
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
  dom.grid.setAttribute('aria-rowcount', String(state.total));
  void dom.grid.offsetHeight; // force layout so the measured time includes it
  window.__cdbLastRenderMs = performance.now() - started;
  window.__cdbLastRenderRows = state.rows.length;

  if (!state.rows.length) {
    const message = state.search || state.where
      ? `No ${state.entity} records match ${[state.search ? `“${state.search}”` : '', state.where ? 'the filter' : ''].filter(Boolean).join(' and ')}.`
      : `${state.entity} has no records.`;
    showPaneStatus(dom.paneGrid, dom.gridState, 'empty', 'empty', message);
  } else if (!columns.length) {
    showPaneStatus(dom.paneGrid, dom.gridState, 'empty', 'empty', 'Every column is hidden. Use Columns ▾ to show some.');
  } else {
    showPaneStatus(dom.paneGrid, dom.gridState, 'ready');
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
  const key = listKey(state);
  if (!since.page || since.page.key !== key) {
    since.page = {
      key,
      order: state.rows.map((row) => String(row.id)),
      rows: new Map(state.rows.map((row) => [String(row.id), { attrs: isPlainObject(row.attrs) ? row.attrs : {}, row }])),
    };
    since.counts = { key, counts: new Map(state.entities.map((entity) => [entity.name, entity.count])) };
    // Deltas belonged to the list the person left.
    if (dom.entityList.querySelector('[data-delta]')) renderSidebar();
    return;
  }
  const shown = new Set();
  const rowsNow = new Map(state.rows.map((row) => [String(row.id), row]));
  for (const tr of frag.querySelectorAll('tr[data-id]')) {
    shown.add(tr.dataset.id);
    const before = since.page.rows.get(tr.dataset.id);
    if (!before) {
      markChange(tr, 'created', 'New since you looked');
      continue;
    }
    const now = rowsNow.get(tr.dataset.id);
    const attrs = now && isPlainObject(now.attrs) ? now.attrs : {};
    let changed = false;
    for (const td of tr.querySelectorAll('td[data-col]')) {
      if (JSON.stringify(attrs[td.dataset.col]) !== JSON.stringify(before.attrs[td.dataset.col])) {
        markChange(td, 'changed', `Changed since you looked (was ${JSON.stringify(before.attrs[td.dataset.col]) ?? 'absent'})`);
        changed = true;
      }
    }
    if (changed || JSON.stringify(attrs) !== JSON.stringify(before.attrs)) markChange(tr, 'changed', 'Changed since you looked');
  }
  for (const id of since.page.order) {
    if (shown.has(id)) continue;
    const gone = since.page.rows.get(id);
    const ghost = el('tr', 'row-ghost');
    ghost.dataset.ghostId = id;
    ghost.setAttribute('aria-disabled', 'true');
    ghost.append(el('td', 'col-select', '–'));
    columns.forEach((column, index) => {
      const td = el('td');
      td.dataset.col = column.name;
      if (index === 0) td.textContent = `${nameOf(gone.row)} · no longer in this list`;
      ghost.append(td);
    });
    markChange(ghost, 'deleted', 'Gone since you looked (deleted, or moved out of this list)');
    frag.append(ghost);
  }
}

function renderHeader(columns) {
  const frag = document.createDocumentFragment();
  const gutter = el('th', 'col-select', '#');
  gutter.scope = 'col';
  frag.append(gutter);
  // One tab stop for the whole header row (roving tabindex): the column focused last, else the first; the
  // arrow keys move between columns (onHeaderKeyDown).
  const current = columns.some((c) => c.name === state.headerFocus) ? state.headerFocus : columns[0]?.name;
  for (const column of columns) {
    const th = el('th');
    th.scope = 'col';
    th.tabIndex = column.name === current ? 0 : -1;
    th.dataset.col = column.name;
    th.title = `${column.name}: ${column.type}. Click to sort, drag to reorder, drag the edge to resize, right-click for more.`;
    if (column.count) {
      th.dataset.count = column.count;
      th.title = `Count of ${column.count}: how many records each row's ${column.count} holds. Click to change the order.`;
    }
    th.append(
      el('span', 'th-label', column.count ? `${column.count} count` : column.name),
      el('span', 'th-type', column.count ? 'count' : shortType(column.type)),
      el('span', 'th-sort'),
    );
    const grip = el('span', 'col-resize');
    grip.setAttribute('aria-hidden', 'true');
    th.append(grip);
    frag.append(th);
  }
  dom.gridHeadRow.replaceChildren(frag);
  updateSortIndicators();
}

function updateSortIndicators() {
  for (const th of dom.gridHeadRow.querySelectorAll('th[data-col]')) {
    const sorted = th.dataset.col === state.sort;
    th.querySelector('.th-sort').textContent = sorted ? (state.order === 'asc' ? '▲' : '▼') : '';
    th.setAttribute('aria-sort', sorted ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none');
  }
}

function buildRow(row, index, columns) {
  const tr = el('tr');
  tr.dataset.id = String(row.id);
  tr.dataset.entity = String(row.entity ?? state.entity);
  tr.setAttribute('aria-rowindex', String(state.offset + index + 1));
  const gutter = el('td', 'col-select', state.offset + index + 1);
  if (row.entity && row.entity !== state.entity) {
    // A sub-entity's row in its parent's (or an abstract entity's) list says which entity it is, as the
    // Inspector's rows do.
    tr.classList.add('row-sub');
    gutter.title = visibleText(`${row.entity} (a sub-entity of ${state.entity})`);
    gutter.prepend(el('span', 'row-entity', row.entity), ' ');
  }
  tr.append(gutter);
  const attrs = isPlainObject(row.attrs) ? row.attrs : {};
  for (const column of columns) {
    const td = el('td');
    td.dataset.col = column.name;
    const value = column.count ? (isPlainObject(row.counts) ? row.counts[column.count] : undefined) : attrs[column.name];
    if (isLongValue(value)) {
      // A cell shows one line: its start is enough (a 187,000-character value would cost layout and a tooltip
      // as long); the detail pane and the content viewer hold it whole.
      setVisibleText(td, `${value.slice(0, 500)}…`);
      td.title = `${formatCount(value.length)} characters: the detail pane and the content viewer show it whole`;
    } else if (isCutText(value)) {
      // The server sent only the start of a long text (docs/API.md "Long values"): the same line, marked with
      // the whole size, which the detail pane and the content viewer fetch.
      setVisibleText(td, `${value.preview.slice(0, 500)}…`);
      td.prepend(el('span', 'val-cut-mark', formatBytes(value.bytes)));
      td.classList.add('val-cut');
      td.title = `${formatCount(value.bytes)} bytes of text, cut in the list: the detail pane and the content viewer show it whole`;
    } else {
      paintCell(td, value, column.type);
    }
    if (isBinary(value)) content.lazySummary(td, String(row.id), column.name);
    else content.markURL(td, value, column.type);
    tr.append(td);
  }
  return tr;
}

/**
 * User-set widths live in one generated style sheet (one nth-child rule per sized column), so a
 * resize drag restyles the column without touching any row. Chrome honours max-width on table
 * cells, which is what lets a column become narrower than its content.
 */
export {
  loadGrid,
  renderGrid,
};
