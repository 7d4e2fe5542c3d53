/*
 * CoreDataBrowser — Inspector view: the detail pane: one record's attributes (values, content viewers, filter
 * and facet buttons) and relationships, and following them.
 */

import { apiPath, getJSON, isAbort, restartFetch } from '../../shared/api.js';
import { copyFrom, recordJSON } from '../../shared/clipboard.js';
import { readDateZone } from '../../shared/dates.js';
import { detailJumpBar, isEmptyValue, markEmpty, nameWithBreaks } from '../../shared/detail-sections.js';
import { el, focusWithin, markChange } from '../../shared/dom.js';
import { emptyListView } from '../../shared/list-view.js';
import { isLongValue, longValue } from '../../shared/long-value.js';
import { formatCount } from '../../shared/paging.js';
import { showPaneStatus } from '../../shared/pane-status.js';
import { renderValue } from '../../shared/values.js';
import { visibleText } from '../../shared/visible-text.js';
import * as content from '../../features/content/content.js';
import * as facets from '../../features/facets/facets.js';
import * as predicate from '../../features/predicate/predicate.js';
import { actions } from './actions.js';
import { markSelectedRecord } from './record-list.js';
import { commitView, data, dom, errorText, inflight, setView, since, urlForView, view } from './state.js';
import { nameOf } from './toolbar.js';

// ---------------------------------------------------------------------------------------------
// Detail pane
// ---------------------------------------------------------------------------------------------

/** The detail was asked for from the keyboard: focus its related items once it is shown. */
let refocusDetail = false;

async function loadDetail() {
  const signal = restartFetch(inflight, 'detail').signal;
  const id = view.id;
  dom.exportBtn.disabled = !id;
  if (!id) {
    inflight.detail = null;
    dom.detail.replaceChildren();
    delete dom.detail.dataset.id;
    delete dom.detail.dataset.entity;
    showPaneStatus(dom.detailPane, dom.detailStatus, 'idle', 'hint', view.entity ? 'Select a record to see its attributes and relationships.' : 'Nothing selected.');
    updateTitle(null);
    return;
  }
  showPaneStatus(dom.detailPane, dom.detailStatus, 'loading', dom.detail.children.length ? null : 'loading', 'Loading record…');
  try {
    const [object] = await Promise.all([getJSON(apiPath('/api/object', { id }), signal), data.entitiesLoaded]);
    if (signal.aborted) return;
    renderDetail(object);
    showPaneStatus(dom.detailPane, dom.detailStatus, 'ready', null);
    updateTitle(object);
    if (refocusDetail) focusWithin(dom.detail, 'a.rel-item');
    refocusDetail = false;
  } catch (err) {
    if (isAbort(err)) return;
    dom.detail.replaceChildren();
    delete dom.detail.dataset.id;
    delete dom.detail.dataset.entity;
    showPaneStatus(dom.detailPane, dom.detailStatus, 'error', 'error', errorText(err));
    updateTitle(null);
  }
}

function updateTitle(object) {
  const parts = [];
  if (object) parts.push(visibleText(object.summary));
  if (view.entity) parts.push(view.entity);
  parts.push('CoreDataBrowser');
  document.title = parts.join(' · ');
}

function renderDetail(object) {
  const schema = data.entityByName.get(object.entity);
  const types = new Map((schema ? schema.attributes : []).map((a) => [a.name, a.type]));

  const header = el('header', 'detail-header');
  const entityBadge = el('span', 'detail-entity', object.entity);
  entityBadge.id = 'detail-entity';
  const title = el('h2', 'detail-summary', nameOf(object));
  title.id = 'detail-summary';
  const idLine = el('code', 'detail-id', object.id);
  idLine.id = 'detail-id';
  idLine.title = 'Object ID (Core Data URI)';
  const copies = el('div', 'detail-copy');
  const copyID = el('button', 'copy-btn', 'Copy ID');
  copyID.type = 'button';
  copyID.id = 'copy-id-btn';
  copyID.dataset.copy = object.id;
  const copyJSON = el('button', 'copy-btn', 'Copy as JSON');
  copyJSON.type = 'button';
  copyJSON.id = 'copy-json-btn';
  copyJSON.dataset.copy = recordJSON(object);
  copies.append(copyID, copyJSON);
  if (data.writable) copies.append(...actions.editingButtons(object, schema));
  header.append(entityBadge, title, idLine, copies);

  // Attributes: the schema's order (sorted by name), then anything the schema does not list.
  const attrs = object.attrs && typeof object.attrs === 'object' ? object.attrs : {};
  const names = schema ? schema.attributes.map((a) => a.name) : [];
  for (const name of Object.keys(attrs).sort()) if (!types.has(name)) names.push(name);

  const sameRecord = since.record && since.record.id === object.id;
  if (!sameRecord) since.record = { id: object.id, attrs: new Map(Object.entries(attrs).map(([k, v]) => [k, JSON.stringify(v)])) };
  const attrSection = el('section', 'detail-section');
  attrSection.dataset.section = 'attributes';
  attrSection.append(el('h3', 'section-title', 'Attributes'));
  let emptyCount = 0;
  if (names.length) {
    const table = el('table', 'attr-table');
    table.id = 'attr-table';
    const head = el('thead');
    const headRow = el('tr');
    headRow.append(el('th', null, 'Name'), el('th', null, 'Type'), el('th', null, 'Value'));
    head.append(headRow);
    const body = el('tbody');
    for (const name of names) {
      const type = types.get(name) || '';
      const tr = el('tr', 'attr-row');
      tr.dataset.attr = name;
      tr.dataset.type = type;
      const valueCell = el('td', 'attr-value');
      const value = Object.prototype.hasOwnProperty.call(attrs, name) ? attrs[name] : null;
      valueCell.append(isLongValue(value)
        ? longValue(value, (text) => renderValue(text, type, readDateZone())) : renderValue(value, type, readDateZone()));
      if (value && typeof value === 'object' && value.type === 'binary') appendContentControls(valueCell, object.id, name, value);
      content.markURL(valueCell.firstElementChild, value, type);
      const link = content.webLink(value);
      if (link) valueCell.append(link);
      appendFilterControls(valueCell, name, value);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        const copy = el('button', 'copy-btn copy-value', '⧉');
        copy.type = 'button';
        copy.title = `Copy ${name}`;
        copy.setAttribute('aria-label', `Copy ${name}`);
        copy.dataset.copy = String(value);
        valueCell.append(copy);
      }
      // The whole name, wrapping between its words: two names sharing a long prefix never look the same.
      const nameCell = el('td', 'attr-name');
      nameCell.append(nameWithBreaks(name));
      nameCell.title = visibleText(name);
      markEmpty(tr, isEmptyValue(value));
      if (isEmptyValue(value)) emptyCount += 1;
      tr.append(nameCell, el('td', 'attr-type', type || '?'), valueCell);
      if (sameRecord && since.record.attrs.get(name) !== JSON.stringify(value)) {
        markChange(tr, 'changed', `Changed since you looked (was ${since.record.attrs.get(name) ?? 'absent'})`);
      }
      body.append(tr);
    }
    table.append(head, body);
    attrSection.append(table);
  } else {
    attrSection.append(el('p', 'section-empty', 'No attributes.'));
  }

  const relSection = el('section', 'detail-section');
  relSection.dataset.section = 'relationships';
  relSection.append(el('h3', 'section-title', 'Relationships'));
  const relationships = Array.isArray(object.relationships) ? object.relationships : [];
  emptyCount += relationships.filter((rel) => rel.count === 0).length;
  if (relationships.length) {
    const list = el('div', 'rel-list');
    list.id = 'rel-list';
    for (const rel of relationships) list.append(renderRelationship(rel, object));
    relSection.append(list);
  } else {
    relSection.append(el('p', 'section-empty', 'No relationships.'));
  }

  const jumps = detailJumpBar(dom.detail, [{ id: 'attributes', label: 'Attributes', count: names.length },
    { id: 'relationships', label: 'Relationships', count: relationships.length }], emptyCount);
  dom.detail.replaceChildren(header, jumps, attrSection, relSection);
  dom.detail.dataset.id = object.id;
  dom.detail.dataset.entity = object.entity;
  dom.detail.scrollTop = 0;
  dom.detailPane.scrollTop = 0;
  actions.resumeEditing(object, schema);
}

/**
 * "Filter by this value" (the list's entity's attributes only: a sub-entity's own attribute is not the list's)
 * and the attribute's facets, beside a value in the detail pane.
 */
function appendFilterControls(cell, attr, value) {
  const schema = data.entityByName.get(view.entity);
  const attribute = schema ? schema.attributes.find((a) => a.name === attr) : null;
  if (!attribute) return;
  const attrActions = el('span', 'attr-actions');
  const node = predicate.conditionFor(attr, value);
  if (node) {
    const filter = el('button', 'attr-action filter-value', '=');
    filter.type = 'button';
    filter.title = `Filter the list by this value (${predicate.formatTree(node, () => attribute.type)})`;
    filter.setAttribute('aria-label', `Filter the list by this ${attr}`);
    filter.addEventListener('click', () => predicate.addCondition(node));
    attrActions.append(filter);
  }
  if (facets.facetable(attribute.type)) {
    const facetButton = el('button', 'attr-action facet-attr', '▥');
    facetButton.type = 'button';
    facetButton.dataset.opensFacets = '';
    facetButton.title = `Facets of ${attr}: its values in the list, with counts`;
    facetButton.setAttribute('aria-label', `Facets of ${attr}`);
    facetButton.addEventListener('click', () => facets.open(attr, facetButton));
    attrActions.append(facetButton);
  }
  if (attrActions.children.length) cell.append(attrActions);
}

/**
 * A Binary or Transformable value: its summary fetched when it scrolls into view ("PNG 48×72 · 10 KB"), and a
 * "Look inside" button that opens the content viewer (content.js) in a row of its own below the attribute's,
 * across the whole table: the value column alone is too narrow for a hex view.
 */
function appendContentControls(cell, id, attr, value) {
  const shown = cell.querySelector('.val-binary');
  if (shown) content.lazySummary(shown, id, attr);
  const look = el('button', 'copy-btn content-look', 'Look inside');
  look.type = 'button';
  look.setAttribute('aria-expanded', 'false');
  let opened = null;
  look.addEventListener('click', () => {
    if (opened) {
      opened.remove();
      opened = null;
      look.textContent = 'Look inside';
      look.setAttribute('aria-expanded', 'false');
      return;
    }
    opened = el('tr', 'attr-viewer-row');
    opened.dataset.viewerFor = attr;
    const wide = el('td');
    wide.colSpan = 3;
    wide.append(content.viewer(id, attr, Number.isFinite(value.bytes) ? value.bytes : 0));
    opened.append(wide);
    look.closest('tr').after(opened);
    look.textContent = 'Close';
    look.setAttribute('aria-expanded', 'true');
  });
  cell.append(look);
}

function renderRelationship(rel, object) {
  const block = el('div', 'rel-block');
  markEmpty(block, rel.count === 0);
  block.dataset.rel = rel.name;
  block.dataset.destination = rel.destination;

  const head = el('div', 'rel-head');
  head.append(
    el('span', 'rel-name', rel.name),
    el('span', 'rel-arrow', rel.toMany ? '→→' : '→'),
    destinationLink(rel.destination),
    el('span', 'rel-kind', rel.toMany ? (rel.ordered ? 'to-many, ordered' : 'to-many') : 'to-one'),
    el('span', 'rel-count', formatCount(rel.count)),
  );
  block.append(head);

  const items = Array.isArray(rel.items) ? rel.items : [];
  if (!items.length) {
    block.append(el('p', 'rel-empty', rel.toMany ? 'none' : 'nil'));
    return block;
  }
  const ul = el('ul', 'rel-items');
  for (const item of items) {
    const li = el('li');
    const link = el('a', 'rel-item');
    link.href = urlForView({ ...emptyListView(), entity: rel.destination, id: item.id });
    link.dataset.id = item.id;
    link.dataset.entity = item.entity;
    link.dataset.destination = rel.destination;
    link.append(el('span', 'rel-item-summary', item.summary));
    if (item.entity !== rel.destination) link.append(el('span', 'rel-item-entity', item.entity));
    li.append(link);
    ul.append(li);
  }
  block.append(ul);
  if (rel.toMany && rel.count > 0) {
    const more = el('p', 'rel-more');
    if (rel.count > items.length) more.append(`+${formatCount(rel.count - items.length)} more · `);
    const all = el('a', 'rel-show-all', rel.count > items.length ? `show all ${formatCount(rel.count)} in the list` : 'open as a list');
    all.href = urlForView({ ...emptyListView(), entity: rel.destination, relatedTo: object.id, via: rel.name });
    all.dataset.destination = rel.destination;
    all.dataset.relatedTo = object.id;
    all.dataset.via = rel.name;
    more.append(all);
    block.append(more);
  }
  return block;
}

function destinationLink(entity) {
  const link = el('a', 'rel-destination rel-destination-link', entity);
  link.href = urlForView({ ...emptyListView(), entity });
  link.dataset.entity = entity;
  link.title = `Browse every ${entity}`;
  return link;
}

function onDetailClick(event) {
  const copy = event.target.closest('button.copy-btn');
  if (copy && dom.detail.contains(copy)) {
    copyFrom(copy);
    return;
  }
  const link = event.target.closest('a.rel-item, a.rel-show-all, a.rel-destination-link');
  if (!link || !dom.detail.contains(link)) return;
  // Let the browser handle new-tab / new-window clicks on the real href.
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  // Enter on a link (a click with no pointer: detail 0) keeps focus in the pane the view moved to, instead of
  // letting it fall to the page when the link is replaced: the followed record's detail, or the list.
  const fromKeyboard = event.detail === 0;
  if (link.classList.contains('rel-show-all')) {
    showRelatedList(link.dataset.destination, link.dataset.relatedTo, link.dataset.via);
    if (fromKeyboard) dom.recordList.focus();
  } else if (link.classList.contains('rel-destination-link')) {
    actions.selectEntity(link.dataset.entity);
    if (fromKeyboard) dom.recordList.focus();
  } else {
    refocusDetail = fromKeyboard;
    openRelated(link.dataset.id, link.dataset.entity);
  }
}

/** Lists the destination's records restricted to what one record reaches through a relationship. */
function showRelatedList(destination, relatedTo, via) {
  actions.showList({ ...emptyListView(), entity: destination, limit: view.limit, relatedTo, via, id: view.id }, { detail: false });
}

/**
 * Follows a relationship to a record: its concrete entity is selected and the list opens on the page that
 * holds it (the server says at which offset it sits), so the record is always in view and selected.
 */
async function openRelated(id, entity) {
  const row = [...dom.recordList.children].find((li) => li.dataset.id === id);
  if (row) {
    setView({ ...view, id });
    commitView('push');
    markSelectedRecord().scrollIntoView({ block: 'nearest' });
    loadDetail();
    return;
  }
  let offset = 0;
  try {
    const position = await getJSON(apiPath(`/api/entities/${encodeURIComponent(entity)}/position`, { id, limit: view.limit }));
    offset = Number.isSafeInteger(position.pageOffset) ? position.pageOffset : 0;
  } catch (_) {
    offset = 0; // the detail pane then says what is wrong with the record
  }
  actions.showList({ ...emptyListView(), entity, limit: view.limit, offset, id });
}

export {
  loadDetail,
  onDetailClick,
};
