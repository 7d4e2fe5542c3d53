/*
 * CoreDataBrowser — predicates for both views: the text of a predicate tree, the filter panel
 * (a builder of rows and nested groups, and a text mode checked as the person types), the active filter's chip
 * and the recent predicates of each entity.
 *
 * A native ES module: what it exports is listed here. The trees, their text
 * and the builder's model are predicate-tree.js's.
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
 *                          from predicate-tree.js, for the other modules
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

import { apiPath, entityFromId, getJSON, shortId } from './shared/api.js';
import { el } from './shared/dom.js';
import { formatCount } from './shared/paging.js';
import { displayChoices, displayName } from './shared/record-names.js';
import { setVisibleText } from './shared/visible-text.js';
import {
  quote, keyPathText, formatTree, entityNamed, fieldsOf, typeResolver, opsFor, OP_LABELS, INTEGER_TYPES, NUMBER_TYPES,
  OPAQUE_TYPES, newGroup, newRow, groupNode, modelOf, Unbuildable, zone, RECENT_KEY, recentOf, remember, setEntities,
} from './predicate-tree.js';
import * as swift from './swift.js';

const CHECK_DEBOUNCE_MS = 250;

// -------------------------------------------------------------------------------------------
// Talking to the server
// -------------------------------------------------------------------------------------------

function analyse(entity, where, params, signal) {
  return getJSON(apiPath(`/api/entities/${encodeURIComponent(entity)}/predicate`, { ...(params || {}), where }), signal);
}

// -------------------------------------------------------------------------------------------
// The panel
// -------------------------------------------------------------------------------------------

let host = null; // {button, chip, describe, apply}
let panel = null;
let model = newGroup('all');
let mode = 'builder';
let panelEntity = '';
let checkTimer = 0;
let checkAbort = null;
/** The last check: {text, answer} of the text on screen. */
let checked = null;
/** The chip's analysis of the view's where: {entity, where, answer}. */
let shownWhere = null;

const describe = () => (host ? host.describe() : null);
const fieldsNow = () => fieldsOf(panelEntity);

function button(label, className, onClick, title) {
  const node = el('button', className, label);
  node.type = 'button';
  if (title) node.title = title;
  node.addEventListener('click', onClick);
  return node;
}

function ensurePanel() {
  if (panel) return panel;
  panel = el('section', 'predicate-panel');
  panel.id = 'predicate-panel';
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', 'Filter records');
  panel.hidden = true;
  panel.addEventListener('keydown', onPanelKey);
  document.body.append(panel);
  return panel;
}

function onPanelKey(event) {
  if (event.key === 'Escape') {
    if (document.querySelector('.pp-picker-pop')) return;
    event.preventDefault();
    event.stopPropagation();
    close();
    if (host) host.button.focus();
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
  panelEntity = view.entity;
  const text = withText !== undefined ? withText : view.where || '';
  mode = 'builder';
  model = newGroup('all');
  checked = null;
  panel.hidden = false;
  host.button.setAttribute('aria-expanded', 'true');
  position();
  if (!text) {
    model.children.push(newRow(fieldsNow()[0]));
    render();
    check(currentText());
    return;
  }
  // The active filter: in the builder when it can show it, else as text (read first, so nothing typed is lost).
  delete panel.dataset.mode;
  panel.replaceChildren(el('p', 'pp-note pp-loading', 'Reading the filter…'));
  const entity = panelEntity;
  analyse(entity, text, view.params).then((answer) => answer, () => null).then((answer) => {
    if (panel.hidden || panelEntity !== entity || panel.dataset.mode) return;
    checked = answer ? { text, answer } : null;
    if (answer && !answer.errors.length) {
      try {
        model = modelOf(answer.tree, fieldsNow());
        if (!model.children.length) model.children.push(newRow(fieldsNow()[0]));
        mode = 'builder';
        render();
        check(currentText());
        return;
      } catch (err) {
        if (!(err instanceof Unbuildable)) throw err;
        checked.unbuildable = err.message;
      }
    }
    mode = 'text';
    render(text);
    if (!checked) check(text);
  });
}

function close() {
  if (!panel || panel.hidden) return;
  panel.hidden = true;
  if (host) host.button.setAttribute('aria-expanded', 'false');
  closePicker();
}

function position() {
  const rect = host.button.getBoundingClientRect();
  const width = Math.min(760, window.innerWidth - 16);
  panel.style.width = `${width}px`;
  panel.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - width - 8))}px`;
  panel.style.top = `${Math.min(rect.bottom + 6, window.innerHeight - 200)}px`;
}

/** The predicate text the panel holds: the text mode's, or the builder's (null when a row is unfinished). */
function currentText() {
  if (mode === 'text') {
    const area = panel.querySelector('#pp-text');
    return area ? area.value : '';
  }
  const node = groupNode(model, fieldsNow());
  if (node && node.error) return null;
  return node ? formatTree(node, typeResolver(panelEntity)) : '';
}

function builderError() {
  const node = groupNode(model, fieldsNow());
  return node && node.error ? node.error : null;
}

function render(text) {
  const view = describe();
  panel.dataset.mode = mode;
  const head = el('div', 'pp-head');
  head.append(el('h2', 'pp-title', `Filter ${panelEntity} records`));
  const tabs = el('div', 'pp-tabs');
  tabs.setAttribute('role', 'group');
  tabs.setAttribute('aria-label', 'Edit as');
  for (const [value, label] of [['builder', 'Builder'], ['text', 'Text']]) {
    const tab = button(label, 'pp-mode', () => switchMode(value));
    tab.dataset.mode = value;
    tab.setAttribute('aria-pressed', String(mode === value));
    tabs.append(tab);
  }
  const closer = button('×', 'pp-close', () => { close(); host.button.focus(); }, 'Close (Escape)');
  closer.setAttribute('aria-label', 'Close the filter panel');
  head.append(tabs, closer);

  const body = el('div', 'pp-body');
  if (mode === 'builder') body.append(renderGroup(model, null, 0));
  else {
    const area = el('textarea', 'pp-text');
    area.id = 'pp-text';
    area.rows = 3;
    area.spellcheck = false;
    area.setAttribute('aria-label', 'Predicate (Core Data syntax)');
    area.placeholder = 'pageCount > 300 AND author.name BEGINSWITH[c] "k"';
    area.value = text !== undefined ? text : '';
    area.addEventListener('input', () => scheduleCheck());
    body.append(area);
  }
  const status = el('div', 'pp-status');
  status.setAttribute('aria-live', 'polite');
  body.append(status);

  const recent = recentOf(view.storeKey, panelEntity);
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
    button('Copy as Swift…', 'pp-swift', () => swift && swift.open(host.button), 'The view as an NSFetchRequest and a SwiftData FetchDescriptor'),
  );
  panel.replaceChildren(head, body, foot);
  showStatus();
}

function renderGroup(group, parent, depth) {
  const box = el('div', 'pp-group');
  box.dataset.type = group.type;
  box.dataset.depth = String(depth);
  const bar = el('div', 'pp-group-bar');
  const type = el('select', 'pp-group-type');
  type.setAttribute('aria-label', 'Records must match');
  for (const [value, label] of [['all', 'All of'], ['any', 'Any of'], ['none', 'None of']]) {
    const option = el('option', null, label);
    option.value = value;
    type.append(option);
  }
  type.value = group.type;
  type.addEventListener('change', () => { group.type = type.value; box.dataset.type = type.value; changed(); });
  bar.append(type, el('span', 'pp-group-hint', depth ? 'these:' : 'the following:'));
  bar.append(button('+ Condition', 'pp-add-row', () => { group.children.push(newRow(fieldsNow()[0])); rerender(); focusLast(box, '.pp-field'); }));
  if (depth < 8) bar.append(button('+ Group', 'pp-add-group', () => { const g = newGroup('any'); g.children.push(newRow(fieldsNow()[0])); group.children.push(g); rerender(); }));
  if (parent) {
    const remove = button('×', 'pp-remove-group', () => { parent.children.splice(parent.children.indexOf(group), 1); rerender(); }, 'Remove this group');
    remove.setAttribute('aria-label', 'Remove this group');
    bar.append(remove);
  }
  box.append(bar);
  const list = el('div', 'pp-children');
  for (const child of group.children) list.append(child.kind === 'group' ? renderGroup(child, group, depth + 1) : renderRow(child, group));
  if (!group.children.length) list.append(el('p', 'pp-empty', depth ? 'An empty group matches every record.' : 'No conditions: every record.'));
  box.append(list);
  return box;
}

function rerender() {
  const body = panel.querySelector('.pp-body');
  const old = body.querySelector('.pp-group');
  if (old) old.replaceWith(renderGroup(model, null, 0));
  changed();
}

function focusLast(box, selector) {
  const root = panel.querySelector('.pp-body > .pp-group');
  const all = root ? root.querySelectorAll(selector) : [];
  if (all.length) all[all.length - 1].focus();
}

function changed() {
  checked = null;
  scheduleCheck();
}

function select(className, options, value, label) {
  const node = el('select', className);
  node.setAttribute('aria-label', label);
  for (const option of options) node.append(option);
  node.value = value;
  return node;
}

function optionOf(value, label) {
  const option = el('option', null, label);
  option.value = value;
  return option;
}

function renderRow(row, group) {
  const fields = fieldsNow();
  const field = fields.find((f) => f.key === row.field) || null;
  const li = el('div', 'pp-row');
  if (field && field.quantified) {
    const q = select('pp-quantifier', ['ANY', 'ALL', 'NONE'].map((v) => optionOf(v, v)), row.quantifier, 'Which related records');
    q.title = 'ANY: at least one related record; ALL: every one; NONE: not one';
    q.addEventListener('change', () => { row.quantifier = q.value; changed(); });
    li.append(q);
  }
  const groups = new Map();
  for (const f of fields) {
    if (!groups.has(f.group)) groups.set(f.group, el('optgroup'));
    const holder = groups.get(f.group);
    holder.label = f.group;
    const option = optionOf(f.key, f.label);
    option.title = `${f.label}: ${f.type === 'record' ? `a ${f.destination} record` : f.type === 'count' ? 'how many related records' : f.type}`;
    holder.append(option);
  }
  const fieldSelect = select('pp-field', [...groups.values()], row.field, 'Key path');
  fieldSelect.addEventListener('change', () => {
    const next = fields.find((f) => f.key === fieldSelect.value);
    const keep = next && field && next.type === field.type;
    Object.assign(row, { field: fieldSelect.value }, keep ? {} : { op: opsFor(next ? next.type : '')[0], value: '', values: [''], low: '', high: '', object: null, options: '' });
    const fresh = renderRow(row, group);
    li.replaceWith(fresh);
    fresh.querySelector('.pp-field').focus();
    changed();
  });
  li.append(fieldSelect);
  const type = field ? field.type : '';
  const ops = opsFor(type);
  if (!ops.includes(row.op)) row.op = ops[0];
  const opSelect = select('pp-op', ops.map((op) => optionOf(op, OP_LABELS[op] || op)), row.op, 'Operator');
  opSelect.addEventListener('change', () => {
    row.op = opSelect.value;
    const fresh = renderRow(row, group);
    li.replaceWith(fresh);
    fresh.querySelector('.pp-op').focus();
    changed();
  });
  li.append(opSelect);
  if (type === 'String' && !['nil', 'notnil'].includes(row.op)) {
    const options = el('span', 'pp-options');
    for (const [flag, label, title] of [['c', 'Aa', 'Ignore case ([c])'], ['d', 'é=e', 'Ignore diacritics ([d])']]) {
      const wrap = el('label', 'pp-option');
      wrap.title = title;
      const box = el('input');
      box.type = 'checkbox';
      box.dataset.option = flag;
      box.checked = row.options.includes(flag);
      box.setAttribute('aria-label', title);
      box.addEventListener('change', () => {
        const set = new Set(row.options.split('').filter(Boolean));
        if (box.checked) set.add(flag); else set.delete(flag);
        row.options = ['c', 'd'].filter((f) => set.has(f)).join('');
        changed();
      });
      wrap.append(box, el('span', null, label));
      options.append(wrap);
    }
    li.append(options);
  }
  li.append(renderValue(row, field));
  const remove = button('×', 'pp-remove-row', () => { group.children.splice(group.children.indexOf(row), 1); rerender(); }, 'Remove this condition');
  remove.setAttribute('aria-label', 'Remove this condition');
  li.append(remove);
  return li;
}

function valueInput(type, text, onInput, label) {
  if (type === 'Boolean') {
    const s = select('pp-input', [optionOf('', '—'), optionOf('true', 'TRUE'), optionOf('false', 'FALSE')], text, label);
    s.addEventListener('change', () => onInput(s.value));
    return s;
  }
  const input = el('input', 'pp-input');
  input.setAttribute('aria-label', label);
  if (type === 'Date') {
    input.type = 'datetime-local';
    input.step = '1';
    input.title = zone() === 'utc' ? 'In UTC (the Dates choice)' : 'In local time (the Dates choice)';
  } else if (NUMBER_TYPES.has(type) || type === 'count') {
    input.type = 'number';
    input.step = INTEGER_TYPES.has(type) || type === 'count' ? '1' : 'any';
    if (type === 'count') input.min = '0';
  } else {
    input.type = 'text';
    input.spellcheck = false;
    if (type === 'UUID') input.placeholder = 'UUID';
    else if (type === 'URI') input.placeholder = 'URI';
  }
  input.value = text;
  input.addEventListener('input', () => onInput(input.value));
  return input;
}

function renderValue(row, field) {
  const holder = el('span', 'pp-value');
  if (!field || row.op === 'nil' || row.op === 'notnil') return holder;
  const type = field.type;
  if (type === 'record') {
    holder.append(pickerButton(row, field));
    return holder;
  }
  if (row.op === 'BETWEEN') {
    holder.append(valueInput(type, row.low, (v) => { row.low = v; changed(); }, `${field.label} from`), el('span', 'pp-and', 'and'),
      valueInput(type, row.high, (v) => { row.high = v; changed(); }, `${field.label} to`));
  } else if (row.op === 'IN') {
    const list = el('span', 'pp-list');
    row.values.forEach((text, index) => {
      const entry = el('span', 'pp-list-entry');
      entry.append(valueInput(type, text, (v) => { row.values[index] = v; changed(); }, `${field.label} value ${index + 1}`));
      if (row.values.length > 1) {
        const x = button('−', 'pp-list-remove', () => { row.values.splice(index, 1); holder.replaceWith(renderValue(row, field)); changed(); }, 'Remove this value');
        x.setAttribute('aria-label', 'Remove this value');
        entry.append(x);
      }
      list.append(entry);
    });
    const add = button('+', 'pp-list-add', () => {
      row.values.push('');
      const fresh = renderValue(row, field);
      holder.replaceWith(fresh);
      const inputs = fresh.querySelectorAll('.pp-input');
      inputs[inputs.length - 1].focus();
      changed();
    }, 'Add a value');
    add.setAttribute('aria-label', 'Add a value');
    list.append(add);
    holder.append(list);
  } else {
    holder.append(valueInput(type, row.value, (v) => { row.value = v; changed(); }, `${field.label} value`));
  }
  if (type === 'Date') holder.append(el('span', 'pp-zone', zone() === 'utc' ? 'UTC' : 'local'));
  return holder;
}

// A record picker: the destination's list, searched as the person types.
let picker = null;

function closePicker() {
  if (picker) {
    picker.abort.abort();
    picker.node.remove();
    picker = null;
  }
}

function pickerButton(row, field) {
  const label = row.object ? (row.object.label || `${entityFromId(row.object.id) || field.destination} ${shortId(row.object.id)}`) : `Choose a ${field.destination}…`;
  const pick = button(label, 'pp-picker', () => openPicker(row, field, pick), row.object ? row.object.id : `Search the ${field.destination} records`);
  pick.setAttribute('aria-haspopup', 'listbox');
  if (row.object && !row.object.label) {
    getJSON(apiPath('/api/object', { id: row.object.id })).then((record) => {
      row.object.label = record.summary || record.id;
      if (pick.isConnected) setVisibleText(pick, row.object.label);
    }).catch(() => {});
  }
  return pick;
}

function openPicker(row, field, anchor) {
  closePicker();
  const node = el('div', 'pp-picker-pop');
  const search = el('input', 'pp-picker-search');
  search.type = 'search';
  search.placeholder = `Search ${field.destination}…`;
  search.setAttribute('aria-label', `Search ${field.destination} records`);
  const list = el('ul', 'pp-picker-list');
  list.setAttribute('role', 'listbox');
  node.append(search, list);
  panel.append(node);
  const rect = anchor.getBoundingClientRect();
  const base = panel.getBoundingClientRect();
  node.style.left = `${rect.left - base.left}px`;
  node.style.top = `${rect.bottom - base.top + 2}px`;
  picker = { node, abort: new AbortController() };
  const choose = (item) => {
    row.object = { id: item.id, label: item.summary || item.id };
    closePicker();
    const fresh = pickerButton(row, field);
    anchor.replaceWith(fresh);
    fresh.focus();
    changed();
  };
  let timer = 0;
  const load = async () => {
    if (!picker) return;
    picker.abort.abort();
    picker.abort = new AbortController();
    list.replaceChildren(el('li', 'pp-picker-note', 'Searching…'));
    try {
      const page = await getJSON(apiPath(`/api/entities/${encodeURIComponent(field.destination)}`, { search: search.value, limit: 20 }), picker.abort.signal);
      const items = page.rows.map((r) => {
        const li = el('li', 'pp-picker-item');
        li.setAttribute('role', 'option');
        li.tabIndex = -1;
        li.dataset.id = r.id;
        const name = displayName(r.attrs, displayChoices(describe().storeKey, r.entity), r.summary);
        li.append(el('span', null, name), el('span', 'pp-picker-id', shortId(r.id)));
        li.addEventListener('click', () => choose({ id: r.id, summary: name }));
        li.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); e.stopPropagation(); choose({ id: r.id, summary: name }); } });
        return li;
      });
      list.replaceChildren(...(items.length ? items : [el('li', 'pp-picker-note', 'No record matches.')]));
      if (page.total > page.rows.length) list.append(el('li', 'pp-picker-note', `${formatCount(page.total - page.rows.length)} more: type to narrow`));
    } catch (err) {
      if (err.name !== 'AbortError') list.replaceChildren(el('li', 'pp-picker-note pp-bad', err.message));
    }
  };
  search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(load, CHECK_DEBOUNCE_MS); });
  node.addEventListener('keydown', (event) => {
    const items = [...list.querySelectorAll('.pp-picker-item')];
    const index = items.indexOf(document.activeElement);
    if (event.key === 'Escape') { event.preventDefault(); event.stopPropagation(); closePicker(); anchor.focus(); }
    else if (event.key === 'ArrowDown') { event.preventDefault(); (items[index + 1] || items[0])?.focus(); }
    else if (event.key === 'ArrowUp') { event.preventDefault(); if (index <= 0) search.focus(); else items[index - 1].focus(); }
    else if (event.key === 'Enter' && event.target === search) { event.preventDefault(); event.stopPropagation(); if (items[0]) items[0].focus(); }
  });
  search.focus();
  load();
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
    const answer = await analyse(panelEntity, text, view.params, controller.signal);
    if (controller.signal.aborted || !panel || panel.hidden) return null;
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
  const status = panel && panel.querySelector('.pp-status');
  if (!status) return;
  const parts = [];
  const missing = mode === 'builder' ? builderError() : null;
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
  const apply = panel.querySelector('.pp-apply');
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
  if (next === mode) return;
  if (next === 'text') {
    const text = currentText();
    mode = 'text';
    render(text === null ? (checked ? checked.text : '') : text);
    check(currentText());
    panel.querySelector('#pp-text').focus();
    return;
  }
  // Text → builder: from the tree of the checked text.
  const text = currentText();
  const go = (answer) => {
    if (!answer) return;
    if (answer.errors.length) { showStatus(); return; }
    try {
      model = modelOf(answer.tree, fieldsNow());
    } catch (err) {
      if (!(err instanceof Unbuildable)) throw err;
      checked = { text, answer, unbuildable: err.message };
      showStatus();
      return;
    }
    if (!model.children.length) model.children.push(newRow(fieldsNow()[0]));
    mode = 'builder';
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
    const panelOpen = panel && !panel.hidden;
    let answer = checked && checked.text === text && checked.answer ? checked.answer : null;
    if (!answer) answer = panelOpen ? await check(text) : await analyse(view.entity, text, view.params).catch(() => null);
    if (!answer) return;
    if (answer.errors.length) {
      // Text made here always reads; a where that does not is shown where it can be fixed.
      if (!panelOpen) open(text);
      return;
    }
    remember(view.storeKey, view.entity, trimmed);
    shownWhere = { entity: view.entity, where: trimmed, answer };
  }
  close();
  host.apply(trimmed);
}

// -------------------------------------------------------------------------------------------
// The chip of the active filter
// -------------------------------------------------------------------------------------------

let chipAbort = null;

function viewChanged() {
  if (!host) return;
  const view = describe();
  const where = view && view.entity ? view.where || '' : '';
  if (panel && !panel.hidden && view && view.entity !== panelEntity) close();
  if (!where) {
    host.chip.hidden = true;
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
  const chip = host.chip;
  const text = el('button', 'where-text');
  text.type = 'button';
  text.title = 'Edit the filter';
  const bad = answer && answer.errors.length;
  text.append(el('span', 'where-label', 'Where'), el('code', 'where-code', answer && !bad ? answer.canonical : where));
  if (bad) text.append(el('span', 'where-bad', `⚠ ${answer.errors[0].message}`));
  text.addEventListener('click', () => open());
  const clear = button('×', 'where-clear', () => applyText(''), 'Remove the filter');
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
      open(view.where);
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
  await applyText(formatTree(combined, typeResolver(view.entity)));
}

// -------------------------------------------------------------------------------------------

function attach(options) {
  host = options;
  setEntities(() => (options.entities() || []));
  options.button.setAttribute('aria-expanded', 'false');
  options.button.setAttribute('aria-controls', 'predicate-panel');
  options.button.addEventListener('click', () => {
    if (panel && !panel.hidden) close(); else open();
  });
  document.addEventListener('pointerdown', (event) => {
    if (picker && !picker.node.contains(event.target)) closePicker();
  });
  window.addEventListener('resize', () => { if (panel && !panel.hidden) position(); });
}

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
