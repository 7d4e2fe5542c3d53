/*
 * CoreDataBrowser — the "Query" drawer: the statements behind the page on screen, SQLite's plan for each, which
 * of the store's own plans and caches served it, and how to make it faster; for both views.
 *
 * A native ES module: what it exports is listed here.
 *
 * API (docs/API.md): GET /api/entities/:name/explain?<the page's parameters> →
 *   {engine, steps[], statements[{sql, arguments[], rows, milliseconds, plan[], indexes[], fullScans[],
 *   temporarySort}], hints[{text, modelEditor?, swiftData?}], total, milliseconds}
 * The server runs the page again to explain it, so the drawer asks only while it is open.
 *
 *   attach(button, describe)  the button opens and closes the drawer; describe() → {entity, params} for the page
 *                             on screen (its query parameters, limit and offset included), or null
 *   pageShown()               the view drew a new page: an open drawer explains it
 *
 * Elements: #query-drawer (role=complementary; data-state = loading | ready | error) with .qd-close,
 * .qd-summary, .qd-steps > li, .qd-statement (pre.qd-sql, .qd-copy, .qd-values, .qd-meta, pre.qd-plan,
 * .qd-badge), .qd-hint (pre.qd-snippet[data-kind="model|swiftdata"]).
 */

import { ApiError, apiPath, getJSON } from '../../shared/api.js';
import { copyText } from '../../shared/clipboard.js';
import { el, namedPart } from '../../shared/dom.js';

let drawer = null;
let toggle = null;
let describe = () => null;
let inflight = null;

function copyButton(text, label) {
  const button = el('button', 'qd-copy', label);
  button.type = 'button';
  button.addEventListener('click', async () => {
    const copied = await copyText(text);
    button.textContent = copied ? 'Copied' : 'Copy failed';
    window.setTimeout(() => { button.textContent = label; }, 1500);
  });
  return button;
}

function explainPath(request) {
  return apiPath(`/api/entities/${encodeURIComponent(request.entity)}/explain`, request.params);
}

function ensureDrawer() {
  if (drawer) return drawer;
  drawer = namedPart('aside', 'query-drawer', 'query-drawer', 'complementary', 'The query behind this page');
  drawer.hidden = true;
  const head = el('div', 'qd-head');
  head.append(el('h2', 'qd-title', 'Query behind this page'));
  const close = el('button', 'qd-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close the query drawer');
  close.addEventListener('click', () => setOpen(false));
  head.append(close);
  drawer.append(head, el('div', 'qd-body'));
  drawer.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      setOpen(false);
      if (toggle) toggle.focus();
    }
  });
  document.body.append(drawer);
  return drawer;
}

function setOpen(open) {
  ensureDrawer().hidden = !open;
  if (toggle) toggle.setAttribute('aria-expanded', String(open));
  if (open) load();
  else if (inflight) inflight.abort();
}

async function load() {
  const request = describe();
  const body = ensureDrawer().querySelector('.qd-body');
  if (!request) {
    drawer.dataset.state = 'ready';
    body.replaceChildren(el('p', 'qd-summary', 'Pick an entity: the drawer explains the page of records on screen.'));
    return;
  }
  if (inflight) inflight.abort();
  const controller = new AbortController();
  inflight = controller;
  drawer.dataset.state = 'loading';
  try {
    const answer = await getJSON(explainPath(request), controller.signal);
    if (controller.signal.aborted) return;
    render(body, answer, request);
    drawer.dataset.state = 'ready';
  } catch (err) {
    if (controller.signal.aborted) return;
    drawer.dataset.state = 'error';
    // A refusal names its status; an unreachable server's ApiError says so itself (status 0).
    const message = err instanceof ApiError && err.status ? `Cannot explain this page: ${err.status} · ${err.message}` : err.message;
    body.replaceChildren(el('p', 'qd-error', message || String(err)));
  } finally {
    if (inflight === controller) inflight = null;
  }
}

function render(body, answer, request) {
  const parts = [];
  const count = Number(answer.total).toLocaleString('en-US');
  const time = Number(answer.milliseconds).toFixed(2);
  parts.push(el('p', 'qd-summary', `${request.entity} · ${count} records · the page took ${time} ms on the server · ${answer.engine}`));
  if (Array.isArray(answer.steps) && answer.steps.length) {
    const steps = el('ol', 'qd-steps');
    for (const step of answer.steps) steps.append(el('li', null, step));
    parts.push(steps);
  }
  for (const hint of answer.hints || []) {
    const box = el('div', 'qd-hint');
    box.append(el('p', 'qd-hint-text', hint.text));
    for (const [kind, label, text] of [['model', 'Model editor (contents)', hint.modelEditor], ['swiftdata', 'SwiftData', hint.swiftData]]) {
      if (!text) continue;
      const row = el('div', 'qd-snippet-row');
      row.append(el('span', 'qd-label', label), copyButton(text, 'Copy'));
      const pre = el('pre', 'qd-snippet', text);
      pre.dataset.kind = kind;
      box.append(row, pre);
    }
    parts.push(box);
  }
  (answer.statements || []).forEach((statement, index) => {
    const box = el('section', 'qd-statement');
    const row = el('div', 'qd-snippet-row');
    row.append(el('span', 'qd-label', `Statement ${index + 1}`), copyButton(statement.sql, 'Copy SQL'));
    box.append(row, el('pre', 'qd-sql', statement.sql));
    if (statement.arguments.length) box.append(el('p', 'qd-values', `Values: ${statement.arguments.join(', ')}`));
    box.append(el('p', 'qd-meta', `${statement.rows.toLocaleString('en-US')} row${statement.rows === 1 ? '' : 's'} · ${Number(statement.milliseconds).toFixed(2)} ms`));
    const badges = el('p', 'qd-badges');
    for (const table of statement.fullScans) badges.append(el('span', 'qd-badge qd-badge-warn', `reads all of ${table}`));
    if (statement.temporarySort) badges.append(el('span', 'qd-badge qd-badge-warn', 'sorts in a temporary B-tree'));
    for (const index of statement.indexes) badges.append(el('span', 'qd-badge', `uses ${index}`));
    if (badges.children.length) box.append(badges);
    box.append(el('span', 'qd-label', 'Plan (EXPLAIN QUERY PLAN)'), el('pre', 'qd-plan', statement.plan.join('\n')));
    parts.push(box);
  });
  body.replaceChildren(...parts);
}

function attach(button, describePage) {
  toggle = button;
  describe = describePage;
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'query-drawer');
  button.addEventListener('click', () => setOpen(ensureDrawer().hidden));
}

function pageShown() {
  if (drawer && !drawer.hidden) load();
}

export {
  attach,
  pageShown,
};
