/*
 * CoreDataBrowser — Lab view: the selected record: loading it, the detail pane (attributes, "Name by", copy
 * buttons, relationships), the relationships sub-panel and following a relationship.
 */

import { ApiError, isAbort, restartFetch } from '../../shared/api.js';
import { recordJSON } from '../../shared/clipboard.js';
import { detailJumpBar, isEmptyValue, markEmpty, nameWithBreaks } from '../../shared/detail-sections.js';
import { el, focusWithin } from '../../shared/dom.js';
import { isLongValue, longValue } from '../../shared/long-value.js';
import { formatCount } from '../../shared/paging.js';
import { showPaneError, showPaneStatus } from '../../shared/pane-status.js';
import { displayChoices, displayName, setDisplayChoices } from '../../shared/record-names.js';
import { viewURL } from '../../shared/url.js';
import { isBinary } from '../../shared/values.js';
import { visibleText } from '../../shared/visible-text.js';
import * as content from '../../features/content/content.js';
import { actions } from './actions.js';
import { paintCell, recordAttributes } from './columns.js';
import { closeMenu } from './menus.js';
import { api, DETAIL_REL_PREVIEW, dom, inflight, isPlainObject, REL_PAGE, state } from './state.js';
import { syncControls } from './toolbar.js';

// ------------------------------------------------------------ Record: detail + sub-panels

/** After a relationship was followed from the keyboard: focus its pane's first item, else the pane's body. */
function refocusAfterFollow() {
  const pane = state.refocusPane;
  state.refocusPane = null;
  if (pane) focusWithin(pane.querySelector('.pane-body') || pane, ".rel-item[data-id], [data-id][tabindex='0']");
}

async function loadRecord() {
  const ctl = restartFetch(inflight, 'record');
  const id = state.selectedId;
  dom.exportBtn.disabled = !id;
  if (!id) {
    state.record = null;
    renderNoRecord();
    return;
  }
  const loading = (pane, stateEl, body) => {
    body.replaceChildren();
    showPaneStatus(pane, stateEl, 'loading', 'loading', 'Loading…');
  };
  loading(dom.paneDetail, dom.detailState, dom.detailContent);
  loading(dom.paneRel, dom.relState, dom.relList);
  loading(dom.paneContent, dom.contentState, dom.contentView);
  dom.paneDetail.dataset.id = id;
  // One visible Export button (the top bar's); this anchor only carries the download it clicks.
  dom.detailExport.href = api.exportURL(id);
  try {
    const record = await api.object(id, ctl.signal);
    if (!isPlainObject(record)) throw new ApiError('Unexpected /api/object answer', 0);
    state.record = record;
    renderDetail(record);
    renderRelationships(record);
    actions.renderContent(record);
    refocusAfterFollow();
  } catch (err) {
    if (isAbort(err)) return;
    state.record = null;
    for (const [pane, stateEl] of [[dom.paneDetail, dom.detailState], [dom.paneRel, dom.relState], [dom.paneContent, dom.contentState]]) {
      showPaneError(pane, stateEl, err);
    }
    dom.relSelect.replaceChildren();
    dom.relSelect.disabled = true;
    dom.contentSelect.replaceChildren();
    dom.contentSelect.disabled = true;
    dom.contentMeta.textContent = '';
  }
}

function renderNoRecord() {
  delete dom.paneDetail.dataset.id;
  dom.detailExport.removeAttribute('href');
  dom.detailContent.replaceChildren();
  dom.relList.replaceChildren();
  dom.contentView.replaceChildren();
  dom.relSelect.replaceChildren();
  dom.relSelect.disabled = true;
  dom.contentSelect.replaceChildren();
  dom.contentSelect.disabled = true;
  dom.contentMeta.textContent = '';
  showPaneStatus(dom.paneDetail, dom.detailState, 'empty', 'empty', 'Select a row to see its attributes and relationships.');
  showPaneStatus(dom.paneRel, dom.relState, 'empty', 'empty', 'Select a row to browse its relationships.');
  showPaneStatus(dom.paneContent, dom.contentState, 'empty', 'empty', "Select a row to view an attribute's content.");
}

function relatedItem(tag, className, item, destination) {
  const node = el(tag, className);
  node.dataset.id = String(item.id);
  node.dataset.entity = String(item.entity ?? destination ?? '');
  node.tabIndex = 0;
  node.setAttribute('role', 'link');
  node.title = visibleText(`Show ${item.summary} (${item.entity})`);
  node.append(el('span', 'name', item.summary ?? item.id));
  if (item.entity && item.entity !== destination) node.append(el('span', 'meta', item.entity));
  if (item.id === state.selectedId) node.classList.add('active');
  return node;
}

/** Where you are: the records followed to reach this one, each a way back to it. */
function renderBreadcrumb(record) {
  if (!state.trail.length) {
    dom.breadcrumb.hidden = true;
    dom.breadcrumb.replaceChildren();
    return;
  }
  const parts = [];
  for (const step of state.trail) {
    const button = el('button', null, `${step.entity}: ${step.summary ?? step.id}`);
    button.type = 'button';
    button.dataset.id = step.id;
    button.dataset.entity = step.entity;
    parts.push(button, el('span', 'sep', '›'));
  }
  parts.push(el('span', 'current', `${record.entity}: ${nameOf(record)}`));
  dom.breadcrumb.replaceChildren(...parts);
  dom.breadcrumb.hidden = false;
}

/** A record's name: the "Name by" attributes picked for its entity in this store (shared with the Inspector),
 *  else the server's summary. */
function nameOf(record) {
  return displayName(record.attrs, displayChoices(state.storeKey, record.entity), record.summary ?? record.id);
}

/** "Name by" for the record's entity: one or two String attributes (the same choice as the Inspector's). */
function nameByControls(record) {
  const strings = recordAttributes(record).filter((a) => a.type === 'String');
  const holder = el('div', 'detail-nameby');
  if (!strings.length) return holder;
  const chosen = displayChoices(state.storeKey, record.entity);
  const select = (id, label, options, value) => {
    const node = el('select', 'pane-select');
    node.id = id;
    node.setAttribute('aria-label', label);
    for (const [optionValue, text] of options) {
      const option = el('option', null, text);
      option.value = optionValue;
      node.append(option);
    }
    node.value = value;
    return node;
  };
  const first = select('detail-name-by', 'Name records by', [['', 'Name: default'], ...strings.map((a) => [a.name, `Name: ${a.name}`])], chosen[0] || '');
  const second = select('detail-name-by-2', 'And name records by',
    [['', '+ (nothing)'], ...strings.filter((a) => a.name !== chosen[0]).map((a) => [a.name, `+ ${a.name}`])], chosen[1] || '');
  second.hidden = !chosen[0];
  const changed = () => {
    setDisplayChoices(state.storeKey, record.entity, [first.value, first.value ? second.value : '']);
    renderDetail(record);
  };
  first.addEventListener('change', changed);
  second.addEventListener('change', changed);
  holder.append(first, second);
  return holder;
}

/** A button that copies `text` when clicked (shared.js copyFrom marks whether it worked). */
function copyButton(id, label, text, title) {
  const button = el('button', 'copy-btn', label);
  button.type = 'button';
  if (id) button.id = id;
  button.dataset.copy = text;
  button.title = visibleText(title);
  return button;
}

function renderDetail(record) {
  renderBreadcrumb(record);
  const frag = document.createDocumentFragment();
  frag.append(nameByControls(record));
  frag.append(el('h2', 'detail-heading', nameOf(record)));
  frag.append(el('p', 'detail-id', `${record.entity} · ${record.id}`));
  // Copying from the detail pane: the object ID, the record as JSON (the same text as the grid's menu and the
  // Inspector's buttons), and each value with the button beside it.
  const copies = el('div', 'detail-copy');
  copies.append(copyButton('detail-copy-id', 'Copy ID', String(record.id), 'Copy the object ID'),
    copyButton('detail-copy-json', 'Copy as JSON', recordJSON(record), "Copy the record's attributes as JSON"));
  frag.append(copies);

  const attributes = recordAttributes(record);
  const values = isPlainObject(record.attrs) ? record.attrs : {};
  const attrHeading = el('h3', 'detail-section', `Attributes (${attributes.length})`);
  attrHeading.dataset.section = 'attributes';
  frag.append(attrHeading);
  const list = el('dl', 'attr-list');
  let emptyCount = 0;
  for (const attr of attributes) {
    const row = el('div', 'attr-row');
    row.dataset.attr = attr.name;
    markEmpty(row, isEmptyValue(values[attr.name]));
    if (isEmptyValue(values[attr.name])) emptyCount += 1;
    // The whole name, wrapping between its words: two names sharing a long prefix never look the same.
    const dt = el('dt');
    dt.append(nameWithBreaks(attr.name));
    dt.title = visibleText(attr.name);
    if (attr.type) dt.append(el('span', 'attr-type', attr.type));
    const dd = el('dd');
    if (isLongValue(values[attr.name])) {
      // A few lines, the length and "Show all" (the content viewer below shows it whole too).
      dd.classList.add('has-long-value');
      dd.append(longValue(values[attr.name], (text) => el('span', null, text)));
    } else {
      paintCell(dd, values[attr.name], attr.type);
    }
    if (isBinary(values[attr.name])) content.lazySummary(dd, String(record.id), attr.name);
    else content.markURL(dd, values[attr.name], attr.type);
    const link = content.webLink(values[attr.name]);
    if (link) dd.append(' ', link);
    row.append(dt, dd);
    const value = values[attr.name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      // The stored value (a date's ISO text, a big integer's digits), never the rendering.
      const copy = copyButton(null, '⧉', String(value), `Copy ${attr.name}`);
      copy.classList.add('copy-value');
      copy.setAttribute('aria-label', `Copy ${attr.name}`);
      row.append(copy);
    }
    list.append(row);
  }
  frag.append(list);

  const relationships = Array.isArray(record.relationships) ? record.relationships : [];
  const relHeading = el('h3', 'detail-section', `Relationships (${relationships.length})`);
  relHeading.dataset.section = 'relationships';
  frag.append(relHeading);
  for (const rel of relationships) {
    const card = el('div', 'rel-card');
    card.dataset.rel = rel.name;
    markEmpty(card, rel.count === 0);
    if (rel.count === 0) emptyCount += 1;
    const head = el('div', 'rel-card-head');
    // The destination is a link to its list, as in the Inspector.
    const destination = el('a', 'rel-destination-link', rel.destination);
    destination.href = viewURL('/lab', new URLSearchParams({ entity: rel.destination }));
    destination.dataset.entity = rel.destination;
    destination.title = visibleText(`Browse every ${rel.destination}`);
    const dest = el('span', 'rel-dest', '→ ');
    dest.append(destination, rel.toMany ? (rel.ordered ? ' · ordered to-many' : ' · to-many') : ' · to-one');
    head.append(el('span', 'rel-name', rel.name), dest, el('span', 'count', formatCount(rel.count)));
    card.append(head);
    const items = Array.isArray(rel.items) ? rel.items : [];
    for (const item of items.slice(0, DETAIL_REL_PREVIEW)) card.append(relatedItem('div', 'rel-item', item, rel.destination));
    if (!items.length) card.append(el('div', 'rel-none', rel.toMany ? 'No related records' : 'None'));
    else if (rel.count > Math.min(items.length, DETAIL_REL_PREVIEW)) {
      const more = el('button', 'rel-more', `+ ${(rel.count - Math.min(items.length, DETAIL_REL_PREVIEW)).toLocaleString()} more · show all in the grid`);
      more.type = 'button';
      more.dataset.rel = rel.name;
      card.append(more);
    }
    frag.append(card);
  }
  if (!relationships.length) frag.append(el('div', 'rel-none', 'This entity has no relationships.'));
  frag.insertBefore(detailJumpBar(dom.detailContent, [{ id: 'attributes', label: 'Attributes', count: attributes.length },
    { id: 'relationships', label: 'Relationships', count: relationships.length }], emptyCount), attrHeading);
  dom.detailContent.replaceChildren(frag);
  showPaneStatus(dom.paneDetail, dom.detailState, 'ready');
}

function renderRelationships(record) {
  const relationships = Array.isArray(record.relationships) ? record.relationships : [];
  const options = relationships.map((rel) => {
    const option = el('option', null, `${rel.name} → ${rel.destination} (${formatCount(rel.count)})`);
    option.value = rel.name;
    return option;
  });
  dom.relSelect.replaceChildren(...options);
  dom.relSelect.disabled = !relationships.length;
  if (!relationships.length) {
    dom.relList.replaceChildren();
    showPaneStatus(dom.paneRel, dom.relState, 'empty', 'empty', `${record.entity} has no relationships.`);
    return;
  }
  const remembered = state.relChoice.get(record.entity);
  const chosen = relationships.some((r) => r.name === remembered) ? remembered : relationships[0].name;
  dom.relSelect.value = chosen;
  renderRelationshipItems();
}

function renderRelationshipItems() {
  const record = state.record;
  if (!record) return;
  const rel = (record.relationships || []).find((r) => r.name === dom.relSelect.value);
  if (!rel) return;
  if (!state.relShown || state.relShown.id !== record.id || state.relShown.rel !== rel.name) {
    state.relShown = { id: record.id, rel: rel.name, items: Array.isArray(rel.items) ? [...rel.items] : [] };
  }
  const items = state.relShown.items;
  const frag = document.createDocumentFragment();
  for (const item of items) frag.append(relatedItem('li', null, item, rel.destination));
  dom.relList.replaceChildren(frag);
  // Every to-many can be paged to its end here, or opened in the grid (sorted, searched, paged like any list).
  dom.relActions.hidden = !(rel.toMany && rel.count > 0);
  dom.relLoadMore.hidden = items.length >= rel.count;
  dom.relLoadMore.textContent = `Load ${Math.min(REL_PAGE, rel.count - items.length).toLocaleString()} more`;
  dom.relShowAll.textContent = `Show all ${rel.count.toLocaleString()} in the grid`;
  if (!items.length) {
    showPaneStatus(dom.paneRel, dom.relState, 'empty', 'empty', rel.toMany ? `No related ${rel.destination} records.` : `No ${rel.name}.`);
  } else if (rel.count > items.length) {
    showPaneStatus(dom.paneRel, dom.relState, 'ready');
    dom.relState.textContent = `Showing ${items.length.toLocaleString()} of ${rel.count.toLocaleString()}.`;
  } else {
    showPaneStatus(dom.paneRel, dom.relState, 'ready');
  }
}

/** Appends the next page of the shown relationship (GET /api/object/related). */
async function loadMoreRelated() {
  const shown = state.relShown;
  const record = state.record;
  if (!shown || !record) return;
  const ctl = restartFetch(inflight, 'related');
  dom.relLoadMore.disabled = true;
  try {
    const page = await api.related(record.id, shown.rel, shown.items.length, REL_PAGE, ctl.signal);
    if (state.relShown !== shown) return;
    for (const row of Array.isArray(page.rows) ? page.rows : []) {
      shown.items.push({ id: row.id, entity: row.entity, summary: row.summary });
    }
    renderRelationshipItems();
  } catch (err) {
    if (isAbort(err)) return;
    showPaneError(dom.paneRel, dom.relState, err);
  } finally {
    dom.relLoadMore.disabled = false;
  }
}

/** Lists the shown relationship's records in the grid, with a removable "related to" chip. */
function showRelatedInGrid() {
  const record = state.record;
  const rel = record && (record.relationships || []).find((r) => r.name === dom.relSelect.value);
  if (!rel) return;
  closeMenu();
  if (rel.destination !== state.entity) actions.setGridEntity(rel.destination);
  Object.assign(state, { sort: null, order: 'asc', search: '', searchAttr: '', where: '', offset: 0, relatedTo: record.id, via: rel.name });
  syncControls();
  actions.syncURL('push');
  actions.loadGrid();
}

/**
 * Follows a relationship to a record: its concrete entity's grid opens at the page that holds it (the server
 * says at which offset it sits), and the record is selected there.
 */
async function openRecord(id, entity) {
  // The breadcrumb: the record being left is added, unless the user goes back to one already on it.
  const back = state.trail.findIndex((step) => step.id === id);
  if (back >= 0) state.trail = state.trail.slice(0, back);
  else if (state.record) state.trail.push({ id: state.record.id, entity: state.record.entity, summary: state.record.summary });
  if (state.rowById.has(id) || !entity) {
    actions.selectRecord(id, { scroll: true, keepTrail: true });
    return;
  }
  let offset = 0;
  try {
    const position = await api.position(entity, id, state.limit);
    offset = Number.isSafeInteger(position.pageOffset) ? position.pageOffset : 0;
  } catch (err) {
    if (isAbort(err)) return;
    offset = 0; // the detail pane says what is wrong with the record
  }
  closeMenu();
  actions.setGridEntity(entity);
  Object.assign(state, { sort: null, order: 'asc', search: '', searchAttr: '', where: '', offset, relatedTo: '', via: '', selectedId: id });
  syncControls();
  actions.syncURL('push');
  actions.loadGrid();
  loadRecord();
}

export {
  loadMoreRelated,
  loadRecord,
  nameOf,
  openRecord,
  renderDetail,
  renderNoRecord,
  renderRelationshipItems,
  showRelatedInGrid,
};
