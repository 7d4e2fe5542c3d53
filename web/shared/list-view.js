/*
 * CoreDataBrowser — the list a view shows (an entity's records, searched, filtered, sorted, paged, or the records one
 * record reaches through a relationship), for the Inspector and the Lab alike: its limits, its URL (the deep links
 * people bookmark and share), the API parameters of its pages, the key of its "since you looked" baselines, and
 * which attributes it can be sorted by.
 *
 *   DEFAULT_LIMIT, MAX_LIMIT   the page size when the URL names none, and the largest the server accepts
 *   SEARCH_DEBOUNCE_MS         how long a view waits after a keystroke in the search box before it loads
 *   UNSORTABLE_TYPES           attribute types a list cannot be sorted by (the server refuses them too)
 *   emptyListView()            {entity, search, searchAttr, where, sort, order, limit, offset, id, relatedTo, via}
 *   listViewFromQuery(search)  that object as a query string (`location.search`) gives it; what is missing or
 *                              malformed takes its default ('' , 'asc', DEFAULT_LIMIT, 0)
 *   listViewQuery(view)        the URLSearchParams of a view: only what differs from the defaults; `order` is
 *                              written with a sort (both directions, so the URL says which) and when it is `desc`
 *                              (without a sort it reverses an ordered relationship's own order), `via` with
 *                              `relatedTo`
 *   listParams(view)           the API parameters of its pages without paging ({search, searchAttr, where, sort,
 *                              order, relatedTo, via}): what an export, the query drawer and the filter add to
 *   listKey(view)              the list, without its selected record: the key of the baselines
 *   parsePositiveInt(text, fallback, {min, max})
 *   newBaselines()             {page, record, counts}: what the list looked like when the person came to it, so a
 *                              refresh (Live, or Refresh) marks what changed since — page {key, rows: Map<id,
 *                              {json, row}>, order: [id]}, record {id, attrs: Map<name, json>}, counts {key,
 *                              counts: Map<entity, count>}; null until first seen. A baseline lasts while its list (or
 *                              record) stays on screen; another list or record starts a new one.
 */

import { entityFromId } from './api.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
const SEARCH_DEBOUNCE_MS = 250;
const UNSORTABLE_TYPES = new Set(['Binary', 'Transformable', 'Undefined', 'ObjectID']);

function emptyListView() {
  return {
    entity: '', search: '', searchAttr: '', where: '', sort: '', order: 'asc', limit: DEFAULT_LIMIT, offset: 0, id: '',
    relatedTo: '', via: '',
  };
}

/** A whole number written in digits only, at least `min` (else `fallback`) and at most `max` (else `max`). */
function parsePositiveInt(text, fallback, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (typeof text !== 'string' || !/^\d+$/.test(text)) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) return fallback;
  return Math.min(n, max);
}

function listViewFromQuery(search) {
  const q = new URLSearchParams(search);
  const v = emptyListView();
  v.entity = q.get('entity') || '';
  v.search = q.get('search') || '';
  v.searchAttr = q.get('searchAttr') || '';
  v.where = q.get('where') || '';
  v.sort = q.get('sort') || '';
  v.order = q.get('order') === 'desc' ? 'desc' : 'asc';
  // Any page size the server accepts is kept (limit=30 stays 30); a larger one is cut to the server's cap.
  v.limit = parsePositiveInt(q.get('limit'), DEFAULT_LIMIT, { min: 1, max: MAX_LIMIT });
  v.offset = parsePositiveInt(q.get('offset'), 0);
  v.id = q.get('id') || '';
  v.relatedTo = q.get('relatedTo') || '';
  v.via = v.relatedTo ? q.get('via') || '' : '';
  // A link to a record alone (/?id=…, as the Lab's double-click opens) still shows its entity's list.
  if (!v.entity && v.id) v.entity = entityFromId(v.id) || '';
  return v;
}

function listViewQuery(v) {
  const q = new URLSearchParams();
  if (v.entity) q.set('entity', v.entity);
  if (v.id) q.set('id', v.id);
  if (v.sort) q.set('sort', v.sort);
  if (v.sort || v.order === 'desc') q.set('order', v.order === 'desc' ? 'desc' : 'asc');
  if (v.search) q.set('search', v.search);
  if (v.searchAttr) q.set('searchAttr', v.searchAttr);
  if (v.where) q.set('where', v.where);
  if (v.limit !== DEFAULT_LIMIT) q.set('limit', String(v.limit));
  if (v.offset) q.set('offset', String(v.offset));
  if (v.relatedTo) {
    q.set('relatedTo', v.relatedTo);
    q.set('via', v.via);
  }
  return q;
}

function listParams(v) {
  return {
    search: v.search,
    searchAttr: v.searchAttr,
    where: v.where,
    sort: v.sort || '',
    order: v.order === 'desc' ? 'desc' : '',
    relatedTo: v.relatedTo,
    via: v.relatedTo ? v.via : '',
  };
}

function listKey(v) {
  return JSON.stringify([v.entity, v.search, v.searchAttr, v.where, v.sort, v.order, v.limit, v.offset, v.relatedTo, v.via]);
}

function newBaselines() {
  return { page: null, record: null, counts: null };
}

export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  SEARCH_DEBOUNCE_MS,
  UNSORTABLE_TYPES,
  emptyListView,
  listKey,
  listParams,
  listViewFromQuery,
  listViewQuery,
  newBaselines,
  parsePositiveInt,
};
