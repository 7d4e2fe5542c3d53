/*
 * CoreDataBrowser — Inspector view: the records pane's list: loading a page, its rows (what changed since you
 * looked), the pager, the selection and the row's menu (copy; filter by a value the row shows).
 */

import { apiPath, getJSON, isAbort, restartFetch, shortId } from '../../shared/api.js';
import { copyText, recordJSON } from '../../shared/clipboard.js';
import { readDateZone } from '../../shared/dates.js';
import { el, markChange, menuItem } from '../../shared/dom.js';
import { listKey, listParams } from '../../shared/list-view.js';
import { formatCount } from '../../shared/paging.js';
import { showPaneStatus } from '../../shared/pane-status.js';
import { renderValue } from '../../shared/values.js';
import { visibleText } from '../../shared/visible-text.js';
import * as predicate from '../../features/predicate/predicate.js';
import * as queryDrawer from '../../features/query/query.js';
import { actions } from './actions.js';
import { commitView, data, dom, errorText, inflight, setView, since, view } from './state.js';
import { displayChoice, lastOffset, nameOf, onPageStep, renderScope } from './toolbar.js';

// ---------------------------------------------------------------------------------------------
// Records pane: list
// ---------------------------------------------------------------------------------------------

/** The API parameters of a view's page (the page, and the position route, read the same list). */
function listQuery(v) {
  return { ...listParams(v), limit: v.limit, offset: v.offset };
}

/**
 * A link to a record that names no page (`/?id=…`, `/?entity=Book&id=…`) opens the list on the page that holds the
 * record, so it shows selected in its list as when it was followed there; the server says where it sits.
 */
async function landOnLinkedRecord(search) {
  if (!view.id || !view.entity || new URLSearchParams(search).has('offset')) return;
  try {
    const position = await getJSON(apiPath(`/api/entities/${encodeURIComponent(view.entity)}/position`,
      { ...listQuery(view), id: view.id }));
    if (Number.isSafeInteger(position.pageOffset) && position.pageOffset !== view.offset) {
      setView({ ...view, offset: position.pageOffset });
      commitView('replace');
    }
  } catch (_) {
    // Not in the list (or gone): the first page shows, and the detail says what is wrong with the record.
  }
}

async function loadPage() {
  const signal = restartFetch(inflight, 'page').signal;
  if (!view.entity) {
    inflight.page = null;
    data.page = null;
    dom.recordList.replaceChildren();
    renderPager();
    showPaneStatus(dom.recordsPane, dom.recordsStatus, 'idle', 'hint', 'Pick an entity on the left.');
    return;
  }
  // Rows already on screen stay (dimmed by CSS) until the new page arrives, so the list does not jump.
  showPaneStatus(dom.recordsPane, dom.recordsStatus, 'loading', dom.recordList.children.length ? null : 'loading', 'Loading records…');
  const requested = { ...view };
  const path = apiPath(`/api/entities/${encodeURIComponent(requested.entity)}`, listQuery(requested));
  renderScope();
  try {
    const page = await getJSON(path, signal);
    if (signal.aborted) return;
    data.page = page;
    data.pageView = requested;
    renderRecords(page, requested);
    queryDrawer.pageShown();
    predicate.viewChanged();
    renderPager();
    if (!page.rows.length) {
      const message = page.total > 0
        ? `No records on this page (${formatCount(page.total)} in all).`
        : requested.search || requested.where ? `No ${requested.entity} records match ${[requested.search ? `“${requested.search}”` : '', requested.where ? 'the filter' : ''].filter(Boolean).join(' and ')}.` : `No ${requested.entity} records.`;
      showPaneStatus(dom.recordsPane, dom.recordsStatus, 'ready', 'empty', message);
    } else {
      showPaneStatus(dom.recordsPane, dom.recordsStatus, 'ready', null);
    }
  } catch (err) {
    if (isAbort(err)) return;
    data.page = null;
    dom.recordList.replaceChildren();
    renderPager();
    showPaneStatus(dom.recordsPane, dom.recordsStatus, 'error', 'error', errorText(err));
    predicate.viewChanged(); // a filter the store refuses stays on screen, to edit or clear
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
    if (requested.sort && requested.sort.endsWith('.@count')) {
      // A relationship's count: the server gives it with each row of a list sorted by it (row.counts).
      const relationship = requested.sort.slice(0, -'.@count'.length);
      const count = row.counts ? row.counts[relationship] : undefined;
      li.append(el('span', 'record-sort-value', count === undefined ? '' : `${count} ${relationship}`));
    } else if (requested.sort) {
      // The sorted attribute's value, so a sort can be checked by eye.
      const schema = data.entityByName.get(requested.entity);
      const type = schema ? (schema.attributes.find((a) => a.name === requested.sort) || {}).type : '';
      const holder = el('span', 'record-sort-value');
      holder.append(renderValue(row.attrs ? row.attrs[requested.sort] : null, type, readDateZone()));
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
  dom.lastBtn.disabled = page.offset >= lastOffset(page.total);
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
  const item = (label, action, text) => menuItem('row-menu-item', label, action, closeRowMenu, () => copyText(text));
  menu.append(
    item('Copy object ID', 'copy-id', row.id),
    item('Copy row as JSON', 'copy-json', recordJSON(row)),
  );
  menu.append(...filterItems(row));
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

/**
 * "Filter by this value" for the values a row shows: the sorted attribute's (shown at its right) and the display
 * attributes' (its name). Only the list's entity's attributes (a sub-entity's own attribute is not the list's);
 * a display attribute only when its value is what the row shows (a non-empty string).
 */
function filterItems(row) {
  const schema = data.entityByName.get(view.entity);
  if (!schema || !row.attrs) return [];
  // The names the row's label is made of (as nameOf chooses them: the record's own entity's choice first).
  const own = displayChoice(row.entity);
  const shownNames = (own.length ? own : displayChoice(view.entity))
    .filter((name) => typeof row.attrs[name] === 'string' && row.attrs[name].trim());
  const names = [...new Set([view.sort, ...shownNames].filter(Boolean))];
  const items = [];
  for (const name of names) {
    const attribute = schema.attributes.find((a) => a.name === name);
    if (!attribute || !Object.prototype.hasOwnProperty.call(row.attrs, name)) continue;
    const node = predicate.conditionFor(name, row.attrs[name]);
    if (!node) continue;
    const button = menuItem('row-menu-item', `Filter by this ${name}`, 'filter-value', closeRowMenu, () => predicate.addCondition(node));
    button.dataset.attr = name;
    button.title = predicate.formatTree(node, () => attribute.type);
    items.push(button);
  }
  return items;
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
  setView({ ...view, id });
  commitView(mode);
  const row = markSelectedRecord();
  if (row) row.scrollIntoView({ block: 'nearest' });
  actions.loadDetail();
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
    copyText(view.id);
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

export {
  closeRowMenu,
  landOnLinkedRecord,
  loadPage,
  markSelectedRecord,
  onRecordClick,
  onRecordContextMenu,
  onRecordKey,
  renderRecords,
  selectRecord,
};
