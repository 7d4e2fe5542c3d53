/*
 * CoreDataBrowser — Lab view: the state ⇄ the URL (/lab?entity=&id=&sort=…), applying a URL (first load,
 * Back/Forward) and Refresh.
 */

import { commitURL, viewURL } from '../../shared/url.js';
import { attributesOf, countedRelationship, loadCols } from './columns.js';
import { markSelectedRow } from './grid-selection.js';
import { loadGrid } from './grid.js';
import { loadRecord } from './record-detail.js';
import { loadEntities, loadHealth, markActiveEntity, setGridEntity } from './sidebar.js';
import { DEFAULT_LIMIT, MAX_LIMIT, dom, state } from './state.js';
import { populateSearchAttr, syncControls } from './toolbar.js';

// ------------------------------------------------------------ URL state

function readURL() {
  const params = new URLSearchParams(window.location.search);
  const limit = Number(params.get("limit"));
  const offset = Number(params.get("offset"));
  return {
    entity: params.get("entity") || null,
    id: params.get("id") || null,
    sort: params.get("sort") || null,
    order: params.get("order") === "desc" ? "desc" : "asc",
    search: params.get("search") || "",
    searchAttr: params.get("searchAttr") || "",
    where: params.get("where") || "",
    // Any page size the server accepts is kept (limit=30 stays 30); the server caps it at 500.
    limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_LIMIT) : DEFAULT_LIMIT,
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
    relatedTo: params.get("relatedTo") || "",
    via: params.get("via") || "",
  };
}

function stateURL() {
  const params = new URLSearchParams();
  if (state.entity) params.set("entity", state.entity);
  if (state.selectedId) params.set("id", state.selectedId);
  if (state.sort) {
    params.set("sort", state.sort);
    params.set("order", state.order);
  }
  if (state.search) params.set("search", state.search);
  if (state.searchAttr) params.set("searchAttr", state.searchAttr);
  if (state.where) params.set("where", state.where);
  if (state.limit !== DEFAULT_LIMIT) params.set("limit", String(state.limit));
  if (state.offset) params.set("offset", String(state.offset));
  if (state.relatedTo) {
    params.set("relatedTo", state.relatedTo);
    params.set("via", state.via);
  }
  return viewURL(window.location.pathname, params);
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
  const searchAttr = url.searchAttr && attrs.some((a) => a.name === url.searchAttr && a.type === "String") ? url.searchAttr : "";
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
  Object.assign(state, { sort, order: sort ? url.order : "asc", search: url.search, searchAttr, where: url.where, limit: url.limit, offset: url.offset,
    relatedTo: url.relatedTo, via: url.relatedTo ? url.via : "" });
  syncControls();
  const idChanged = url.id !== state.selectedId;
  state.selectedId = url.id;
  syncURL("replace"); // normalise (default entity, dropped unknown params)
  if (gridChanged || !state.rows.length) loadGrid();
  else markSelectedRow({ scroll: true });
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
  loadGrid();
  loadRecord();
}

export {
  applyURL,
  readURL,
  refresh,
  syncURL,
};
