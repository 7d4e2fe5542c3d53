/*
 * CoreDataBrowser — Lab view: the state ⇄ the URL (/lab?entity=&id=&sort=…), applying a URL (first load,
 * Back/Forward) and Refresh.
 */

import { listViewFromQuery, listViewQuery } from '../../shared/list-view.js';
import { commitURL, viewURL } from '../../shared/url.js';
import { actions } from './actions.js';
import { attributesOf, countedRelationship, loadCols } from './columns.js';
import { loadRecord } from './record-detail.js';
import { loadEntities, loadHealth, markActiveEntity, setGridEntity } from './sidebar.js';
import { dom, state } from './state.js';
import { populateSearchAttr, syncControls } from './toolbar.js';

// ------------------------------------------------------------ URL state

/** The view the URL names (the Inspector reads the same: shared/list-view.js); the Lab keeps null for "none". */
function readURL() {
  const view = listViewFromQuery(window.location.search);
  return { ...view, entity: view.entity || null, id: view.id || null, sort: view.sort || null };
}

function stateURL() {
  return viewURL(window.location.pathname, listViewQuery({ ...state, id: state.selectedId }));
}

/** mode "push" adds a history entry (user-picked records, entities); "replace" does not. */
function syncURL(mode) {
  commitURL(stateURL(), mode);
}

// ------------------------------------------------------------ Navigation

/** Applies a URL's state (initial load, popstate). */
function applyURL(url) {
  let entity = url.entity;
  if (!entity) entity = state.entities.length ? state.entities[0].name : null;
  const entityChanged = entity !== state.entity;
  if (entityChanged) setGridEntity(entity);
  const attrs = attributesOf(entity);
  const sort = url.sort && (!attrs.length || attrs.some((a) => a.name === url.sort) || countedRelationship(url.sort, entity))
    ? url.sort : null;
  const searchAttr = url.searchAttr && attrs.some((a) => a.name === url.searchAttr && a.type === 'String') ? url.searchAttr : '';
  const gridChanged = entityChanged
    || sort !== state.sort
    || (sort && url.order !== state.order)
    || url.search !== state.search
    || searchAttr !== state.searchAttr
    || url.where !== state.where
    || url.limit !== state.limit
    || url.offset !== state.offset
    || url.relatedTo !== state.relatedTo
    || url.via !== state.via;
  Object.assign(state, { sort, order: sort ? url.order : 'asc', search: url.search, searchAttr, where: url.where, limit: url.limit, offset: url.offset,
    relatedTo: url.relatedTo, via: url.relatedTo ? url.via : '' });
  syncControls();
  const idChanged = url.id !== state.selectedId;
  state.selectedId = url.id;
  syncURL('replace'); // normalise (default entity, dropped unknown params)
  if (gridChanged || !state.rows.length) actions.loadGrid();
  else actions.markSelectedRow({ scroll: true });
  if (idChanged || !state.record) loadRecord();
}

async function refresh() {
  await loadEntities().catch(() => {});
  if (state.entity) {
    state.cols = loadCols(state.entity);
    const searchAttr = state.searchAttr;
    populateSearchAttr();
    dom.searchAttr.value = searchAttr;
  }
  markActiveEntity();
  loadHealth();
  actions.loadGrid();
  loadRecord();
}

export {
  applyURL,
  readURL,
  refresh,
  syncURL,
};
