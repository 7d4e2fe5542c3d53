/*
 * CoreDataBrowser — Inspector view (three panes: entities · records · detail).
 *
 * Native ES modules, no framework, no build step. Data comes only from the JSON API (docs/API.md). This file is the
 * page's entry module: the top bar, history and start; the panes are web/inspector/*.js, built from web/shared/.
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
 *              Ctrl/Cmd+C copies the selected row's object ID, Shift+F10 / the context-menu key opens its menu:
 *              #row-menu with [data-action=copy-id|copy-json] and, for the sorted attribute and the display attributes
 *              the row shows, [data-action=filter-value][data-attr] ("Filter by this value"))
 *              > li.record-row[data-id][data-entity][aria-selected] with .record-summary, .record-sub and, when
 *              sorted, .record-sort-value (the sorted attribute's value)
 *              (.record-sub holds .record-entity when the row's entity differs from the selected one)
 *   Detail     #detail[data-id][data-entity], #detail-entity, #detail-summary, #detail-id,
 *              #attr-table > tbody > tr.attr-row[data-attr][data-type] > td.attr-value > span.val (+ kind class),
 *              #rel-list > .rel-block[data-rel][data-destination] with .rel-count, a.rel-destination-link,
 *              a.rel-item[data-id][data-entity], .rel-more ("+N more") holding a.rel-show-all, .rel-empty;
 *              #copy-id-btn, #copy-json-btn; long strings clamped (shared/long-value.js: .long-value[data-length]
 *              with .long-value-count and button.show-all-value)
 *   Values     span.val plus one kind: val-string val-empty val-number val-nonfinite val-true val-false
 *              val-date val-uuid val-binary val-error val-null val-other; big integers sent as strings are
 *              "val-number val-bigint" (exact digits), Decimals "val-number val-decimal" (the string as sent);
 *              val-date carries data-iso (the stored value) and shows it in the #date-zone choice's zone
 *   Invisible  span.cdb-invisible[data-code="202E"][title="RIGHT-TO-LEFT OVERRIDE (U+202E)"] stands for each
 *              bidi control, zero-width or control character in displayed text (shared/visible-text.js; el() does it)
 *   Dates      #date-zone (select: local | utc), stored in localStorage "cdb.dateZone" (shared with the Lab)
 *   Splitters  #splitter-left, #splitter-right; sizes persisted in localStorage "cdb.inspector.panes"
 *              as {"left": px, "right": px}
 *   Storage    localStorage "cdb.preferredView" = "inspector" on every load of this page; "cdb.hideEmpty";
 *              "cdb.displayAttributes" = {"<store>": {"<Entity>": "attr" | ["attr", "attr"]}} (the "Name by" choices, shared/record-names.js)
 *   Keyboard   "/" focuses the search box
 */

import { apiPath } from '../../shared/api.js';
import { onReconnect } from '../../shared/connection.js';
import { wireDateZoneSelect } from '../../shared/dates.js';
import { byId } from '../../shared/dom.js';
import { onEntityListKey, readHideEmpty } from '../../shared/entity-list.js';
import { wirePageInput } from '../../shared/paging.js';
import { writeStored } from '../../shared/storage.js';
import * as exporting from '../../features/export/export.js';
import * as facets from '../../features/facets/facets.js';
import { actions } from './actions.js';
import { loadDetail, onDetailClick } from './detail.js';
import { editingButtons, resumeEditing, wireEditing } from './editing.js';
import { loadEntities, loadHealth, markSelectedEntity, onEntityClick, onEntityFilterInput, onHideEmptyChange, selectEntity, showList } from './entities.js';
import { applyPaneSizes, restorePaneSizes, setupSplitter } from './panes.js';
import {
  closeRowMenu, landOnLinkedRecord, loadPage, markSelectedRecord, onRecordClick, onRecordContextMenu, onRecordKey,
  renderRecords,
} from './record-list.js';
import { commitView, data, dom, setView, view, viewFromLocation } from './state.js';
import { describeExport, describeQuery, onDateZoneChange, onDisplayAttrChange, onLimitChange, onOrderClick, onPageJump, onPageStep, onScopeClear, onSearchAttrChange, onSearchInput, onSearchKey, onSortChange, refineQuery, renderToolbar, syncSearchInput } from './toolbar.js';
import * as live from '../../features/live/live.js';
import * as predicate from '../../features/predicate/predicate.js';
import * as queryDrawer from '../../features/query/query.js';
import * as swift from '../../features/swift/swift.js';

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
  setView(viewFromLocation());
  const listChanged = ['entity', 'search', 'searchAttr', 'where', 'sort', 'order', 'limit', 'offset', 'relatedTo', 'via']
    .some((key) => previous[key] !== view[key]);
  markSelectedEntity();
  renderToolbar();
  syncSearchInput();
  if (listChanged) loadPage(); else markSelectedRecord();
  if (previous.id !== view.id) loadDetail();
}

// ---------------------------------------------------------------------------------------------
// Init (the single entry point)
// ---------------------------------------------------------------------------------------------

function rememberPreferredView() {
  writeStored('cdb.preferredView', 'inspector'); // refused: the preference is only a convenience
}

function wireEvents() {
  dom.refreshBtn.addEventListener('click', refresh);
  // In-app Back/Forward: every navigation is a history entry (see commitView), so these are the browser's own.
  byId('nav-back').addEventListener('click', () => window.history.back());
  byId('nav-forward').addEventListener('click', () => window.history.forward());
  dom.exportBtn.addEventListener('click', exportRecord);
  exporting.attach(dom.exportViewBtn, describeExport);
  wireEditing();
  queryDrawer.attach(dom.queryBtn, describeQuery);
  predicate.attach({
    button: dom.whereBtn,
    chip: dom.whereChip,
    describe: () => view.entity && { entity: view.entity, where: view.where, storeKey: data.storeKey, params: describeQuery().params },
    entities: () => data.entities,
    apply: (where) => {
      if (where === view.where) return;
      setView({ ...view, where, offset: 0 });
      commitView('push');
      loadPage();
    },
  });
  swift.attach(dom.swiftBtn);
  dom.facetsBtn.addEventListener('click', () => {
    const schema = data.entityByName.get(view.entity);
    const first = facets.defaultFacetAttribute(schema ? schema.attributes : [], view.sort);
    if (first) facets.open(first.name, dom.facetsBtn);
  });
  live.attach(byId('live-toggle'), refresh);
  onReconnect(refresh); // the server is back (shared/connection.js): show what it holds now
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
  wirePageInput(dom.pageInput, () => data.page && { limit: view.limit, total: data.page.total }, (offset) => {
    if (offset !== view.offset) refineQuery({ offset }, { resetOffset: false });
  });
  dom.scopeClear.addEventListener('click', onScopeClear);
  dom.displayAttr.addEventListener('change', onDisplayAttrChange);
  dom.displayAttr2.addEventListener('change', onDisplayAttrChange);
  dom.entityFilter.addEventListener('input', onEntityFilterInput);
  dom.hideEmpty.addEventListener('change', onHideEmptyChange);
  dom.entityList.addEventListener('keydown', (event) => onEntityListKey(event, dom.entityList, view.entity, selectEntity));
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
  // The moves the lower modules start (actions.js): set before anything can call them.
  Object.assign(actions, { editingButtons, loadDetail, loadPage, renderRecords, resumeEditing, selectEntity, showList });
  rememberPreferredView();
  dom.hideEmpty.checked = readHideEmpty();
  restorePaneSizes();
  wireEvents();

  const linked = window.location.search;
  setView(viewFromLocation());
  commitView('replace');
  renderToolbar();
  syncSearchInput();

  loadHealth();
  loadEntities();
  landOnLinkedRecord(linked).then(loadPage);
  loadDetail();
}

init();
