/*
 * CoreDataBrowser — Lab view: the content pane (one attribute's value, whole), the dates' zone, and the
 * record panes' events.
 */

import { copyFrom } from '../../shared/clipboard.js';
import { repaintDates } from '../../shared/dates.js';
import { el } from '../../shared/dom.js';
import { formatCount } from '../../shared/paging.js';
import { showPaneStatus } from '../../shared/pane-status.js';
import { isBinary } from '../../shared/values.js';
import * as content from '../../features/content/content.js';
import { paintCell, recordAttributes } from './columns.js';
import { parseStructuredJSON, renderJSONInto } from './json-view.js';
import { loadMoreRelated, openRecord, renderRelationshipItems, showRelatedInGrid } from './record-detail.js';
import { selectEntity } from './sidebar.js';
import { NUMERIC_TYPES, dom, isPlainObject, shortType, state } from './state.js';

function renderContent(record) {
  const attributes = recordAttributes(record);
  const options = attributes.map((attr) => {
    const option = el('option', null, attr.type ? `${attr.name} · ${shortType(attr.type)}` : attr.name);
    option.value = attr.name;
    return option;
  });
  dom.contentSelect.replaceChildren(...options);
  dom.contentSelect.disabled = !attributes.length;
  if (!attributes.length) {
    dom.contentView.replaceChildren();
    dom.contentMeta.textContent = '';
    showPaneStatus(dom.paneContent, dom.contentState, 'empty', 'empty', `${record.entity} has no attributes.`);
    return;
  }
  const remembered = state.contentChoice.get(record.entity);
  dom.contentSelect.value = attributes.some((a) => a.name === remembered) ? remembered : attributes[0].name;
  renderContentValue();
}

function renderContentValue() {
  const record = state.record;
  if (!record) return;
  const name = dom.contentSelect.value;
  const attr = recordAttributes(record).find((a) => a.name === name);
  if (!attr) return;
  const value = isPlainObject(record.attrs) ? record.attrs[name] : undefined;
  const view = dom.contentView;
  view.replaceChildren();
  view.dataset.attr = name;
  let meta = attr.type;

  const asJSON = typeof value === 'string' && !NUMERIC_TYPES.has(attr.type) ? parseStructuredJSON(value) : null;
  if (asJSON) {
    const pre = el('pre', 'cv-json');
    renderJSONInto(pre, value, asJSON);
    view.append(pre);
    meta = `${attr.type} · JSON · ${formatCount(value.length)} chars`;
  } else if (typeof value === 'string' && (attr.type === 'String' || attr.type === 'URI' || !attr.type)) {
    const pre = el('pre', 'cv-text', value);
    view.append(pre);
    if (value === '') view.append(el('div', 'cv-note', '(empty string)'));
    meta = `${attr.type || 'text'} · ${formatCount(value.length)} chars`;
  } else {
    const box = el('div', 'cv-value');
    paintCell(box, value, attr.type);
    view.append(box);
    if (isBinary(value)) {
      // What is inside: the kind's viewer, a hex view paged with Range requests, and a download.
      view.replaceChildren(content.viewer(String(record.id), name, Number.isFinite(value.bytes) ? value.bytes : 0));
      meta = `${attr.type}${attr.transformer ? ` (${attr.transformer})` : ''} · ${formatCount(value.bytes)} bytes`;
    }
  }
  dom.contentMeta.textContent = meta;
  showPaneStatus(dom.paneContent, dom.contentState, 'ready');
}

/** The "Dates" choice changed (here or in another tab): the dates on screen are redrawn, nothing is fetched. */
function onDateZoneChange(zone) {
  state.dateZone = zone;
  repaintDates(dom.layout, zone);
}

function focusDetail() {
  if (dom.paneDetail.dataset.state === 'ready') dom.detailBody.focus();
}

function onRelatedActivate(event) {
  const more = event.target.closest('button.rel-more[data-rel]');
  if (more && event.type === 'click') {
    dom.relSelect.value = more.dataset.rel;
    renderRelationshipItems();
    showRelatedInGrid();
    return;
  }
  // Only an item inside the list or the detail: the detail pane itself carries the record's data-id, and a click on
  // a control of its own (a checkbox, a menu) must keep its default action.
  const item = event.target.closest('[data-id]');
  if (!item || !event.currentTarget.contains(item) || item === event.currentTarget) return;
  if (event.type === 'keydown' && event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
  // From the keyboard, focus stays in the pane the item was in once it shows the followed record (the item
  // itself is replaced), instead of falling back to the page.
  if (event.type === 'keydown') state.refocusPane = item.closest('.pane');
  openRecord(item.dataset.id, item.dataset.entity);
}

function wireRecordPanes() {
  dom.relLoadMore.addEventListener('click', loadMoreRelated);
  dom.breadcrumb.addEventListener('click', (event) => {
    const step = event.target.closest('button[data-id]');
    if (step) openRecord(step.dataset.id, step.dataset.entity);
  });
  document.getElementById('nav-back').addEventListener('click', () => window.history.back());
  document.getElementById('nav-forward').addEventListener('click', () => window.history.forward());
  dom.relShowAll.addEventListener('click', showRelatedInGrid);
  dom.relSelect.addEventListener('change', () => {
    if (state.record) state.relChoice.set(state.record.entity, dom.relSelect.value);
    renderRelationshipItems();
  });
  dom.contentSelect.addEventListener('change', () => {
    if (state.record) state.contentChoice.set(state.record.entity, dom.contentSelect.value);
    renderContentValue();
  });
  dom.detailContent.addEventListener('click', (event) => {
    const copy = event.target.closest('button.copy-btn[data-copy]');
    if (copy) copyFrom(copy);
    const destination = event.target.closest('a.rel-destination-link');
    // A plain click shows the destination's list here; with a modifier the browser opens the link.
    if (!destination || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    selectEntity(destination.dataset.entity);
    if (event.detail === 0) dom.gridScroll.focus(); // from the keyboard: focus goes with the view
  });
  for (const container of [dom.relList, dom.detailContent]) {
    container.addEventListener('click', onRelatedActivate);
    container.addEventListener('keydown', onRelatedActivate);
  }
}

export {
  focusDetail,
  onDateZoneChange,
  renderContent,
  wireRecordPanes,
};
