/*
 * CoreDataBrowser — Lab view: sorting, hiding, moving and resizing columns (pointer and keyboard), and the
 * grid's own events.
 */

import { apiPath, getJSON } from '../../shared/api.js';
import { copyText, recordJSON } from '../../shared/clipboard.js';
import { el } from '../../shared/dom.js';
import { isCutText } from '../../shared/values.js';
import * as predicate from '../../features/predicate/predicate.js';
import { defaultCols, isSortable, paintColumnWidths, saveCols, visibleColumns } from './columns.js';
import { editCell } from './editing.js';
import { moveSelection, onGridKeyDown, openInInspector, selectRecord } from './grid-selection.js';
import { loadGrid, renderGrid } from './grid.js';
import { closeMenu, menuButton, openHeaderMenu, openMenuState, openPopover } from './menus.js';
import { syncURL } from './navigation.js';
import { COL_WIDTH_MAX, COL_WIDTH_MIN, DRAG_THRESHOLD_PX, clamp, dom, isPlainObject, rowData, state } from './state.js';

// ------------------------------------------------------------ Grid: sorting and column ops

function cycleSort(name) {
  if (!isSortable(name)) return; // bytes have no order (the server refuses it too)
  if (state.sort !== name) {
    state.sort = name;
    state.order = 'asc';
  } else if (state.order === 'asc') {
    state.order = 'desc';
  } else {
    state.sort = null;
    state.order = 'asc';
  }
  state.offset = 0;
  syncURL('replace');
  loadGrid();
}

function setSort(name, order) {
  state.sort = name;
  state.order = order;
  state.offset = 0;
  syncURL('replace');
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
  if (!state.cols.order.includes(name)) return; // a count column comes with its sort, first
  const order = state.cols.order.filter((n) => n !== name);
  let index;
  if (beforeName) {
    index = order.indexOf(beforeName);
  } else {
    const visible = visibleColumns().map((c) => c.name).filter((n) => n !== name);
    index = visible.length ? order.indexOf(visible[visible.length - 1]) + 1 : order.length;
  }
  order.splice(index, 0, name);
  if (order.join('\u0000') === state.cols.order.join('\u0000')) return;
  state.cols.order = order;
  saveCols();
  renderGrid();
  const th = headerCell(name);
  if (th) th.focus({ preventScroll: true });
}

function headerCell(name) {
  for (const th of dom.gridHeadRow.querySelectorAll('th[data-col]')) if (th.dataset.col === name) return th;
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
    document.body.classList.add('is-dragging', cursor);
    if (handle) handle.classList.add('is-dragging');
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
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', cancel);
    if (!active) return;
    document.body.classList.remove('is-dragging', cursor);
    if (handle) handle.classList.remove('is-dragging');
    swallowNextClick();
    onEnd(event, cancelled);
  };
  const up = (event) => finish(event, false);
  const cancel = (event) => finish(event, true);
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', cancel);
  if (threshold === 0) begin();
}

function onHeaderPointerDown(event) {
  if (event.button !== 0) return;
  const th = event.target.closest('th[data-col]');
  if (!th) return;
  const name = th.dataset.col;
  const grip = event.target.closest('.col-resize');
  if (grip) {
    event.preventDefault();
    const startWidth = th.getBoundingClientRect().width;
    trackDrag(event, {
      cursor: 'is-dragging-col',
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
    cursor: 'is-dragging-move',
    threshold: DRAG_THRESHOLD_PX,
    handle: th,
    onStart: () => th.classList.add('is-drag-source'),
    onMove: (move) => {
      autoScrollGrid(move.clientX);
      drop = dropTarget(move.clientX);
      paintDropIndicator(drop);
    },
    onEnd: (_, cancelled) => {
      th.classList.remove('is-drag-source');
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
  const ths = [...dom.gridHeadRow.querySelectorAll('th[data-col]')];
  for (const th of ths) {
    const rect = th.getBoundingClientRect();
    if (x < rect.left + rect.width / 2) return { before: th.dataset.col, th, side: 'before' };
  }
  return ths.length ? { before: null, th: ths[ths.length - 1], side: 'after' } : null;
}

function paintDropIndicator(drop) {
  for (const th of dom.gridHeadRow.querySelectorAll('.drop-before, .drop-after')) {
    th.classList.remove('drop-before', 'drop-after');
  }
  if (drop) drop.th.classList.add(drop.side === 'before' ? 'drop-before' : 'drop-after');
}

function onHeaderClick(event) {
  const th = event.target.closest('th[data-col]');
  if (!th || swallowClick || event.target.closest('.col-resize')) return;
  cycleSort(th.dataset.col);
}

function onHeaderDoubleClick(event) {
  const grip = event.target.closest('.col-resize');
  if (!grip) return;
  const name = grip.closest('th[data-col]').dataset.col;
  delete state.cols.widths[name];
  paintColumnWidths();
  saveCols();
}

function onHeaderKeyDown(event) {
  const th = event.target.closest('th[data-col]');
  if (!th) return;
  const name = th.dataset.col;
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    cycleSort(name);
  } else if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    event.preventDefault();
    const visible = visibleColumns().map((c) => c.name);
    const index = visible.indexOf(name);
    if (event.key === 'ArrowLeft' && index > 0) moveColumn(name, visible[index - 1]);
    if (event.key === 'ArrowRight' && index < visible.length - 1) moveColumn(name, visible[index + 2] ?? null);
  } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
    event.preventDefault();
    const sibling = event.key === 'ArrowLeft' ? th.previousElementSibling : th.nextElementSibling;
    if (sibling && sibling.dataset.col) focusHeader(sibling);
  } else if (event.key === 'ArrowDown') {
    event.preventDefault();
    dom.gridScroll.focus();
    if (!state.selectedId) moveSelection(1);
  } else if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
    event.preventDefault();
    const rect = th.getBoundingClientRect();
    openHeaderMenu(name, rect.left, rect.bottom, th);
  }
}

/** Moves the header row's one tab stop to `th` and focuses it. */
function focusHeader(th) {
  for (const other of dom.gridHeadRow.querySelectorAll('th[data-col]')) other.tabIndex = other === th ? 0 : -1;
  state.headerFocus = th.dataset.col;
  th.focus();
}

/** The value of a grid cell as stored (what "Copy value" copies): text as is, anything else as JSON; a text the
 *  list sent cut is read whole from the record's detail first. */
async function cellValue(row, column) {
  let value = isPlainObject(row?.attrs) ? row.attrs[column] : undefined;
  if (isCutText(value)) value = (await getJSON(apiPath('/api/object', { id: String(row.id) }))).attrs?.[column];
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Copy value / cell as shown / object ID / row as JSON, for a grid cell (`column` null: the row only). */
function openCellMenu(id, column, x, y, returnFocus) {
  const row = rowData(id);
  if (!row) return;
  const menu = el('div');
  menu.append(el('div', 'pop-label', column ? `${column} · ${row.entity ?? state.entity}` : String(row.entity ?? state.entity)));
  if (column) {
    const td = returnFocus?.closest?.('tr')?.querySelector(`td[data-col="${CSS.escape(column)}"]`);
    menu.append(
      menuButton('Copy value', 'copy-value', async () => copyText(await cellValue(row, column))),
      menuButton('Copy cell as shown', 'copy-shown', async () => copyText(td ? td.textContent : await cellValue(row, column))),
    );
    const value = isPlainObject(row.attrs) ? row.attrs[column] : undefined;
    const node = predicate.conditionFor(column, value === undefined ? null : value);
    if (node) {
      menu.append(el('div', 'pop-sep'),
        menuButton('Filter by this value', 'filter-value', () => predicate.addCondition(node)),
        menuButton('Exclude this value', 'exclude-value', () => predicate.addCondition({ ...node, op: '!=' })));
    }
  }
  menu.append(
    menuButton('Copy object ID', 'copy-id', () => copyText(String(row.id))),
    menuButton('Copy row as JSON', 'copy-json', () => copyText(recordJSON(row))),
  );
  openPopover('cell', menu, { x, y, returnFocus });
}

function wireGrid() {
  dom.gridBody.addEventListener('contextmenu', (event) => {
    const td = event.target.closest('td');
    const tr = event.target.closest('tr[data-id]');
    if (!tr) return;
    event.preventDefault();
    selectRecord(tr.dataset.id);
    openCellMenu(tr.dataset.id, td?.dataset.col ?? null, event.clientX, event.clientY, td ?? tr);
  });
  dom.gridHeadRow.addEventListener('pointerdown', onHeaderPointerDown);
  dom.gridHeadRow.addEventListener('click', onHeaderClick);
  dom.gridHeadRow.addEventListener('dblclick', onHeaderDoubleClick);
  dom.gridHeadRow.addEventListener('keydown', onHeaderKeyDown);
  dom.gridHeadRow.addEventListener('contextmenu', (event) => {
    const th = event.target.closest('th[data-col]');
    if (!th) return;
    event.preventDefault();
    openHeaderMenu(th.dataset.col, event.clientX, event.clientY, th);
  });
  dom.gridBody.addEventListener('click', (event) => {
    const tr = event.target.closest('tr[data-id]');
    if (tr) selectRecord(tr.dataset.id);
  });
  dom.gridBody.addEventListener('dblclick', (event) => {
    const tr = event.target.closest('tr[data-id]');
    if (!tr) return;
    // With writes on, a value's cell is edited in place; the row number still opens the Inspector.
    const td = event.target.closest('td[data-col]');
    if (state.writable && td) editCell(tr, td);
    else openInInspector(tr);
  });
  dom.gridScroll.addEventListener('keydown', onGridKeyDown);
  dom.gridScroll.addEventListener('scroll', () => {
    if (openMenuState && openMenuState.name === 'header') closeMenu();
  }, { passive: true });
}

export {
  openCellMenu,
  resetColumns,
  setColumnHidden,
  setSort,
  swallowClick,
  wireGrid,
};
