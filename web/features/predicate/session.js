/*
 * CoreDataBrowser — the filter panel's session, shared by predicate.js (the panel), builder.js (its rows) and
 * chip.js (the active filter's chip) without their importing each other in a loop.
 *
 *   session     {host, panel, model, mode, panelEntity}: the view attached (attach's options), the panel element,
 *               the builder's tree, 'builder' | 'text', and the entity the panel filters
 *   actions     what the panel does, set by predicate.js when it loads: changed() (the builder's tree changed:
 *               check it again), open(text), close(), applyText(text)
 *   describe(), fieldsNow(), analyse(entity, where, params, signal), button(label, className, onClick, title)
 */

import { apiPath, getJSON } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { fieldsOf, newGroup } from './tree.js';

/** How long the panel waits after a keystroke before it checks the text (and a record picker before it searches). */
const CHECK_DEBOUNCE_MS = 250;

const session = {
  host: null, // {button, chip, describe, entities, apply}
  panel: null,
  model: newGroup('all'),
  mode: 'builder',
  panelEntity: '',
};

const actions = {
  changed: () => {},
  open: () => {},
  close: () => {},
  applyText: async () => {},
};

const describe = () => (session.host ? session.host.describe() : null);
const fieldsNow = () => fieldsOf(session.panelEntity);

function analyse(entity, where, params, signal) {
  return getJSON(apiPath(`/api/entities/${encodeURIComponent(entity)}/predicate`, { ...(params || {}), where }), signal);
}

function button(label, className, onClick, title) {
  const node = el('button', className, label);
  node.type = 'button';
  if (title) node.title = title;
  node.addEventListener('click', onClick);
  return node;
}

export {
  actions,
  analyse,
  button,
  CHECK_DEBOUNCE_MS,
  describe,
  fieldsNow,
  session,
};
