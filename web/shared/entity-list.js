/*
 * CoreDataBrowser — the entity sidebar of both views: tree, filter, "Hide empty", one tab stop with arrow keys.
 *
 *   HIDE_EMPTY_KEY         localStorage "cdb.hideEmpty" = "1" | "0": the sidebars' "Hide empty" (one choice, both views)
 *   readHideEmpty(), writeHideEmpty(on)
 *   entityTree(entities)   [{entity, depth}]: roots by name, each followed by its sub-entities (depth-first)
 *   shownEntities(entities, {filter, hideEmpty, selected})
 *                          the tree without what the filter box and "Hide empty" leave out (the selected entity
 *                          always stays, so the list never hides where you are)
 *   entityTitle(entity)    the sidebar item's tooltip: full name, parent, abstract
 *   onEntityListKey(event, list, current, select)
 *                          a sidebar list is one tab stop: ArrowUp/ArrowDown/Home/End in it call select(name) of
 *                          the next entity (the items are list's children, with data-entity) and scroll it in
 *   countDelta(delta)      the `+3` / `−1` badge for an entity whose count moved since the person looked
 */

import { el } from './dom.js';
import { readStored, writeStored } from './storage.js';

const HIDE_EMPTY_KEY = 'cdb.hideEmpty';

function readHideEmpty() {
  return readStored(HIDE_EMPTY_KEY) === '1';
}

function writeHideEmpty(on) {
  writeStored(HIDE_EMPTY_KEY, on ? '1' : '0');
}

/** Entities in tree order: roots by name, each followed by its sub-entities by name (depth-first). */
function entityTree(entities) {
  const children = new Map();
  const known = new Set(entities.map((e) => e.name));
  for (const entity of entities) {
    const parent = entity.parent && known.has(entity.parent) ? entity.parent : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(entity);
  }
  const ordered = [];
  const visit = (parent, depth) => {
    for (const entity of (children.get(parent) || []).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      ordered.push({ entity, depth });
      if (depth < 16) visit(entity.name, depth + 1); // a cycle in a malformed answer stops here
    }
  };
  visit('', 0);
  return ordered;
}

/** The tree as the sidebar shows it: names containing the filter text (any case), empty entities left out
 *  with hideEmpty, except the selected one. */
function shownEntities(entities, { filter = '', hideEmpty = false, selected = null } = {}) {
  const needle = filter.trim().toLowerCase();
  return entityTree(entities).filter(({ entity }) => (!needle || entity.name.toLowerCase().includes(needle))
    && !(hideEmpty && entity.count === 0 && entity.name !== selected));
}

/** "CDCartItem, a sub-entity of CDCart, abstract: lists its sub-entities’ records": the full name, always. */
function entityTitle(entity) {
  return [entity.name, entity.parent ? `a sub-entity of ${entity.parent}` : '',
    entity.abstract ? 'abstract: lists its sub-entities’ records' : ''].filter(Boolean).join(', ');
}

/** The entity ArrowDown/ArrowUp/Home/End move to from `current` (null: not a move, or nowhere to go). */
function entityListStep(event, names, current) {
  if (!names.length || event.altKey || event.ctrlKey || event.metaKey) return null;
  const index = names.indexOf(current);
  let next;
  switch (event.key) {
    case 'ArrowDown': next = index < 0 ? 0 : Math.min(names.length - 1, index + 1); break;
    case 'ArrowUp': next = index < 0 ? names.length - 1 : Math.max(0, index - 1); break;
    case 'Home': next = 0; break;
    case 'End': next = names.length - 1; break;
    default: return null;
  }
  event.preventDefault();
  return next === index ? null : names[next];
}

function onEntityListKey(event, list, current, select) {
  const items = [...list.children];
  const next = entityListStep(event, items.map((li) => li.dataset.entity), current);
  if (!next) return;
  select(next);
  items.find((li) => li.dataset.entity === next).scrollIntoView({ block: 'nearest' });
}

/** The sidebar's `+3` / `−1` badge for an entity whose count moved by `delta` since the person looked. */
function countDelta(delta) {
  const badge = el('span', 'entity-delta', delta > 0 ? `+${delta.toLocaleString()}` : `−${(-delta).toLocaleString()}`);
  badge.title = `${Math.abs(delta)} ${delta > 0 ? 'more' : 'fewer'} since you looked`;
  return badge;
}

export {
  HIDE_EMPTY_KEY,
  readHideEmpty,
  writeHideEmpty,
  entityTree,
  shownEntities,
  entityTitle,
  onEntityListKey,
  countDelta,
};
