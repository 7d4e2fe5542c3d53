/*
 * CoreDataBrowser — predicates for both views: the filter panel's builder — a group's rows and nested groups, each
 * row's key path, operator, options and value (an input, a list for IN, a record picker) — drawn from the model
 * (tree.js) the panel keeps; every change goes back through predicate.js changed().
 */

import { apiPath, entityFromId, getJSON, shortId } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { formatCount } from '../../shared/paging.js';
import { displayChoices, displayName } from '../../shared/record-names.js';
import { setVisibleText } from '../../shared/visible-text.js';
import { opsFor, OP_LABELS, INTEGER_TYPES, NUMBER_TYPES, newGroup, newRow, zone } from './tree.js';
import { actions, button, CHECK_DEBOUNCE_MS, describe, fieldsNow, session } from './session.js';

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
  type.addEventListener('change', () => { group.type = type.value; box.dataset.type = type.value; actions.changed(); });
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
  const body = session.panel.querySelector('.pp-body');
  const old = body.querySelector('.pp-group');
  if (old) old.replaceWith(renderGroup(session.model, null, 0));
  actions.changed();
}

function focusLast(box, selector) {
  const root = session.panel.querySelector('.pp-body > .pp-group');
  const all = root ? root.querySelectorAll(selector) : [];
  if (all.length) all[all.length - 1].focus();
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
    q.addEventListener('change', () => { row.quantifier = q.value; actions.changed(); });
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
    actions.changed();
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
    actions.changed();
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
        actions.changed();
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
    holder.append(valueInput(type, row.low, (v) => { row.low = v; actions.changed(); }, `${field.label} from`), el('span', 'pp-and', 'and'),
      valueInput(type, row.high, (v) => { row.high = v; actions.changed(); }, `${field.label} to`));
  } else if (row.op === 'IN') {
    const list = el('span', 'pp-list');
    row.values.forEach((text, index) => {
      const entry = el('span', 'pp-list-entry');
      entry.append(valueInput(type, text, (v) => { row.values[index] = v; actions.changed(); }, `${field.label} value ${index + 1}`));
      if (row.values.length > 1) {
        const x = button('−', 'pp-list-remove', () => { row.values.splice(index, 1); holder.replaceWith(renderValue(row, field)); actions.changed(); }, 'Remove this value');
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
      actions.changed();
    }, 'Add a value');
    add.setAttribute('aria-label', 'Add a value');
    list.append(add);
    holder.append(list);
  } else {
    holder.append(valueInput(type, row.value, (v) => { row.value = v; actions.changed(); }, `${field.label} value`));
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
  session.panel.append(node);
  const rect = anchor.getBoundingClientRect();
  const base = session.panel.getBoundingClientRect();
  node.style.left = `${rect.left - base.left}px`;
  node.style.top = `${rect.bottom - base.top + 2}px`;
  picker = { node, abort: new AbortController() };
  const choose = (item) => {
    row.object = { id: item.id, label: item.summary || item.id };
    closePicker();
    const fresh = pickerButton(row, field);
    anchor.replaceWith(fresh);
    fresh.focus();
    actions.changed();
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

export {
  closePicker,
  picker,
  renderGroup,
};
