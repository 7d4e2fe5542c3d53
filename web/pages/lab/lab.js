/* CoreDataBrowser — Lab view (/lab).
 *
 * A 5-pane browser over the read-only JSON API (docs/API.md): entities sidebar,
 * data grid, relationships sub-panel, content viewer and detail inspector.
 * Native ES modules, no framework, no build step. User data only ever reaches the page
 * through textContent, never through innerHTML. This file is the page's entry module (it wires
 * the page and starts it); the Lab's parts are web/lab/*.js, built from web/shared/.
 *
 * Stable test hooks (tests and docs rely on these; change them together):
 *   Panes        #pane-sidebar #pane-grid #pane-relationships #pane-content #pane-detail
 *                each pane has data-state = idle | loading | ready | empty | error
 *                (#pane-grid mirrors #grid-scroll[data-state]); #pane-detail[data-id]
 *                is the id of the record it shows.
 *   Pane states  #sidebar-state #grid-state #rel-state #content-state #detail-state
 *                (shared/pane-status.js: data-kind loading | empty | error; an error carries the server's
 *                message and HTTP status)
 *   Sidebar      #entity-filter, #hide-empty (localStorage "cdb.hideEmpty", shared with the Inspector);
 *                #entity-list (one tab stop: ArrowUp/ArrowDown/Home/End show the next entity)
 *                > li[data-entity][data-depth][data-abstract] (.active on the grid's entity; title = full name and parent)
 *   Toolbar      #grid-search #grid-search-attr #grid-page-size #grid-first #grid-prev #grid-next
 *                #grid-last #grid-page-indicator (locale-grouped numbers) #grid-page-input (go to page: its
 *                number, then Enter) #grid-columns-btn; PageUp/PageDown in the grid turn the page
 *   Top bar      #grid-export-btn (the grid's list as a CSV / NDJSON file: export.js's menu and progress
 *                panel), #grid-query-btn (query.js's drawer: the SQL and plan behind the grid's page); in the
 *                top bar so the grid's toolbar stays one row
 *   Predicates   #grid-where-btn (top bar: predicate.js's filter panel), #grid-swift-btn (swift.js), #where-chip
 *                (the active where=); the cell menu's [data-action=filter-value|exclude-value], the header menu's
 *                [data-action=facets] (facets.js)
 *   Scope        #grid-scope (shown for ?relatedTo=<id>&via=<rel>), #grid-scope-text, #grid-scope-clear
 *   Grid         #grid-scroll (scroll container, focusable) > #grid
 *                thead th[data-col] (.th-label .th-type .th-sort .col-resize; aria-sort)
 *                tbody tr[data-id][data-entity] (.is-selected), td[data-col]
 *                th.col-select / td.col-select is the row-number gutter (no data-col); a sub-entity's row
 *                (tr.row-sub) names its entity there (span.row-entity)
 *   Cells        td.col-numeric td.col-date .val-true .val-false .val-null .val-binary
 *                .val-nonfinite .val-error .val-empty (the same classes in detail/content);
 *                a date cell carries data-iso (the stored value) and shows it in #date-zone's zone
 *   Invisible    span.cdb-invisible[data-code="202E"][title="RIGHT-TO-LEFT OVERRIDE (U+202E)"] stands for
 *                each bidi control, zero-width or control character in displayed text (shared/visible-text.js; el())
 *   Dates        #date-zone (select: local | utc) in the top bar
 *   Menus        .cdb-popover[data-menu="header"|"columns"], items [data-action],
 *                column checkboxes input[data-col]
 *   Relations    #rel-select, #rel-list > li[data-id][data-entity], #rel-actions with #rel-load-more
 *                (pages the rest of a to-many in) and #rel-show-all (the grid, restricted to the relationship)
 *   History      #nav-back, #nav-forward (the browser's history); #breadcrumb > button[data-id] for each
 *                record followed to reach the shown one, .current for the shown one
 *   Status bar   #status-store, #model-line[data-source] (where the model came from: .is-warning when guessed
 *                from the tables), #status-text
 *   Offline      body[data-offline] and the status dot's .is-offline while the server does not answer
 *   Content      #content-select, #content-view (.cv-text | .cv-json | .cv-value), #content-meta
 *   Detail       #detail-copy-id, #detail-copy-json (data-copy: what they copy; data-copied once clicked),
 *                #detail-content (dl.attr-list > .attr-row[data-attr] with button.copy-value[data-copy], .rel-card[data-rel]
 *                with a.rel-destination-link[data-entity] (the destination's list)
 *                .rel-item[data-id]), #detail-export (a[href=/api/object/export?id=…])
 *   Top bar      .view-tabs a[data-view], #refresh-btn, #export-btn
 *   Splitters    #split-sidebar #split-detail #split-bottom #split-bottom-lr
 *   Globals      window.__cdbLastRenderMs / __cdbLastRenderRows: time (ms, including
 *                layout) and row count of the last grid render.
 *
 * Persistence: localStorage["cdb.preferredView"] = "lab" on load; "cdb.dateZone" = "local" | "utc" (shared
 *   with the Inspector);
 *   localStorage["cdb.lab.cols.<Entity>"] = {order:[…], widths:{attr:px}, hidden:[…]};
 *   localStorage["cdb.lab.panes"] = {sidebar, detail, bottom, bottomLeft} in px.
 *   Malformed values are ignored (defaults are used instead).
 * URL: /lab?entity=&id=&sort=&order=&search=&searchAttr=&where=&limit=&offset=&relatedTo=&via= holds the
 *   view state; selecting a record pushes a history entry, other changes replace it.
 */

import { isAbort } from '../../shared/api.js';
import { readDateZone, wireDateZoneSelect } from '../../shared/dates.js';
import { onEntityListKey, readHideEmpty, writeHideEmpty } from '../../shared/entity-list.js';
import { writeStored } from '../../shared/storage.js';
import { actions } from './actions.js';
import { wireEditing } from './editing.js';
import { openCellMenu, resetColumns, setColumnHidden, setSort, swallowClick, wireGrid } from './grid-columns.js';
import { markSelectedRow, selectRecord } from './grid-selection.js';
import { loadGrid, renderGrid } from './grid.js';
import { onDocumentKeyDown } from './keyboard.js';
import { loadPanes, wireSplitters } from './layout.js';
import { wireMenus } from './menus.js';
import { applyURL, readURL, refresh, syncURL } from './navigation.js';
import { onDateZoneChange, renderContent, wireRecordPanes } from './record-content.js';
import { renderNoRecord } from './record-detail.js';
import { loadEntities, loadHealth, onSidebarClick, renderSidebar, selectEntity, setGridEntity } from './sidebar.js';
import { STORAGE, cacheDom, dom, state } from './state.js';
import { wireToolbar } from './toolbar.js';

// ------------------------------------------------------------ Init (the one entry point)

async function init() {
  // The moves the lower modules start (actions.js): set before anything is wired.
  Object.assign(actions, {
    loadGrid, markSelectedRow, openCellMenu, refresh, renderContent, renderGrid, resetColumns, selectRecord,
    setColumnHidden, setGridEntity, setSort, syncURL,
  });
  cacheDom();
  writeStored(STORAGE.preferredView, 'lab');
  loadPanes();
  wireSplitters();
  wireToolbar();
  wireEditing();
  wireGrid();
  wireMenus();
  wireRecordPanes();
  state.dateZone = readDateZone();
  wireDateZoneSelect(dom.dateZone, onDateZoneChange);
  dom.entityList.addEventListener('click', onSidebarClick);
  // One tab stop: arrow keys, Home and End show the next entity (as in the Inspector).
  dom.entityList.addEventListener('keydown', (event) => onEntityListKey(event, dom.entityList, state.entity, selectEntity));
  dom.hideEmpty.checked = readHideEmpty();
  dom.entityFilter.addEventListener('input', renderSidebar);
  dom.hideEmpty.addEventListener('change', () => {
    writeHideEmpty(dom.hideEmpty.checked);
    renderSidebar();
  });
  document.addEventListener('keydown', onDocumentKeyDown);
  window.addEventListener('click', (event) => {
    if (swallowClick) {
      event.stopPropagation();
      event.preventDefault();
    }
  }, true);
  window.addEventListener('popstate', () => applyURL(readURL()));
  renderNoRecord();
  loadHealth();
  try {
    await loadEntities();
  } catch (err) {
    if (!isAbort(err)) throw err;
  }
  applyURL(readURL());
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
