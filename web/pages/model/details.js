/*
 * CoreDataBrowser — Model view: the details pane of one entity, everything /api/model says about it (used by model.js).
 *
 *   #model-details: h2 (the entity), a.model-browse (its records in the Inspector), a "Focus here" button, facts
 *   (parent, sub-entities, class, renaming, configurations, version hash), tables of attributes and relationships,
 *   fetch indexes, uniqueness constraints, the relationships of other entities into it that have no inverse (they
 *   are drawn on its lines too), and what the model's source cannot tell (details.model-unknown).
 *   Or one relationship line (showLine): h2 (its two entities), buttons selecting either, and a table of every
 *   relationship the line stands for, each direction of an inverse pair on a row of its own.
 */

import { el } from '../../shared/dom.js';
import { formatCount } from '../../shared/paging.js';
import { viewURL } from '../../shared/url.js';
import { cardinality } from './drawing.js';

const yesNo = (value) => (value === null || value === undefined ? 'unknown' : value ? 'yes' : 'no');
const shown = (value) => (value === null || value === undefined ? '—' : String(value));

function table(headings, rows) {
  const node = el('table', 'model-table');
  const head = el('tr');
  for (const heading of headings) head.append(el('th', null, heading));
  node.append(head);
  for (const cells of rows) {
    const row = el('tr');
    for (const cell of cells) row.append(cell instanceof Node ? (() => { const td = el('td'); td.append(cell); return td; })() : el('td', null, cell));
    node.append(row);
  }
  return node;
}

/** Empties `pane` and gives it a heading and a close button. */
function start(pane, title, onClose) {
  pane.replaceChildren();
  const head = el('div', 'model-details-head');
  head.append(el('h2', null, title));
  const close = el('button', 'control', '×');
  close.type = 'button';
  close.title = 'Close the details';
  close.addEventListener('click', () => { pane.hidden = true; onClose(); });
  head.append(close);
  pane.append(head);
}

const RELATIONSHIP_HEADINGS = ['Name', 'Destination', 'Inverse', 'Count', 'Delete rule', 'Notes'];

/** A relationship's row; `name` as the table needs it (its own name, or "Entity.name" where sources differ). */
const relationshipRow = (r, name = r.name) => [
  name, r.destination, shown(r.inverse), cardinality(r), shown(r.deleteRule),
  [r.ordered && 'ordered', r.transient && 'transient', r.renamingIdentifier && `renamed from ${r.renamingIdentifier}`]
    .filter(Boolean).join('; '),
];

/** Fills `pane` with `entity` of `model`; `onFocus(name)` and `onClose()` are the pane's two actions. */
function show(pane, entity, model, { onFocus, onClose }) {
  start(pane, entity.name, onClose);
  const actions = el('p', 'model-details-actions');
  const browse = el('a', 'model-browse', `Browse ${entity.count === null || entity.count === undefined ? '' : `${formatCount(entity.count)} `}records →`);
  browse.href = viewURL('/', { entity: entity.name });
  const focus = el('button', 'control', 'Focus here');
  focus.type = 'button';
  focus.addEventListener('click', () => onFocus(entity.name));
  actions.append(browse, ' ', focus);
  pane.append(actions);
  const facts = [
    ['Parent', entity.parent || '—'],
    ['Sub-entities', entity.subentities.length ? entity.subentities.join(', ') : '—'],
    ['Abstract', entity.abstract ? 'yes' : 'no'],
    ['Class', shown(entity.className)],
    ['Renamed from', shown(entity.renamingIdentifier)],
    ['Configurations', model.configurations === null ? 'unknown'
      : ['Default', ...model.configurations.filter((c) => c.entities.includes(entity.name)).map((c) => c.name)].join(', ')],
    ['Version hash', entity.versionHash ? `${entity.versionHash}${entity.matchesStore === true ? ' (matches the store)' : entity.matchesStore === false ? ' (differs from the store’s)' : ''}` : 'unknown'],
  ];
  const list = el('dl', 'model-facts');
  for (const [term, value] of facts) list.append(el('dt', null, term), el('dd', null, value));
  pane.append(list);
  pane.append(el('h3', null, `Attributes (${entity.attributes.length})`));
  const range = (a) => {
    if (a.minimum === null && a.maximum === null) return '—';
    if (a.maximum === null) return `≥ ${a.minimum}`;
    if (a.minimum === null) return `≤ ${a.maximum}`;
    return `${a.minimum}…${a.maximum}`;
  };
  pane.append(table(['Name', 'Type', 'Optional', 'Default', 'Range', 'Notes'], entity.attributes.map((a) => [
    a.name, a.type, yesNo(a.optional), shown(a.defaultValue), range(a),
    [a.transient && 'transient', a.externalStorage && 'external storage', a.transformer && `transformer ${a.transformer}`,
      a.fetchIndexes && a.fetchIndexes.length && `index ${a.fetchIndexes.join(', ')}`, a.unique && 'unique',
      a.derivation && `derived: ${a.derivation}`, a.renamingIdentifier && `renamed from ${a.renamingIdentifier}`]
      .filter(Boolean).join('; '),
  ])));
  pane.append(el('h3', null, `Relationships (${entity.relationships.length})`));
  pane.append(table(RELATIONSHIP_HEADINGS, entity.relationships.map((r) => relationshipRow(r))));
  // Drawn on this entity's lines but declared elsewhere, and named nowhere above.
  const into = model.entities.filter((other) => other.name !== entity.name).flatMap((other) => other.relationships
    .filter((r) => r.destination === entity.name && !r.inverse).map((r) => relationshipRow(r, `${other.name}.${r.name}`)));
  if (into.length) {
    pane.append(el('h3', null, `Into ${entity.name} without an inverse (${into.length})`));
    pane.append(table(RELATIONSHIP_HEADINGS, into));
  }
  if (entity.fetchIndexes && entity.fetchIndexes.length) {
    pane.append(el('h3', null, 'Fetch indexes'));
    pane.append(table(['Name', 'Elements'], entity.fetchIndexes.map((index) => [
      index.name, index.elements.map((e) => `${e.property}${e.ascending ? '' : ' desc'}${e.type === 'Binary' ? '' : ` (${e.type})`}`).join(', '),
    ])));
  }
  if (entity.uniquenessConstraints && entity.uniquenessConstraints.length) {
    pane.append(el('h3', null, 'Uniqueness constraints'));
    for (const constraint of entity.uniquenessConstraints) pane.append(el('p', 'model-constraint', constraint.join(' + ')));
  }
  const unknown = Object.keys(model.unknown || {}).sort();
  if (unknown.length) {
    const note = el('details', 'model-unknown');
    note.append(el('summary', null, `Not known from this model's source (${unknown.length})`));
    for (const key of unknown) note.append(el('p', null, `${key}: ${model.unknown[key]}`));
    pane.append(note);
  }
  pane.hidden = false;
}

/**
 * Fills `pane` with one relationship line (an edge of model.js's graphEdges(): {from, to, members: [{from, to,
 * forward, backward}]}); `onEntity(name)` selects one of its two entities, `onClose()` closes the pane.
 */
function showLine(pane, line, { onEntity, onClose }) {
  start(pane, line.from === line.to ? line.from : `${line.from} — ${line.to}`, onClose);
  const count = line.members.length;
  const actions = el('p', 'model-details-actions',
    count === 1 ? 'One relationship drawn as this line. ' : `${count} relationships drawn as this one line. `);
  for (const name of new Set([line.from, line.to])) {
    const button = el('button', 'control', name);
    button.type = 'button';
    button.title = `Show ${name}`;
    button.addEventListener('click', () => onEntity(name));
    actions.append(button, ' ');
  }
  pane.append(actions);
  const rows = line.members.flatMap((m) => [
    relationshipRow(m.forward, `${m.from}.${m.forward.name}`),
    ...(m.backward ? [relationshipRow(m.backward, `${m.to}.${m.backward.name}`)] : []),
  ]);
  pane.append(el('h3', null, `Relationships (${rows.length})`));
  const list = table(RELATIONSHIP_HEADINGS, rows);
  list.classList.add('model-line-relationships');
  pane.append(list);
  pane.hidden = false;
}

export {
  show,
  showLine,
};
