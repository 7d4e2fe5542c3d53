/*
 * CoreDataBrowser — "Copy as Swift" for both views: the view on screen (entity,
 * search and predicate, sort, limit, offset) as an NSFetchRequest and as a SwiftData FetchDescriptor, as
 * GET /api/entities/:name/predicate writes them (`swift.coreData`, `swift.swiftData` or the reasons in
 * `swift.swiftDataUnavailable`).
 *
 * A native ES module: what it exports is listed here.
 *
 *   attach(button)   the button opens the panel for the view predicate/session.js describe() gives
 *   open(returnTo)   opens it (returnTo gets focus back on Escape)
 *
 * Elements: #swift-panel (role=dialog; data-state = loading | ready | error) with pre.sw-code[data-kind=coredata|
 * swiftdata], button.sw-copy[data-kind], ul.sw-unavailable > li, .sw-error, button.sw-close.
 */

import { copyFrom } from '../../shared/clipboard.js';
import { deferredPanel, el } from '../../shared/dom.js';
import * as predicate from '../predicate/session.js';

let panel = null;
let inflight = null;

const shell = deferredPanel('swift-panel', 'swift-panel', 'The view as Swift', () => { if (inflight) inflight.abort(); });
const close = () => shell.close();

function section(kind, title, code) {
  const box = el('section', 'sw-section');
  const head = el('div', 'sw-head');
  const copy = el('button', 'sw-copy', 'Copy');
  copy.type = 'button';
  copy.dataset.kind = kind;
  copy.dataset.copy = code;
  copy.addEventListener('click', () => copyFrom(copy));
  head.append(el('h3', 'sw-title', title), copy);
  const pre = el('pre', 'sw-code');
  pre.textContent = code; // as written: the copy is the same text
  pre.dataset.kind = kind;
  box.append(head, pre);
  return box;
}

async function open(from) {
  const view = predicate.describe();
  if (!view || !view.entity) return;
  panel = shell.node();
  const head = el('div', 'sw-bar');
  const closer = el('button', 'sw-close', '×');
  closer.type = 'button';
  closer.setAttribute('aria-label', 'Close');
  closer.addEventListener('click', close);
  head.append(el('h2', 'sw-heading', `${view.entity}: this view as Swift`), closer);
  const body = el('div', 'sw-body');
  panel.replaceChildren(head, body);
  shell.show(from || document.activeElement);
  panel.dataset.state = 'loading';
  body.append(el('p', 'sw-note', 'Writing the code…'));
  closer.focus();
  if (inflight) inflight.abort();
  const controller = new AbortController();
  inflight = controller;
  try {
    const answer = await predicate.analyse(view.entity, view.where || '', view.params, controller.signal);
    if (controller.signal.aborted) return;
    if (answer.errors.length) {
      panel.dataset.state = 'error';
      body.replaceChildren(el('p', 'sw-error', `The filter does not read: ${answer.errors[0].message}`));
      return;
    }
    const parts = [el('p', 'sw-note', 'The view on screen — entity, search and filter, sort, page size and offset. Values are passed as arguments, never as predicate text.'),
      section('coredata', 'Core Data: NSFetchRequest', answer.swift.coreData)];
    if (answer.swift.swiftData) {
      parts.push(section('swiftdata', 'SwiftData: FetchDescriptor', answer.swift.swiftData));
    } else {
      const box = el('section', 'sw-section');
      box.append(el('h3', 'sw-title', 'SwiftData: no FetchDescriptor'), el('p', 'sw-note', '#Predicate cannot say this view:'));
      const list = el('ul', 'sw-unavailable');
      for (const reason of answer.swift.swiftDataUnavailable || []) list.append(el('li', null, reason));
      box.append(list);
      parts.push(box);
    }
    body.replaceChildren(...parts);
    panel.dataset.state = 'ready';
  } catch (err) {
    if (err.name === 'AbortError') return;
    panel.dataset.state = 'error';
    body.replaceChildren(el('p', 'sw-error', `Cannot write the code: ${err.message}`));
  }
}

function attach(button) {
  button.addEventListener('click', () => {
    if (panel && !panel.hidden) close(); else open(button);
  });
}

export {
  attach,
  open,
};
