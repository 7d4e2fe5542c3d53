/*
 * CoreDataBrowser — Lab view: an entity's columns — its attributes, the saved order, widths and hidden ones
 * (localStorage "cdb.lab.cols.<Entity>") — and a value painted into a cell (shared/values.js).
 */

import { UNSORTABLE_TYPES } from '../../shared/list-view.js';
import { readStoredJSON, writeStoredJSON } from '../../shared/storage.js';
import { paintValue } from '../../shared/values.js';
import { COL_WIDTH_MAX, COL_WIDTH_MIN, NUMERIC_TYPES, STORAGE, clamp, dom, isPlainObject, state } from './state.js';

// ------------------------------------------------------------ Value rendering

/** A value as both views show it (shared/values.js), with the grid's alignment for a number or a date. */
function paintCell(node, value, type) {
  if (value !== null && value !== undefined && typeof value !== 'object' && typeof value !== 'boolean') {
    if (NUMERIC_TYPES.has(type)) node.classList.add('col-numeric');
    else if (type === 'Date') node.classList.add('col-date');
  }
  return paintValue(node, value, type, state.dateZone);
}

function attributesOf(entityName) {
  const entity = state.entityByName.get(entityName);
  return entity && Array.isArray(entity.attributes) ? entity.attributes : [];
}

/** The attributes of a fetched record: the model's (with types) plus any extra keys. */
function recordAttributes(record) {
  const known = attributesOf(record.entity);
  const attrs = isPlainObject(record.attrs) ? record.attrs : {};
  const names = new Set(known.map((a) => a.name));
  const extra = Object.keys(attrs).filter((n) => !names.has(n)).sort().map((name) => ({ name, type: '' }));
  return [...known, ...extra];
}

// ------------------------------------------------------------ Column preferences

/** Identifiers: UUID attributes and names that say they hold one (`id`, `uuid`, `identifier`, `productId`,
 *  `cloudID`, `owner_id`, `remoteUUID`, `albumGUID`). Read rarely, wide, alike: they go last by default. */
function isIdentifierLike(attribute) {
  const name = attribute.name;
  return attribute.type === 'UUID' || /^(id|uuid|guid|identifier)$/i.test(name)
    || /(Id|ID|_id|Identifier|UUID|Uuid|GUID|Guid)$/.test(name);
}

/** The display attribute first, then the rest in the model's order, identifiers after them, bytes (Binary,
 *  Transformable) last. */
function defaultCols(entityName) {
  const entity = state.entityByName.get(entityName);
  const first = entity && entity.summaryAttribute;
  const attributes = attributesOf(entityName);
  const rank = (a) => (a.name === first ? 0 : UNSORTABLE_TYPES.has(a.type) ? 3 : isIdentifierLike(a) ? 2 : 1);
  const order = attributes.map((a, index) => ({ a, index }))
    .sort((x, y) => rank(x.a) - rank(y.a) || x.index - y.index)
    .map(({ a }) => a.name);
  return { order, widths: {}, hidden: [] };
}

/** Reads cdb.lab.cols.<Entity>; anything malformed or unknown falls back to defaults. */
function loadCols(entityName) {
  const prefs = defaultCols(entityName);
  const known = new Set(prefs.order);
  const raw = readStoredJSON(STORAGE.cols(entityName));
  if (!isPlainObject(raw)) return prefs;
  if (Array.isArray(raw.order)) {
    const order = [];
    for (const name of raw.order) {
      if (typeof name === 'string' && known.has(name) && !order.includes(name)) order.push(name);
    }
    for (const name of prefs.order) if (!order.includes(name)) order.push(name);
    prefs.order = order;
  }
  if (isPlainObject(raw.widths)) {
    for (const [name, width] of Object.entries(raw.widths)) {
      if (known.has(name) && typeof width === 'number' && Number.isFinite(width)) {
        prefs.widths[name] = clamp(Math.round(width), COL_WIDTH_MIN, COL_WIDTH_MAX);
      }
    }
  }
  if (Array.isArray(raw.hidden)) {
    prefs.hidden = [...new Set(raw.hidden.filter((n) => typeof n === 'string' && known.has(n)))];
  }
  return prefs;
}

function saveCols() {
  if (!state.entity || !state.cols) return;
  writeStoredJSON(STORAGE.cols(state.entity), state.cols);
}

/** The entity's to-many relationships: each can sort the grid by its count (`sort=tags.@count`). */
function countableRelationships(entityName) {
  const entity = state.entityByName.get(entityName);
  return entity && Array.isArray(entity.relationships) ? entity.relationships.filter((r) => r.toMany) : [];
}

/** For a sort key `<relationship>.@count` naming a to-many relationship of the entity: the relationship's name;
 *  null for anything else (an attribute's name). */
function countedRelationship(name, entityName = state.entity) {
  if (typeof name !== 'string' || !name.endsWith('.@count')) return null;
  const relationship = name.slice(0, -'.@count'.length);
  return countableRelationships(entityName).some((r) => r.name === relationship) ? relationship : null;
}

/** The attribute columns shown, in order; while the grid is sorted by a relationship's count, that count's
 *  column first (its values are the rows' `counts`, which the server gives with a list sorted by them). The
 *  count column is the sort's, not a preference: it comes and goes with the sort. */
function visibleColumns() {
  if (!state.cols) return [];
  const types = new Map(attributesOf(state.entity).map((a) => [a.name, a.type]));
  const hidden = new Set(state.cols.hidden);
  const columns = state.cols.order.filter((n) => !hidden.has(n) && types.has(n)).map((name) => ({ name, type: types.get(name) }));
  const counted = countedRelationship(state.sort);
  if (counted) columns.unshift({ name: state.sort, type: 'Integer 64', count: counted });
  return columns;
}

/** Whether the grid can sort by a column: bytes have no order (the server refuses them too). */
function isSortable(name) {
  const attribute = attributesOf(state.entity).find((a) => a.name === name);
  return !attribute || !UNSORTABLE_TYPES.has(attribute.type);
}

/** The saved column widths, as one style sheet's rules (one per column with a width). */
function paintColumnWidths() {
  const widths = state.cols ? state.cols.widths : {};
  const rules = [];
  dom.gridHeadRow.querySelectorAll('th[data-col]').forEach((th) => {
    const width = widths[th.dataset.col];
    if (typeof width !== 'number') return;
    const nth = th.cellIndex + 1;
    rules.push(`#grid tr > :nth-child(${nth}) { width: ${width}px; min-width: ${width}px; max-width: ${width}px; }`);
  });
  dom.widthSheet.textContent = rules.join('\n');
}

export {
  isSortable,
  paintColumnWidths,
  attributesOf,
  countableRelationships,
  countedRelationship,
  defaultCols,
  loadCols,
  paintCell,
  recordAttributes,
  saveCols,
  visibleColumns,
};
