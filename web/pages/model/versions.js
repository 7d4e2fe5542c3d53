/*
 * CoreDataBrowser — Model view: the versions of a versioned model file and what differs between two of them.
 *
 * API (docs/API.md): GET /api/model/versions, GET /api/model/diff?from=&to=.
 *
 *   #versions-btn opens #model-versions (shown only when the store was opened with a versioned .xcdatamodeld or
 *   .momd): #versions-table has one tr[data-version] per version with its marks (span.version-mark[data-mark=
 *   current|used|matches]) and, for a version that does not match the store, how it differs; #diff-from / #diff-to
 *   pick two versions (by default the one in use and the current one) and #versions-diff lists the differences:
 *   li.diff-entity[data-change=added|removed|renamed|changed][data-entity], each with li.diff-property items.
 *   URL: /model?from=A&to=B opens the panel on that comparison. State: document.body.dataset.versionsState =
 *   unavailable | ready | loading-diff | diff-ready | error.
 */

import { apiPath, getJSON } from '../../shared/api.js';
import { byId, el } from '../../shared/dom.js';
import { viewURL } from '../../shared/url.js';

const dom = {
  button: byId('versions-btn'),
  panel: byId('model-versions'),
  table: byId('versions-table'),
  file: byId('versions-file'),
  from: byId('diff-from'),
  to: byId('diff-to'),
  diff: byId('versions-diff'),
};
let controller = null;

const setState = (state) => { document.body.dataset.versionsState = state; };

function mark(kind, text, title) {
  const node = el('span', 'version-mark', text);
  node.dataset.mark = kind;
  if (title) node.title = title;
  return node;
}

function drawVersions(versions) {
  dom.table.replaceChildren();
  const head = el('tr');
  for (const heading of ['Version', 'Store', '']) head.append(el('th', null, heading));
  dom.table.append(head);
  for (const version of versions) {
    const row = el('tr');
    row.dataset.version = version.name;
    const name = el('td');
    const link = el('a', 'version-link', version.name);
    link.href = viewURL('/model', { version: version.name });
    link.title = `Draw version ${version.name} (${version.entities} entities): ${version.path}`;
    name.append(link);
    const marks = el('td', 'version-marks');
    if (version.current) marks.append(mark('current', 'current', 'The model file’s current version (.xccurrentversion)'));
    if (version.used) marks.append(mark('used', 'in use', 'The version this store is read with'));
    if (version.matchesStore) {
      marks.append(mark('matches', 'matches the store', version.matchedBy === 'versionHashes'
        ? 'Its entity version hashes equal the store’s metadata'
        : 'No hashes to compare (an .xcdatamodel holds none): its entities and columns are exactly the store’s tables'));
    }
    const why = el('td', 'version-mismatch', version.matchesStore ? '' : version.mismatch || '');
    row.append(name, marks, why);
    dom.table.append(row);
  }
}

function fieldText(field) {
  const shown = (value) => (value === null || value === undefined ? 'none' : value);
  return `${field.field}: ${shown(field.from)} → ${shown(field.to)}`;
}

function propertyItem(kind, property) {
  const item = el('li', 'diff-property');
  item.dataset.change = property.change;
  item.dataset.property = property.name;
  const label = property.change === 'renamed' ? `${property.previousName} → ${property.name}` : property.name;
  item.append(el('span', 'diff-badge', property.change), ' ', el('span', 'diff-kind', kind), ' ', el('code', null, label));
  if (property.fields.length) item.append(el('span', 'diff-fields', ` (${property.fields.map(fieldText).join('; ')})`));
  return item;
}

function drawDifference(difference) {
  dom.diff.replaceChildren();
  if (!difference.entities.length) {
    dom.diff.append(el('p', 'diff-none', `No differences between ${difference.from} and ${difference.to}.`));
    return;
  }
  const list = el('ul', 'diff-list');
  for (const entity of difference.entities) {
    const item = el('li', 'diff-entity');
    item.dataset.change = entity.change;
    item.dataset.entity = entity.name;
    const label = entity.change === 'renamed' ? `${entity.previousName} → ${entity.name}` : entity.name;
    item.append(el('span', 'diff-badge', entity.change), ' ', el('strong', null, label));
    if (entity.fields.length) item.append(el('span', 'diff-fields', ` (${entity.fields.map(fieldText).join('; ')})`));
    const properties = el('ul');
    for (const attribute of entity.attributes) properties.append(propertyItem('attribute', attribute));
    for (const relationship of entity.relationships) properties.append(propertyItem('relationship', relationship));
    if (properties.children.length) item.append(properties);
    list.append(item);
  }
  dom.diff.append(list);
}

async function compare() {
  const from = dom.from.value;
  const to = dom.to.value;
  const q = new URLSearchParams(window.location.search);
  q.set('from', from);
  q.set('to', to);
  window.history.replaceState(null, '', `/model?${q}`);
  controller?.abort();
  controller = new AbortController();
  setState('loading-diff');
  try {
    drawDifference(await getJSON(apiPath('/api/model/diff', { from, to }), controller.signal));
    setState('diff-ready');
  } catch (error) {
    if (error.name === 'AbortError') return;
    dom.diff.replaceChildren(el('p', 'diff-error', `Could not compare: ${error.message}`));
    setState('error');
  }
}

function open() {
  byId('model-details').hidden = true;
  dom.panel.hidden = false;
  compare();
}

async function start() {
  let answer;
  try {
    answer = await getJSON('/api/model/versions');
  } catch (error) {
    setState('error');
    return;
  }
  if (!answer.available) {
    dom.button.title = answer.reason || '';
    setState('unavailable');
    return;
  }
  const versions = answer.versions;
  dom.file.textContent = versions.length ? versions[0].path.replace(/\/[^/]+$/, '') : '';
  drawVersions(versions);
  const names = versions.map((version) => version.name);
  for (const select of [dom.from, dom.to]) {
    select.replaceChildren(...names.map((name) => { const option = el('option', null, name); option.value = name; return option; }));
  }
  const q = new URLSearchParams(window.location.search);
  const used = versions.find((version) => version.used) || versions[0];
  const current = versions.find((version) => version.current) || versions[versions.length - 1];
  dom.from.value = names.includes(q.get('from')) ? q.get('from') : used.name;
  dom.to.value = names.includes(q.get('to')) ? q.get('to') : current.name;
  dom.button.hidden = false;
  dom.button.textContent = `Versions (${versions.length})`;
  dom.button.addEventListener('click', open);
  byId('versions-close').addEventListener('click', () => { dom.panel.hidden = true; });
  dom.from.addEventListener('change', compare);
  dom.to.addEventListener('change', compare);
  setState('ready');
  if (q.has('from') || q.has('to')) open();
}

start();
