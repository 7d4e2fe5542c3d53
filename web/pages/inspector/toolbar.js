/*
 * CoreDataBrowser — Inspector view: the records pane's toolbar (search, sort, order, page size, paging, the
 * "related to" chip) and the "Name by" choice that names the records.
 */

import { repaintDates } from '../../shared/dates.js';
import { el } from '../../shared/dom.js';
import { DEFAULT_LIMIT, listParams, MAX_LIMIT, parsePositiveInt, SEARCH_DEBOUNCE_MS, UNSORTABLE_TYPES } from '../../shared/list-view.js';
import { lastPageOffset, showPageSize, steppedOffset } from '../../shared/paging.js';
import { displayChoices, displayName, setDisplayChoices, showScope } from '../../shared/record-names.js';
import { actions } from './actions.js';
import { commitView, data, dom, setOptions, setView, view } from './state.js';

// ---------------------------------------------------------------------------------------------
// Records pane: toolbar
// ---------------------------------------------------------------------------------------------

let searchTimer = 0;

function renderToolbar() {
  const entity = data.entityByName.get(view.entity);
  const attributes = entity ? entity.attributes : [];
  const stringAttrs = attributes.filter((a) => a.type === 'String');

  setOptions(dom.searchAttr, [{ value: '', label: 'All text' }, ...stringAttrs.map((a) => ({ value: a.name, label: a.name }))], view.searchAttr);
  const sortable = attributes.filter((a) => !UNSORTABLE_TYPES.has(a.type));
  // A to-many relationship sorts by how many records it holds (`sort=tags.@count`).
  const counted = (entity && entity.relationships ? entity.relationships : []).filter((r) => r.toMany);
  setOptions(dom.sortSelect, [{ value: '', label: '(none)' }, ...sortable.map((a) => ({ value: a.name, label: a.name })),
    ...counted.map((r) => ({ value: `${r.name}.@count`, label: `${r.name} count` }))], view.sort);
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

  showPageSize(dom.limitSelect, view.limit);
  renderOrder();

  const enabled = Boolean(view.entity);
  for (const control of [dom.searchInput, dom.searchAttr, dom.displayAttr, dom.sortSelect, dom.orderBtn, dom.limitSelect,
    dom.exportViewBtn, dom.queryBtn, dom.whereBtn, dom.facetsBtn, dom.swiftBtn]) {
    control.disabled = !enabled;
  }
  const create = document.getElementById('new-record-btn');  // editing.js adds it when the server writes
  if (create) create.disabled = !entity || entity.isAbstract;
}

// ---------------------------------------------------------------------------------------------
// Display attributes: which attribute names the records (the server's choice unless the user picked one)
// ---------------------------------------------------------------------------------------------

/** The attributes the user picked for the entity's names in this store (shared.js), [] for the default. */
function displayChoice(entityName) {
  return displayChoices(data.storeKey, entityName);
}

function onDisplayAttrChange() {
  const first = dom.displayAttr.value;
  const second = first ? dom.displayAttr2.value : '';
  setDisplayChoices(data.storeKey, view.entity, [first, second !== first ? second : '']);
  renderToolbar();
  repaintNames();
}

/** The list on screen for "Export view" (export.js): the same parameters as its pages, without paging. */
function describeExport() {
  if (!view.entity) return null;
  const shown = data.page && data.pageView && data.pageView.entity === view.entity ? data.page.total : null;
  return {
    entity: view.entity,
    params: listParams(view),
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
  if (data.page && data.pageView) actions.renderRecords(data.page, data.pageView);
  if (view.id) actions.loadDetail();
}

/** The "Dates" choice changed (here or in another tab): the dates on screen are redrawn, nothing is fetched. */
function onDateZoneChange(zone) {
  repaintDates(dom.layout, zone);
}

/** A record's name: the user's chosen attributes' values (joined by a space) when any has one, else the
 *  server's summary. */
function nameOf(record) {
  const own = displayChoice(record.entity);
  return displayName(record.attrs, own.length ? own : displayChoice(view.entity), record.summary);
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
  setView({ ...view, ...changes });
  if (resetOffset) view.offset = 0;
  commitView('replace');
  actions.loadPage();
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
  setView({ ...view, searchAttr: dom.searchAttr.value, offset: view.search ? 0 : view.offset });
  commitView('replace');
  if (view.search) actions.loadPage();
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
  const offset = toEnd && page ? lastOffset(page.total) : 0;
  if (offset !== view.offset) refineQuery({ offset }, { resetOffset: false });
}

function lastOffset(total) {
  return lastPageOffset(total, view.limit);
}

function onScopeClear() {
  refineQuery({ relatedTo: '', via: '' });
  renderScope();
}

/** The "related to" chip: which record and relationship restrict the list, with a button to remove it. */
function renderScope() {
  // "Related to Émile Zola (Author) through books": the record's name once it is known.
  showScope(dom.scopeChip, dom.scopeText, view, data.storeKey);
}

export {
  describeExport,
  displayChoice,
  describeQuery,
  lastOffset,
  nameOf,
  onDateZoneChange,
  onDisplayAttrChange,
  onLimitChange,
  onOrderClick,
  onPageJump,
  onPageStep,
  onScopeClear,
  onSearchAttrChange,
  onSearchInput,
  onSearchKey,
  onSortChange,
  refineQuery,
  renderScope,
  renderToolbar,
  repaintNames,
  syncSearchInput,
};
