/*
 * CoreDataBrowser — predicates for both views: the text of a predicate tree, the filter panel
 * (a builder of rows and nested groups, and a text mode checked as the person types), the active filter's chip
 * and the recent predicates of each entity.
 *
 * A native ES module: what it exports is listed here. The trees, their text and the builder's model are
 * tree.js's; the builder's rows builder.js's; the chip and conditions from values
 * chip.js's (this file re-exports what the views use).
 *
 * API (docs/API.md, "Predicates"): GET /api/entities/:name/predicate?where=<text>&<list params> →
 *   {where, canonical, tree, errors:[{message, offset, length}], swift:{coreData, swiftData, swiftDataUnavailable}}
 * The view keeps `where=<text>` in its URL and passes it to the list, position, export and explain routes.
 *
 *   attach({button, chip, describe, entities, apply})
 *       button      opens and closes the filter panel
 *       chip        the element that shows the active filter (its canonical text) with Edit and × (clear)
 *       describe()  → {entity, where, storeKey, params} for the list on screen (params: its list parameters)
 *       entities()  → /api/entities (the model)
 *       apply(text) sets the view's where (its first page, a new history entry)
 *   viewChanged()          the view drew a page: the chip follows its where
 *   conditionFor(attr, value)
 *                          the comparison "attr == value" ("== nil" for null) of the list's entity, or null when the
 *                          value cannot be compared (bytes, a non-finite number)
 *   addCondition(node)     ANDs a comparison (the JSON form) to the active predicate and applies it
 *   formatTree(tree, typeOf), quote(text), keyPathText(path), fieldsOf(entity)
 *                          from tree.js, for the other modules
 *   analyse(entity, where, params) → the /predicate answer
 *
 * Elements: #predicate-panel (role=dialog; data-mode = builder | text) with .pp-group[data-type=all|any|none]
 * (select.pp-group-type, button.pp-add-row, button.pp-add-group, button.pp-remove-group) holding .pp-row
 * (select.pp-quantifier, select.pp-field, select.pp-op, .pp-options input[data-option=c|d], .pp-value with
 * input/select.pp-input, button.pp-picker for a record, .pp-list for IN, button.pp-remove-row); textarea#pp-text,
 * .pp-error[data-offset][data-length] (.pp-error-context with mark.pp-error-span), .pp-canonical, .pp-recent >
 * button.pp-recent-item, button.pp-apply, button.pp-clear, button.pp-mode[data-mode]. Chip: .where-text,
 * button.where-edit, button.where-clear.
 */

import { el, namedPart } from '../../shared/dom.js';
import * as swift from '../swift/swift.js';
import { closePicker, picker, renderGroup } from './builder.js';
import { addCondition, conditionFor, rememberShown, viewChanged } from './chip.js';
import { actions, analyse, button, CHECK_DEBOUNCE_MS, describe, fieldsNow, session } from './session.js';
import { quote, keyPathText, formatTree, fieldsOf, typeResolver, newGroup, groupNode, modelOf, Unbuildable, RECENT_KEY, recentOf, remember, setEntities } from './tree.js';

// -------------------------------------------------------------------------------------------
// The panel
// -------------------------------------------------------------------------------------------

let checkTimer = 0;
let checkAbort = null;
/** The last check: {text, answer} of the text on screen. */
let checked = null;

function ensurePanel() {
  if (session.panel) return session.panel;
  session.panel = namedPart('section', 'predicate-panel', 'predicate-panel', 'dialog', 'Filter records');
  session.panel.hidden = true;
  session.panel.addEventListener('keydown', onPanelKey);
  document.body.append(session.panel);
  return session.panel;
}

function onPanelKey(event) {
  if (event.key === 'Escape') {
    if (document.querySelector('.pp-picker-pop')) return;
    event.preventDefault();
    event.stopPropagation();
    close();
    if (session.host) session.host.button.focus();
  } else if (event.key === 'Enter' && !event.shiftKey && event.target.matches('input, textarea, select')
    && !event.target.closest('.pp-picker-pop')) {
    event.preventDefault();
    applyPanel();
  }
}

function open(withText) {
  const view = describe();
  if (!view || !view.entity) return;
  ensurePanel();
  session.panelEntity = view.entity;
  const text = withText !== undefined ? withText : view.where || '';
  session.mode = 'builder';
  session.model = newGroup('all');
  checked = null;
  session.panel.hidden = false;
  session.host.button.setAttribute('aria-expanded', 'true');
  position();
  if (!text) {
    // No filter yet: an empty builder (its "+ Condition" adds one), never a half-made condition shown as an error.
    render();
    check(currentText());
    return;
  }
  // The active filter: in the builder when it can show it, else as text (read first, so nothing typed is lost).
  delete session.panel.dataset.mode;
  session.panel.replaceChildren(el('p', 'pp-note pp-loading', 'Reading the filter…'));
  const entity = session.panelEntity;
  analyse(entity, text, view.params).then((answer) => answer, () => null).then((answer) => {
    if (session.panel.hidden || session.panelEntity !== entity || session.panel.dataset.mode) return;
    checked = answer ? { text, answer } : null;
    if (answer && !answer.errors.length) {
      try {
        session.model = modelOf(answer.tree, fieldsNow());
        session.mode = 'builder';
        render();
        check(currentText());
        return;
      } catch (err) {
        if (!(err instanceof Unbuildable)) throw err;
        checked.unbuildable = err.message;
      }
    }
    session.mode = 'text';
    render(text);
    if (!checked) check(text);
  });
}

function close() {
  if (!session.panel || session.panel.hidden) return;
  session.panel.hidden = true;
  if (session.host) session.host.button.setAttribute('aria-expanded', 'false');
  closePicker();
}

function position() {
  const rect = session.host.button.getBoundingClientRect();
  const width = Math.min(760, window.innerWidth - 16);
  session.panel.style.width = `${width}px`;
  session.panel.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - width - 8))}px`;
  session.panel.style.top = `${Math.min(rect.bottom + 6, window.innerHeight - 200)}px`;
}

/** The predicate text the panel holds: the text mode's, or the builder's (null when a row is unfinished). */
function currentText() {
  if (session.mode === 'text') {
    const area = session.panel.querySelector('#pp-text');
    return area ? area.value : '';
  }
  const node = groupNode(session.model, fieldsNow());
  if (node && node.error) return null;
  return node ? formatTree(node, typeResolver(session.panelEntity)) : '';
}

function builderError() {
  const node = groupNode(session.model, fieldsNow());
  return node && node.error ? node.error : null;
}

function render(text) {
  const view = describe();
  session.panel.dataset.mode = session.mode;
  const head = el('div', 'pp-head');
  head.append(el('h2', 'pp-title', `Filter ${session.panelEntity} records`));
  const tabs = el('div', 'pp-tabs');
  tabs.setAttribute('role', 'group');
  tabs.setAttribute('aria-label', 'Edit as');
  for (const [value, label] of [['builder', 'Builder'], ['text', 'Text']]) {
    const tab = button(label, 'pp-mode', () => switchMode(value));
    tab.dataset.mode = value;
    tab.setAttribute('aria-pressed', String(session.mode === value));
    tabs.append(tab);
  }
  const closer = button('×', 'pp-close', () => { close(); session.host.button.focus(); }, 'Close (Escape)');
  closer.setAttribute('aria-label', 'Close the filter panel');
  head.append(tabs, closer);

  const body = el('div', 'pp-body');
  if (session.mode === 'builder') body.append(renderGroup(session.model, null, 0));
  else {
    const area = el('textarea', 'pp-text');
    area.id = 'pp-text';
    area.rows = 3;
    area.spellcheck = false;
    area.setAttribute('aria-label', 'Predicate (Core Data syntax)');
    area.placeholder = 'pageCount > 300 AND author.name BEGINSWITH[c] "k"';
    area.value = text !== undefined ? text : '';
    area.addEventListener('input', () => scheduleCheck());
    // What differs from pasting an app's format string, said where it is typed (docs/API.md "Predicates").
    const help = el('p', 'pp-help', 'Write values in (no %@, %K or $VAR). A nil value counts as different: '
      + 'name != "x" includes records whose name is nil, as NSPredicate does in memory; '
      + 'an app\'s fetch from a SQLite store may leave them out.');
    body.append(area, help);
  }
  const status = el('div', 'pp-status');
  status.setAttribute('aria-live', 'polite');
  body.append(status);

  const recent = recentOf(view.storeKey, session.panelEntity);
  if (recent.length) {
    const box = el('div', 'pp-recent');
    box.append(el('span', 'pp-label', 'Recent'));
    for (const item of recent) {
      const pick = button(item, 'pp-recent-item', () => applyText(item), 'Apply this predicate');
      box.append(pick);
    }
    body.append(box);
  }

  const foot = el('div', 'pp-foot');
  foot.append(
    button('Apply', 'pp-apply', applyPanel, 'Filter the list (Enter)'),
    button('Clear filter', 'pp-clear', () => applyText(''), 'Show every record'),
    button('Copy as Swift…', 'pp-swift', () => swift && swift.open(session.host.button), 'The view as an NSFetchRequest and a SwiftData FetchDescriptor'),
  );
  session.panel.replaceChildren(head, body, foot);
  showStatus();
}

function changed() {
  checked = null;
  scheduleCheck();
}

// -------------------------------------------------------------------------------------------
// Checking, switching modes, applying
// -------------------------------------------------------------------------------------------

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => check(currentText()), CHECK_DEBOUNCE_MS);
  showStatus('pending');
}

async function check(text) {
  clearTimeout(checkTimer);
  if (text === null) {
    checked = null;
    showStatus();
    return null;
  }
  if (checkAbort) checkAbort.abort();
  const controller = new AbortController();
  checkAbort = controller;
  const view = describe();
  try {
    const answer = await analyse(session.panelEntity, text, view.params, controller.signal);
    if (controller.signal.aborted || !session.panel || session.panel.hidden) return null;
    checked = { text, answer };
    showStatus();
    return answer;
  } catch (err) {
    if (err.name === 'AbortError') return null;
    checked = { text, failure: err.message };
    showStatus();
    return null;
  } finally {
    if (checkAbort === controller) checkAbort = null;
  }
}

/** The status line: the canonical text, or the error in words at its place. */
function showStatus(pending) {
  const status = session.panel && session.panel.querySelector('.pp-status');
  if (!status) return;
  const parts = [];
  const missing = session.mode === 'builder' ? builderError() : null;
  if (missing) {
    const line = el('p', 'pp-incomplete', `Unfinished: ${missing}.`);
    parts.push(line);
  } else if (pending === 'pending' || !checked) {
    parts.push(el('p', 'pp-note', 'Checking…'));
  } else if (checked.failure) {
    parts.push(el('p', 'pp-error', `Cannot check the predicate: ${checked.failure}`));
  } else if (checked.answer.errors.length) {
    const error = checked.answer.errors[0];
    const line = el('div', 'pp-error');
    line.setAttribute('role', 'alert');
    if (Number.isInteger(error.offset)) {
      line.dataset.offset = String(error.offset);
      line.dataset.length = String(error.length || 0);
    }
    line.append(el('p', 'pp-error-message', error.message));
    if (Number.isInteger(error.offset)) line.append(errorContext(checked.text, error.offset, error.length || 0));
    parts.push(line);
  } else {
    const canonical = checked.answer.canonical;
    const line = el('p', 'pp-canonical');
    line.append(el('span', 'pp-label', 'Canonical'), el('code', 'pp-canonical-text', canonical || '(no predicate: every record)'));
    parts.push(line);
    if (checked.unbuildable) parts.push(el('p', 'pp-note', checked.unbuildable));
  }
  status.replaceChildren(...parts);
  const apply = session.panel.querySelector('.pp-apply');
  if (apply) apply.disabled = Boolean(missing);
}

/** The text with the error's span marked (a zero-length error shows a caret at its place). */
function errorContext(text, offset, length) {
  const pre = el('pre', 'pp-error-context');
  const before = text.slice(0, offset);
  const span = text.slice(offset, offset + length);
  const after = text.slice(offset + length);
  const mark = el('mark', 'pp-error-span', span || ' ');
  if (!span) mark.classList.add('is-empty');
  pre.append(el('span', null, before), mark, el('span', null, after));
  return pre;
}

function switchMode(next) {
  if (next === session.mode) return;
  if (next === 'text') {
    const text = currentText();
    session.mode = 'text';
    render(text === null ? (checked ? checked.text : '') : text);
    check(currentText());
    // Selected, so what is typed or pasted replaces the predicate instead of being appended to it.
    const area = session.panel.querySelector('#pp-text');
    area.focus();
    area.select();
    return;
  }
  // Text → builder: from the tree of the checked text.
  const text = currentText();
  const go = (answer) => {
    if (!answer) return;
    if (answer.errors.length) { showStatus(); return; }
    try {
      session.model = modelOf(answer.tree, fieldsNow());
    } catch (err) {
      if (!(err instanceof Unbuildable)) throw err;
      checked = { text, answer, unbuildable: err.message };
      showStatus();
      return;
    }
    session.mode = 'builder';
    render();
    check(currentText());
  };
  if (checked && checked.text === text && checked.answer) go(checked.answer);
  else check(text).then(go);
}

async function applyPanel() {
  const text = currentText();
  if (text === null) { showStatus(); return; }
  await applyText(text);
}

/** Checks text and, when it reads, makes it the view's filter (remembered as recent). */
async function applyText(text) {
  const view = describe();
  if (!view || !view.entity) return;
  const trimmed = text.trim();
  if (trimmed) {
    const panelOpen = session.panel && !session.panel.hidden;
    let answer = checked && checked.text === text && checked.answer ? checked.answer : null;
    if (!answer) answer = panelOpen ? await check(text) : await analyse(view.entity, text, view.params).catch(() => null);
    if (!answer) return;
    if (answer.errors.length) {
      // Text made here always reads; a where that does not is shown where it can be fixed.
      if (!panelOpen) open(text);
      return;
    }
    remember(view.storeKey, view.entity, trimmed);
    rememberShown({ entity: view.entity, where: trimmed, answer });
  }
  close();
  session.host.apply(trimmed);
}

// -------------------------------------------------------------------------------------------

function attach(options) {
  session.host = options;
  setEntities(() => (options.entities() || []));
  options.button.setAttribute('aria-expanded', 'false');
  options.button.setAttribute('aria-controls', 'predicate-panel');
  options.button.addEventListener('click', () => {
    if (session.panel && !session.panel.hidden) close(); else open();
  });
  document.addEventListener('pointerdown', (event) => {
    if (picker && !picker.node.contains(event.target)) closePicker();
  });
  window.addEventListener('resize', () => { if (session.panel && !session.panel.hidden) position(); });
}

// The builder and the chip reach the panel through session.js.
Object.assign(actions, { applyText, changed, close, open });

export {
  attach,
  viewChanged,
  conditionFor,
  addCondition,
  formatTree,
  quote,
  keyPathText,
  analyse,
  fieldsOf,
  describe,
  RECENT_KEY,
};

