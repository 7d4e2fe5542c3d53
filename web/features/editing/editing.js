/*
 * CoreDataBrowser — editing, for both views: staged changes with a before/after
 * review, Save and Discard; typed editors; a new record; a delete that first says what the delete rules will do.
 *
 * An ES module; the views import what they use.
 *
 * API (docs/API.md "Editing"), through shared/api.js's sendJSON: PATCH /api/object?id= {attrs, relationships,
 * version}; POST /api/entities/:name; GET /api/object/delete-preview?id=; DELETE /api/object?id=&version=. Refusals
 * are ApiErrors whose `body` holds 422's {fields: [{field, message}]}, 409's {expectedVersion, currentVersion} or
 * {blockedBy}; 403 says why the store cannot write.
 *
 *   noteHealth(health)              the views' one /api/health answer (their status line reads it first)
 *   writable()                      → Promise<bool>: the server has writes on and the store can write
 *   editor(type, value, options)    a typed editor element; options: {optional, onCommit(value), onCancel, label,
 *                                   tracked}: Enter, Tab and leaving the field (click-away) commit what was typed; a
 *                                   tracked editor (the default) is also committed by Save, or holds Save back
 *                                   with its problem, so no typed value is silently dropped
 *   stage(record, field, after, before)  stages one change (field: "attrs.<name>" or "relationships.<name>");
 *                                   record: {id, entity, version}; staging the value it had removes the change
 *   stagedValue(id, field)          the staged value, or undefined
 *   onSaved(callback)               callback(ids) after a save wrote records (the views reload what they show)
 *   onErrors(callback)              callback(id, fields) when a save was refused per field (inline marks)
 *   fieldProblems(err)              a refused write's [{field, message}] (422), or []
 *   confirmDelete(object, done)     the delete dialog: preview, then DELETE; done() after it is gone
 *
 * Elements: #edit-bar (role=region; .edit-count, #edit-review, #edit-save, #edit-discard, .edit-message),
 * #edit-review-panel (table.edit-review-table: record, field, before, after), #delete-dialog (.delete-effects,
 * #delete-confirm, #delete-cancel). Values shown before/after are JSON as the API sends them. The record editors and
 * the new-record form are features/editing/records.js.
 */
import { apiPath, getJSON, sendJSON, shortId } from '../../shared/api.js';
import { el, floatingPanel, namedPart } from '../../shared/dom.js';
import { setVisibleText } from '../../shared/visible-text.js';

// ------------------------------------------------------------------ Whether the server writes

// Each view reads /api/health once for its status line and hands the answer here, so the page asks only once.
// Until an answer arrives (or when the health check failed) nothing offers to write.
let noteHealthAnswer;
const healthAnswer = new Promise((resolve) => { noteHealthAnswer = resolve; });
function noteHealth(health) {
  noteHealthAnswer(health);
}
function writable() {
  return healthAnswer.then((health) => Array.isArray(health.capabilities) && health.capabilities.includes('write'));
}

// ------------------------------------------------------------------ Typed editors

const INTEGER_TYPES = new Set(['Integer 16', 'Integer 32', 'Integer 64']);
/** Each integer type's bounds, as BigInts (Integer 64's do not fit a JavaScript number). */
const INTEGER_RANGES = new Map([
  ['Integer 16', [-(2n ** 15n), 2n ** 15n - 1n]],
  ['Integer 32', [-(2n ** 31n), 2n ** 31n - 1n]],
  ['Integer 64', [-(2n ** 63n), 2n ** 63n - 1n]],
]);
const NUMBER_TYPES = new Set(['Double', 'Float']);
const BYTES_TYPES = new Set(['Binary', 'Transformable']);

/** The text an input shows for a value as the API sends it. */
function inputText(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return '';
  return String(value);
}

/**
 * The JSON value to send for an input's text, or throws a message. Large integers and Decimals go as strings,
 * so no digit is lost to JavaScript's numbers; the server checks everything again against the model.
 */
function parseInput(text, type) {
  const trimmed = text.trim();
  if (INTEGER_TYPES.has(type)) {
    if (!/^[-+]?\d+$/.test(trimmed)) throw new Error('a whole number is needed');
    const [low, high] = INTEGER_RANGES.get(type);
    const exact = BigInt(trimmed.replace(/^\+/, ''));
    if (exact < low || exact > high) throw new Error(`an ${type} holds ${low.toLocaleString('en-US')} to ${high.toLocaleString('en-US')}`);
    const number = Number(trimmed);
    return Number.isSafeInteger(number) ? number : trimmed.replace(/^\+/, '');
  }
  if (NUMBER_TYPES.has(type)) {
    const number = Number(trimmed);
    if (trimmed === '' || !Number.isFinite(number)) throw new Error('a finite number is needed');
    return number;
  }
  if (type === 'Decimal') {
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) throw new Error('a number is needed');
    return trimmed;
  }
  if (type === 'Date') {
    if (Number.isNaN(Date.parse(trimmed))) throw new Error('a date is needed, such as 2020-03-01 or 2020-03-01T12:00:00Z');
    return trimmed;
  }
  return text;
}

// ------------------------------------------------------------------ Open editors

/**
 * The text editors open on the page whose typing is not staged yet: box → {label, typed(), commit()}. An edit the user
 * typed must never vanish because they pressed Save (or Tab, or clicked elsewhere) instead of Enter: Save commits
 * each of them first, and saves nothing while one of them holds a value that does not parse. An editor leaves the
 * set when it commits, is cancelled or is taken off the page.
 */
const openEditors = new Map();

/** The open editors that hold typing not yet staged (removed from the page: forgotten). */
function typedEditors() {
  for (const [box] of openEditors) if (!box.isConnected) openEditors.delete(box);
  return Array.from(openEditors.values()).filter((entry) => entry.typed());
}

/** Commits every open editor's typing; the problems of those that do not parse, as "label: problem". */
function commitOpenEditors() {
  const problems = [];
  for (const entry of typedEditors()) {
    const problem = entry.commit();
    if (problem) problems.push(`${entry.label}: ${problem}`);
  }
  return problems;
}

/** Closes every open editor without staging what it holds (Discard). */
function cancelOpenEditors() {
  for (const [box, entry] of Array.from(openEditors)) {
    openEditors.delete(box);
    if (box.isConnected) entry.cancel();
  }
}

/**
 * A typed editor for one value: a Boolean menu, a text field (a text area for long strings), or, for Binary and
 * Transformable values, only "Set to nil". Enter, Tab, leaving the field or a change of the menu commits (a value
 * that does not parse stays in the editor with its problem); Escape cancels; "nil" sets an optional value to nil.
 */
function editor(type, value, { optional = true, onCommit, onCancel, label = type, tracked = true }) {
  const box = el('span', 'value-editor');
  box.dataset.type = type;
  const problem = el('span', 'field-error');
  problem.hidden = true;
  const fail = (message) => { problem.textContent = message; problem.hidden = false; };
  // A tracked editor commits or cancels once: the caller then redraws the cell, which takes the box off the page.
  let closed = false;
  if (tracked) {
    const finish = (action) => {
      if (closed) return;
      closed = true;
      openEditors.delete(box);
      action();
      renderBar();
    };
    onCommit = ((commit) => (after) => finish(() => commit(after)))(onCommit);
    onCancel = ((cancel) => () => finish(cancel))(onCancel);
  }
  if (BYTES_TYPES.has(type)) {
    box.append(el('span', 'editor-note', `${type} values can only be cleared here`));
  } else if (type === 'Boolean') {
    const select = el('select', 'editor-input');
    for (const [label, choice] of [['true', 'true'], ['false', 'false']].concat(optional ? [['nil', 'nil']] : [])) {
      const option = el('option', null, label);
      option.value = choice;
      select.append(option);
    }
    select.value = value === true ? 'true' : value === false ? 'false' : 'nil';
    select.addEventListener('change', () => onCommit(select.value === 'nil' ? null : select.value === 'true'));
    select.addEventListener('keydown', (event) => { if (event.key === 'Escape') onCancel(); });
    box.append(select);
  } else {
    const long = type === 'String' && typeof value === 'string' && (value.length > 80 || value.includes('\n'));
    const input = el(long ? 'textarea' : 'input', 'editor-input');
    if (!long) input.type = 'text';
    input.value = inputText(value);
    input.setAttribute('aria-label', `New ${type} value`);
    if (type === 'Date') input.placeholder = '2020-03-01T12:00:00Z';
    const initial = input.value;
    /** Stages the typed text; its problem when it does not parse (the editor stays open, showing it). */
    const commitTyped = () => {
      let parsed;
      try { parsed = parseInput(input.value, type); } catch (err) { fail(err.message); return err.message; }
      onCommit(parsed);
      return null;
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') { event.preventDefault(); onCancel(); return; }
      if (event.key === 'Enter' && (!long || event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        commitTyped();
      } else if (event.key === 'Tab' && tracked && input.value !== initial && commitTyped()) {
        event.preventDefault(); // Tab moves on after committing; a value that does not parse keeps the focus
      }
    });
    if (tracked) {
      // Leaving the field with something typed (a click elsewhere, Save, another field) commits it.
      input.addEventListener('change', () => { if (!closed && input.value !== initial) commitTyped(); });
      // Checked as it is typed: a problem shows at once (an empty field says nothing until it is committed).
      input.addEventListener('input', () => {
        problem.hidden = true;
        if (input.value.trim() !== '') try { parseInput(input.value, type); } catch (err) { fail(err.message); }
        renderBar();
      });
      openEditors.set(box, { label, typed: () => !closed && input.value !== initial, commit: commitTyped, cancel: onCancel });
    }
    box.append(input);
  }
  if (optional) {
    const nil = el('button', 'editor-nil', 'nil');
    nil.type = 'button';
    nil.title = 'Set to nil';
    // Keeps the focus in the text field: leaving it would commit the typed text first, and nil would be lost.
    nil.addEventListener('mousedown', (event) => event.preventDefault());
    nil.addEventListener('click', () => onCommit(null));
    box.append(nil);
  }
  box.append(problem);
  return box;
}

// ------------------------------------------------------------------ Staged changes

/** id → {id, entity, version, changes: Map(field → {before, after})}, in the order they were first staged. */
const staged = new Map();
const savedListeners = [];
const errorListeners = [];
let bar = null;
let reviewPanel = null;

function same(a, b) { return JSON.stringify(a ?? null) === JSON.stringify(b ?? null); }

function stage(record, field, after, before) {
  let entry = staged.get(record.id);
  if (!entry) {
    entry = { id: record.id, entity: record.entity, version: record.version, changes: new Map() };
    staged.set(record.id, entry);
  }
  const known = entry.changes.get(field);
  const original = known ? known.before : before;
  if (same(original, after)) entry.changes.delete(field);
  else entry.changes.set(field, { before: original, after });
  if (!entry.changes.size) staged.delete(record.id);
  renderBar();
}

function stagedValue(id, field) {
  const change = staged.get(id)?.changes.get(field);
  return change ? change.after : undefined;
}

function changeCount() {
  let count = 0;
  for (const entry of staged.values()) count += entry.changes.size;
  return count;
}

function ensureBar() {
  if (bar) return bar;
  bar = namedPart('section', 'edit-bar', 'edit-bar', 'region', 'Unsaved changes');
  const count = el('span', 'edit-count');
  const review = button('edit-review', 'Review');
  const save = button('edit-save', 'Save');
  save.classList.add('primary');
  const discard = button('edit-discard', 'Discard');
  const message = el('span', 'edit-message');
  message.setAttribute('role', 'status');
  review.addEventListener('click', toggleReview);
  save.addEventListener('click', saveAll);
  discard.addEventListener('click', discardAll);
  bar.append(count, review, save, discard, message);
  // A press on the bar's buttons leaves the focus where it is: leaving an open editor would commit it and redraw the
  // bar (its text, so its width and the buttons' places) between the press and the click, which then misses. Save
  // commits open editors itself.
  bar.addEventListener('mousedown', (event) => { if (event.target.closest('button')) event.preventDefault(); });
  bar.hidden = true;
  document.body.append(bar);
  return bar;
}

function button(id, label) {
  const node = el('button', 'edit-btn', label);
  node.type = 'button';
  node.id = id;
  return node;
}

function renderBar(message) {
  ensureBar();
  const changes = changeCount();
  const typing = typedEditors().length;
  bar.hidden = changes === 0 && typing === 0 && !message;
  const counts = [];
  if (changes) counts.push(`${changes} unsaved change${changes === 1 ? '' : 's'} to ${staged.size} record${staged.size === 1 ? '' : 's'}`);
  if (typing) counts.push(`${typing} value${typing === 1 ? '' : 's'} being typed`);
  bar.querySelector('.edit-count').textContent = counts.join(', ');
  bar.querySelector('#edit-review').disabled = changes === 0;
  for (const id of ['edit-save', 'edit-discard']) bar.querySelector(`#${id}`).disabled = changes === 0 && typing === 0;
  if (message !== undefined) setVisibleText(bar.querySelector('.edit-message'), message);
  if (reviewPanel && !reviewPanel.hidden) renderReview();
}

function toggleReview() {
  if (!reviewPanel) {
    reviewPanel = namedPart('section', 'edit-review-panel', 'edit-review-panel', null, 'Changes to save');
    reviewPanel.hidden = true;
    document.body.append(reviewPanel);
  }
  reviewPanel.hidden = !reviewPanel.hidden;
  if (!reviewPanel.hidden) renderReview();
}

function shown(value) {
  return value === null || value === undefined ? 'nil' : typeof value === 'string' ? value : JSON.stringify(value);
}

function renderReview() {
  const table = el('table', 'edit-review-table');
  const head = el('tr');
  for (const label of ['Record', 'Field', 'Before', 'After']) head.append(el('th', null, label));
  table.append(head);
  for (const entry of staged.values()) {
    for (const [field, change] of entry.changes) {
      const row = el('tr');
      row.dataset.id = entry.id;
      row.dataset.field = field;
      const before = el('td', 'edit-before');
      const after = el('td', 'edit-after');
      setVisibleText(before, shown(change.before));
      setVisibleText(after, shown(change.after));
      row.append(el('td', 'edit-record', `${entry.entity} ${shortId(entry.id)}`), el('td', 'edit-field', field), before, after);
      table.append(row);
    }
  }
  reviewPanel.replaceChildren(el('h3', null, 'Changes to save'), table);
}

/** The PATCH body of one record's staged changes. */
function patchBody(entry) {
  const body = { version: entry.version };
  for (const [field, change] of entry.changes) {
    const [kind, name] = [field.slice(0, field.indexOf('.')), field.slice(field.indexOf('.') + 1)];
    const key = kind === 'attrs' ? 'attrs' : 'relationships';
    (body[key] = body[key] || {})[name] = change.after;
  }
  return body;
}

/** Saves every staged record, one request each (each names its own version); what was refused stays staged. */
async function saveAll() {
  // What is still being typed is part of what the user asked to save; one that does not parse stops the save.
  const unconfirmed = commitOpenEditors();
  if (unconfirmed.length) {
    renderBar(`Nothing saved — ${unconfirmed.join('; ')}. Correct it, or press Escape in it to leave it out.`);
    return;
  }
  const saved = [];
  const problems = [];
  bar.querySelector('#edit-save').disabled = true;
  for (const entry of Array.from(staged.values())) {
    try {
      await sendJSON('PATCH', apiPath('/api/object', { id: entry.id }), patchBody(entry));
      staged.delete(entry.id);
      saved.push(entry.id);
    } catch (err) {
      problems.push(`${entry.entity} ${shortId(entry.id)}: ${describeRefusal(err)}`);
      const fields = fieldProblems(err);
      if (fields.length) for (const listener of errorListeners) listener(entry.id, fields);
    }
  }
  renderBar(problems.length ? `Not saved — ${problems.join('; ')}` : `Saved ${saved.length} record${saved.length === 1 ? '' : 's'}.`);
  if (saved.length) for (const listener of savedListeners) listener(saved);
}

/** A refused write's problems, one per field (422's `fields`), or none. */
function fieldProblems(err) {
  return err && err.body && Array.isArray(err.body.fields) ? err.body.fields : [];
}

function describeRefusal(err) {
  if (err.status === 409 && err.body && err.body.currentVersion !== undefined) {
    return `changed since you read it (version ${err.body.expectedVersion}, now ${err.body.currentVersion}); discard and reload to see it`;
  }
  return err.message;
}

function discardAll() {
  cancelOpenEditors();
  const ids = Array.from(staged.keys());
  staged.clear();
  renderBar('');
  for (const listener of savedListeners) listener(ids);
}

// ------------------------------------------------------------------ Delete, with what the rules will do

function effectsText(effects) {
  const parts = [];
  const records = (count, entity) => `${count.toLocaleString('en-US')} ${entity} record${count === 1 ? '' : 's'}`;
  const cascades = (effects.cascades || []).map((c) => records(c.count, c.entity));
  if (cascades.length) parts.push(`also deletes ${cascades.join(', ')}`);
  const clears = (effects.clears || []).map((c) => `clears ${c.relationship} on ${records(c.count, c.entity)}`);
  if (clears.length) parts.push(clears.join(', '));
  return parts.length ? parts.join('; ') : 'nothing else changes';
}

let deleteDialog = null;

async function confirmDelete(object, done) {
  if (!deleteDialog) deleteDialog = makeDeleteDialog();
  const dialog = deleteDialog.node;
  const text = dialog.querySelector('.delete-effects');
  const confirmButton = dialog.querySelector('#delete-confirm');
  confirmButton.disabled = true;
  confirmButton.onclick = null;
  setVisibleText(text, 'Reading what the delete rules will do…');
  deleteDialog.show();
  dialog.querySelector('#delete-cancel').focus();
  let effects;
  try {
    effects = await getJSON(apiPath('/api/object/delete-preview', { id: object.id }));
  } catch (err) {
    setVisibleText(text, `Cannot delete: ${err.message}`);
    return;
  }
  if (effects.blockedBy && effects.blockedBy.length) {
    setVisibleText(text, `Cannot delete ${object.summary || object.id}: a Deny rule keeps it while `
      + effects.blockedBy.map((b) => `${b.entity}.${b.relationship} holds ${b.count}`).join(', ') + '.');
    return;
  }
  setVisibleText(text, `Delete ${object.entity} “${object.summary || object.id}”? This ${effectsText(effects)}.`);
  confirmButton.disabled = false;
  confirmButton.onclick = async () => {
    confirmButton.disabled = true;
    try {
      await sendJSON('DELETE', apiPath('/api/object', { id: object.id, version: object.version }));
      deleteDialog.close();
      staged.delete(object.id);
      renderBar('Deleted.');
      done();
    } catch (err) {
      setVisibleText(text, `Not deleted: ${describeRefusal(err)}`);
    }
  };
}

function makeDeleteDialog() {
  const shell = floatingPanel('delete-dialog', 'delete-dialog', 'Delete record');
  shell.node.setAttribute('role', 'alertdialog');
  const text = el('p', 'delete-effects');
  const confirmButton = button('delete-confirm', 'Delete');
  confirmButton.classList.add('danger');
  const cancel = button('delete-cancel', 'Cancel');
  cancel.addEventListener('click', () => shell.close());
  shell.node.append(text, confirmButton, cancel);
  return shell;
}

const onSaved = (callback) => savedListeners.push(callback);
const onErrors = (callback) => errorListeners.push(callback);

export {
  noteHealth, writable, editor, parseInput, stage, stagedValue, changeCount, onSaved, onErrors,
  confirmDelete, effectsText, describeRefusal, fieldProblems,
};
