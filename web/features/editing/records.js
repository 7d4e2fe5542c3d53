/*
 * CoreDataBrowser — editing a record's fields in place, for both views: the
 * Inspector's Edit mode over its detail, the Lab's double-clicked cell, relationship editors with a record picker,
 * and the new-record form. Every change is staged through editing.js; nothing is written until Save.
 *
 * An ES module; the views import what they use.
 *
 *   editDetail(root, object, schema)    turns the Inspector's detail into editors: each tr.attr-row[data-attr]'s
 *                                       .attr-value gets an "edit" button, each .rel-block[data-rel] a relationship
 *                                       editor; staged values are shown in place (td.staged)
 *   editCell(td, record, attribute, value)  the Lab's in-place editor in a grid cell; commit stages, Escape restores
 *   pickRecord(destination, from, onPick)   the record picker: search the destination entity, click one
 *   openCreate(entity, schema, done)    the new-record form (#create-panel); done(object) once created
 *
 * Elements: .edit-attr (button), .value-editor, .rel-editor (.rel-edit-items li[data-id] with .rel-remove,
 * .rel-add, .rel-nil), #record-picker (input.picker-search, li.picker-item[data-id]), #create-panel.
 */
import { apiPath, getJSON, sendJSON, shortId } from '../../shared/api.js';
import { el, floatingPanel } from '../../shared/dom.js';
import { setVisibleText } from '../../shared/visible-text.js';
import * as E from './editing.js';

/** At most this many records of a to-many are loaded to edit it: its whole content is sent back on Save. */
const TO_MANY_EDIT_LIMIT = 2000;

function shown(value) {
  return value === null || value === undefined ? 'nil' : typeof value === 'string' ? value : JSON.stringify(value);
}

// ------------------------------------------------------------------ Attributes

/** Replaces `cell`'s content with an editor; commit stages the change and shows the staged value. */
function openEditor(cell, record, attribute, value, restore) {
  const field = `attrs.${attribute.name}`;
  const current = E.stagedValue(record.id, field);
  const editor = E.editor(attribute.type, current === undefined ? value : current, {
    optional: attribute.optional !== false,
    label: attribute.name,
    onCommit(after) {
      E.stage(record, field, after, value);
      showStaged(cell, record, field, restore);
    },
    onCancel() { showStaged(cell, record, field, restore); },
  });
  cell.replaceChildren(editor);
  const input = editor.querySelector('.editor-input, .editor-nil');
  if (input) input.focus();
}

/** A cell shows its staged value (marked) or, when nothing is staged, what it showed before. */
function showStaged(cell, record, field, restore) {
  const after = E.stagedValue(record.id, field);
  if (after === undefined) {
    cell.classList.remove('staged');
    restore();
    return;
  }
  cell.classList.add('staged');
  const text = el('span', 'staged-value');
  setVisibleText(text, shown(after));
  text.title = 'Staged: not saved yet';
  cell.replaceChildren(text);
}

function editDetail(root, object, schema) {
  const record = { id: object.id, entity: object.entity, version: object.version };
  const attributes = new Map((schema ? schema.attributes : []).map((a) => [a.name, a]));
  for (const row of root.querySelectorAll('tr.attr-row[data-attr]')) {
    const attribute = attributes.get(row.dataset.attr);
    const cell = row.querySelector('.attr-value');
    if (!attribute || !cell) continue;
    const original = Array.from(cell.childNodes);
    const restore = () => { cell.replaceChildren(...original, editButton()); };
    const editButton = () => {
      const edit = el('button', 'edit-attr', 'edit');
      edit.type = 'button';
      edit.title = `Edit ${attribute.name}`;
      edit.setAttribute('aria-label', `Edit ${attribute.name}`);
      edit.addEventListener('click', () => openEditor(cell, record, attribute, object.attrs[attribute.name] ?? null, restore));
      return edit;
    };
    if (E.stagedValue(record.id, `attrs.${attribute.name}`) !== undefined) {
      showStaged(cell, record, `attrs.${attribute.name}`, restore);
      cell.append(editButton());
    } else {
      cell.append(editButton());
    }
  }
  for (const rel of object.relationships || []) {
    const block = root.querySelector(`.rel-block[data-rel="${CSS.escape(rel.name)}"]`);
    if (block) block.append(relationshipEditor(record, rel));
  }
}

function editCell(td, record, attribute, value) {
  const original = Array.from(td.childNodes);
  openEditor(td, record, attribute, value, () => td.replaceChildren(...original));
}

// ------------------------------------------------------------------ Relationships

function relationshipEditor(record, rel) {
  const box = el('div', 'rel-editor');
  box.dataset.rel = rel.name;
  const field = `relationships.${rel.name}`;
  const before = rel.toMany ? null : (rel.items[0] ? rel.items[0].id : null);
  if (!rel.toMany) {
    const change = el('button', 'rel-change', 'Change…');
    change.type = 'button';
    change.addEventListener('click', () => pickRecord(rel.destination, change, (picked) => {
      E.stage(record, field, picked.id, before);
      note(box, `Staged: ${picked.summary || picked.id}`);
    }));
    box.append(change);
    if (before !== null) {
      const nil = el('button', 'rel-nil', 'nil');
      nil.type = 'button';
      nil.title = `Set ${rel.name} to nil`;
      nil.addEventListener('click', () => { E.stage(record, field, null, before); note(box, 'Staged: nil'); });
      box.append(nil);
    }
    return box;
  }
  const edit = el('button', 'rel-edit', 'Edit…');
  edit.type = 'button';
  edit.addEventListener('click', () => editToMany(box, record, rel));
  box.append(edit);
  return box;
}

function note(box, text) {
  let line = box.querySelector('.rel-staged');
  if (!line) { line = el('span', 'rel-staged'); box.append(line); }
  setVisibleText(line, text);
}

/** Loads the whole relationship (its content is sent back whole), then lists it with remove and add. */
async function editToMany(box, record, rel) {
  if (rel.count > TO_MANY_EDIT_LIMIT) {
    note(box, `${rel.count} records: more than ${TO_MANY_EDIT_LIMIT} cannot be edited here`);
    return;
  }
  const items = [];
  while (items.length < rel.count) {
    const page = await getJSON(apiPath('/api/object/related', { id: record.id, rel: rel.name, offset: items.length, limit: 500 }));
    if (!page.rows.length) break;
    items.push(...page.rows.map((row) => ({ id: row.id, summary: row.summary })));
  }
  const before = items.map((item) => item.id);
  const field = `relationships.${rel.name}`;
  const staged = E.stagedValue(record.id, field);
  let current = staged === undefined ? items : staged.map((id) => items.find((item) => item.id === id) || { id, summary: shortId(id) });
  const list = el('ul', 'rel-edit-items');
  const render = () => {
    list.replaceChildren(...current.map((item) => {
      const li = el('li');
      li.dataset.id = item.id;
      const label = el('span', 'rel-edit-label');
      setVisibleText(label, item.summary || item.id);
      const remove = el('button', 'rel-remove', '×');
      remove.type = 'button';
      remove.title = `Remove ${item.summary || item.id}`;
      remove.setAttribute('aria-label', remove.title);
      remove.addEventListener('click', () => { current = current.filter((other) => other.id !== item.id); commit(); });
      li.append(label, remove);
      return li;
    }));
  };
  const commit = () => { E.stage(record, field, current.map((item) => item.id), before); render(); };
  const add = el('button', 'rel-add', 'Add…');
  add.type = 'button';
  add.addEventListener('click', () => pickRecord(rel.destination, add, (picked) => {
    if (!current.some((item) => item.id === picked.id)) current = current.concat([picked]);
    commit();
  }));
  render();
  box.replaceChildren(list, add);
}

let picker = null;

/** Searches the destination entity as its list does; a click (or Enter on the first) picks a record. */
function pickRecord(destination, from, onPick) {
  if (!picker) {
    picker = floatingPanel('record-picker', 'record-picker', 'Pick a record');
    const input = el('input', 'picker-search');
    input.type = 'search';
    input.setAttribute('aria-label', 'Search records');
    const list = el('ul', 'picker-items');
    picker.node.append(input, list);
  }
  const input = picker.node.querySelector('.picker-search');
  const list = picker.node.querySelector('.picker-items');
  input.placeholder = `Search ${destination}…`;
  input.value = '';
  let asked = 0;
  const search = async () => {
    const ask = ++asked;
    const page = await getJSON(apiPath(`/api/entities/${encodeURIComponent(destination)}`, { search: input.value, limit: 10 }))
      .catch((err) => ({ rows: [], error: err.message }));
    if (ask !== asked) return;
    list.replaceChildren(...page.rows.map((row) => {
      const li = el('li', 'picker-item');
      li.dataset.id = row.id;
      li.tabIndex = 0;
      setVisibleText(li, `${row.summary || row.id}  (${row.entity} ${shortId(row.id)})`);
      const pick = () => { picker.close(); onPick({ id: row.id, summary: row.summary }); };
      li.addEventListener('click', pick);
      li.addEventListener('keydown', (event) => { if (event.key === 'Enter') pick(); });
      return li;
    }));
    if (page.error) list.append(el('li', 'picker-error', page.error));
  };
  input.oninput = search;
  input.onkeydown = (event) => {
    if (event.key === 'Enter') { event.preventDefault(); const first = list.querySelector('.picker-item'); if (first) first.click(); }
  };
  picker.show(from);
  input.focus();
  search();
}

// ------------------------------------------------------------------ A new record

let creator = null;

function openCreate(entity, schema, done) {
  if (!creator) creator = floatingPanel('create-panel', 'create-panel', 'New record');
  const values = {};
  const relationships = {};
  const table = el('table', 'create-table');
  for (const attribute of schema.attributes) {
    const row = el('tr');
    row.dataset.field = `attrs.${attribute.name}`;
    const cell = el('td', 'create-value');
    const problem = el('div', 'field-error');
    problem.hidden = true;
    const input = E.editor(attribute.type, null, {
      optional: true,
      label: attribute.name,
      tracked: false, // the form reads every field itself on Create (below); the edit bar's Save is not its
      onCommit(value) { values[attribute.name] = value; },
      onCancel() { creator.close(); },
    });
    // The form reads every field on Create, not only those committed with Enter.
    const field = input.querySelector('.editor-input');
    if (field) {
      field.addEventListener('change', () => {
        if (field.tagName === 'SELECT') return;
        if (field.value.trim() === '') { delete values[attribute.name]; return; }
        try { values[attribute.name] = E.parseInput(field.value, attribute.type); problem.hidden = true; } catch (err) {
          problem.textContent = err.message;
          problem.hidden = false;
        }
      });
    }
    cell.append(input, problem);
    row.append(el('th', null, `${attribute.name}${attribute.optional === false ? ' *' : ''}`), el('td', 'create-type', attribute.type), cell);
    table.append(row);
  }
  for (const rel of schema.relationships) {
    const row = el('tr');
    row.dataset.field = `relationships.${rel.name}`;
    const cell = el('td', 'create-value');
    const chosen = el('span', 'create-chosen', rel.toMany ? 'none' : 'nil');
    const pick = el('button', 'rel-add', rel.toMany ? 'Add…' : 'Choose…');
    pick.type = 'button';
    pick.addEventListener('click', () => pickRecord(rel.destination, pick, (picked) => {
      if (rel.toMany) {
        relationships[rel.name] = Array.from(new Set((relationships[rel.name] || []).concat([picked.id])));
        setVisibleText(chosen, `${relationships[rel.name].length} chosen`);
      } else {
        relationships[rel.name] = picked.id;
        setVisibleText(chosen, picked.summary || picked.id);
      }
    }));
    const problem = el('div', 'field-error');
    problem.hidden = true;
    cell.append(chosen, pick, problem);
    row.append(el('th', null, rel.name), el('td', 'create-type', `→ ${rel.destination}${rel.toMany ? ' (many)' : ''}`), cell);
    table.append(row);
  }
  const message = el('p', 'create-message');
  message.setAttribute('role', 'status');
  const save = el('button', 'edit-btn primary', `Create ${entity}`);
  save.type = 'button';
  save.id = 'create-save';
  const cancel = el('button', 'edit-btn', 'Cancel');
  cancel.type = 'button';
  cancel.id = 'create-cancel';
  cancel.addEventListener('click', () => creator.close());
  save.addEventListener('click', async () => {
    for (const problem of table.querySelectorAll('.field-error')) problem.hidden = true;
    save.disabled = true;
    try {
      const created = await sendJSON('POST', apiPath(`/api/entities/${encodeURIComponent(entity)}`), { attrs: values, relationships });
      creator.close();
      done(created);
    } catch (err) {
      setVisibleText(message, `Not created: ${err.message}`);
      for (const { field, message: text } of E.fieldProblems(err)) {
        const problem = table.querySelector(`tr[data-field="${CSS.escape(field)}"] .field-error`);
        if (problem) { problem.textContent = text; problem.hidden = false; }
      }
    } finally {
      save.disabled = false;
    }
  });
  creator.node.replaceChildren(el('h3', null, `New ${entity}`), table, message, save, cancel);
  creator.show();
  const first = creator.node.querySelector('.editor-input');
  if (first) first.focus();
}

/** A view's "+ New" button: opens the form for the entity of the list on screen (`current()` gives {entity,
 *  schema}; an abstract entity has no records of its own) and calls onCreated(record) once it is saved. */
function newRecordButton(className, current, onCreated) {
  const create = el('button', `${className} new-record`, '+ New');
  create.type = 'button';
  create.id = 'new-record-btn';
  create.title = 'Create a record of this entity';
  create.addEventListener('click', () => {
    const { entity, schema } = current();
    if (!schema || schema.isAbstract) return;
    openCreate(entity, schema, onCreated);
  });
  return create;
}

export { editDetail, editCell, newRecordButton, pickRecord, openCreate };
