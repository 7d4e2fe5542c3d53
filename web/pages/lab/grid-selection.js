/*
 * CoreDataBrowser — Lab view: the grid's selected row: marking it, moving it with the keyboard, paging from it.
 */

import { copyText } from '../../shared/clipboard.js';
import { steppedOffset } from '../../shared/paging.js';
import { viewURL } from '../../shared/url.js';
import { actions } from './actions.js';
import { syncURL } from './navigation.js';
import { focusDetail } from './record-content.js';
import { loadRecord } from './record-detail.js';
import { clamp, dom, rowData, state } from './state.js';
import { goToOffset } from './toolbar.js';

// ------------------------------------------------------------ Grid: selection

function markSelectedRow({ scroll = false } = {}) {
  const previous = dom.gridBody.querySelector('tr.is-selected');
  const current = state.selectedId ? state.rowById.get(state.selectedId) : null;
  if (previous && previous !== current) {
    previous.classList.remove('is-selected');
    previous.removeAttribute('aria-selected');
  }
  if (current) {
    current.classList.add('is-selected');
    current.setAttribute('aria-selected', 'true');
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
function selectRecord(id, { history = 'push', scroll = false, keepTrail = false } = {}) {
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
  selectRecord(rows[next].dataset.id, { history: 'replace', scroll: true });
}

function onGridKeyDown(event) {
  if (event.target.closest('thead') || event.altKey) return;
  const moves = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity };
  if ((event.key === 'PageDown' || event.key === 'PageUp') && !event.metaKey) {
    event.preventDefault();
    turnPage(event.key === 'PageDown' ? 1 : -1);
  } else if (event.key in moves && !event.metaKey) {
    event.preventDefault();
    moveSelection(moves[event.key]);
  } else if (event.key === 'Enter') {
    event.preventDefault();
    if (!state.selectedId) moveSelection(1);
    else focusDetail();
  } else if (state.selectedId && (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10'))) {
    // The keyboard's way to the copy menu: for the selected row.
    event.preventDefault();
    const tr = state.rowById.get(state.selectedId);
    const rect = (tr ?? dom.gridScroll).getBoundingClientRect();
    actions.openCellMenu(state.selectedId, null, rect.left + 40, rect.bottom, dom.gridScroll);
  } else if (state.selectedId && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c'
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
  const rows = [...dom.gridBody.querySelectorAll('tr[data-id]')];
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
  const rows = dom.gridBody.querySelectorAll('tr[data-id]');
  if (rows.length) selectRecord(rows[Math.min(kept.index, rows.length - 1)].dataset.id, { history: 'replace', scroll: true });
}

function openInInspector(tr) {
  const params = new URLSearchParams({ entity: state.entity, id: tr.dataset.id });
  window.open(viewURL('/', params), '_blank');
}

export {
  markSelectedRow,
  moveSelection,
  onGridKeyDown,
  openInInspector,
  selectKeptRow,
  selectRecord,
};
