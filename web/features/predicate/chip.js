/*
 * CoreDataBrowser — predicates for both views: the chip of the active filter (the view's where, as the store reads it),
 * and conditions from values ("Filter by this value", facets) ANDed to it.
 */

import { el } from '../../shared/dom.js';
import { formatTree, entityNamed, typeResolver, OPAQUE_TYPES } from './tree.js';
import { actions, analyse, button, describe, session } from './session.js';

// -------------------------------------------------------------------------------------------
// The chip of the active filter
// -------------------------------------------------------------------------------------------

let chipAbort = null;
/** The chip's analysis of the view's where: {entity, where, answer}. */
let shownWhere = null;

/** A where just checked and applied: the chip shows it without asking again. */
function rememberShown(shown) {
  shownWhere = shown;
}

function viewChanged() {
  if (!session.host) return;
  const view = describe();
  const where = view && view.entity ? view.where || '' : '';
  if (session.panel && !session.panel.hidden && view && view.entity !== session.panelEntity) actions.close();
  if (!where) {
    session.host.chip.hidden = true;
    shownWhere = null;
    return;
  }
  if (shownWhere && shownWhere.entity === view.entity && shownWhere.where === where && shownWhere.answer) {
    drawChip(where, shownWhere.answer);
    return;
  }
  drawChip(where, null);
  if (chipAbort) chipAbort.abort();
  chipAbort = new AbortController();
  const entity = view.entity;
  analyse(entity, where, {}, chipAbort.signal).then((answer) => {
    shownWhere = { entity, where, answer };
    const now = describe();
    if (now && now.entity === entity && now.where === where) drawChip(where, answer);
  }).catch(() => {});
}

function drawChip(where, answer) {
  const chip = session.host.chip;
  const text = el('button', 'where-text');
  text.type = 'button';
  text.title = 'Edit the filter';
  const bad = answer && answer.errors.length;
  text.append(el('span', 'where-label', 'Where'), el('code', 'where-code', answer && !bad ? answer.canonical : where));
  if (bad) text.append(el('span', 'where-bad', `⚠ ${answer.errors[0].message}`));
  text.addEventListener('click', () => actions.open());
  const clear = button('×', 'where-clear', () => actions.applyText(''), 'Remove the filter');
  clear.setAttribute('aria-label', 'Remove the filter');
  chip.replaceChildren(text, clear);
  chip.dataset.where = where;
  chip.hidden = false;
}

// -------------------------------------------------------------------------------------------
// Conditions from values (filter by this value, facets)
// -------------------------------------------------------------------------------------------

function attributeOf(attr) {
  const view = describe();
  const entity = view && entityNamed(view.entity);
  return entity ? entity.attributes.find((a) => a.name === attr) || null : null;
}

/** "attr == value" for the list's entity, or null when the value has no literal (bytes, NaN). */
function conditionFor(attr, value) {
  const attribute = attributeOf(attr);
  if (!attribute) return null;
  if (value === null || value === undefined) return { keyPath: attr, op: '==', value: null };
  if (OPAQUE_TYPES.has(attribute.type) || typeof value === 'object') return null;
  if ((attribute.type === 'Double' || attribute.type === 'Float') && typeof value === 'string') return null;
  return { keyPath: attr, op: '==', value };
}

/** ANDs node to the view's predicate and applies it (an equal condition already there is not added twice). */
async function addCondition(node) {
  const view = describe();
  if (!view || !view.entity || !node) return;
  let tree = null;
  if (view.where) {
    const known = shownWhere && shownWhere.entity === view.entity && shownWhere.where === view.where ? shownWhere.answer : null;
    const answer = known || await analyse(view.entity, view.where, {});
    if (answer.errors.length) {
      actions.open(view.where);
      return;
    }
    tree = answer.tree;
  }
  const parts = !tree ? [] : Array.isArray(tree.all) ? tree.all : [tree];
  const next = [...parts];
  for (const part of Array.isArray(node.all) ? node.all : [node]) {
    if (!next.some((p) => JSON.stringify(p) === JSON.stringify(part))) next.push(part);
  }
  const combined = next.length === 1 ? next[0] : { all: next };
  await actions.applyText(formatTree(combined, typeResolver(view.entity)));
}

export {
  addCondition,
  conditionFor,
  rememberShown,
  viewChanged,
};
