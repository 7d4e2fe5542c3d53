/*
 * CoreDataBrowser — facets for both views: what one attribute holds in the list
 * on screen — its most frequent values with counts, nil, the rest, notes, and for numbers and dates a histogram
 * drawn here as SVG (no library). Clicking a value (or a bar: its range) ANDs the condition to the filter.
 *
 * A native ES module: what it exports is listed here.
 *
 * API (docs/API.md): GET /api/entities/:name/facets?attr=&<the list's parameters> →
 *   {total, nulls, distinct, distinctExact, top:[{value, count}], others, min, max, histogram:[{from, to, count}],
 *    sampled, cut, notes} — with cut (total | values | range | records) what was not counted is null
 *
 *   open(attr, anchor)   opens the panel for an attribute of the list predicate.js describe() gives
 *   defaultFacetAttribute(attributes, sort)  the attribute the Facets button opens on (a group, not an identifier)
 *
 * Elements: #facet-panel (role=dialog; data-state = loading | ready | error; data-attr; data-cut when the answer was
 * cut at its time limit) with select.fc-attr,
 * .fc-summary, button.fc-value[data-count] (.fc-value-text, .fc-count; data-nil for nil), .fc-others,
 * svg.fc-histogram > rect.fc-bar[data-from][data-to][data-count] (role=button, focusable), .fc-notes > li,
 * .fc-error, button.fc-close.
 */

import { apiPath, getJSON } from '../../shared/api.js';
import { formatDate, readDateZone } from '../../shared/dates.js';
import { deferredPanel, el } from '../../shared/dom.js';
import { formatCount } from '../../shared/paging.js';
import { formatBytes, isCutText } from '../../shared/values.js';
import * as predicate from '../predicate/predicate.js';

const SVG = 'http://www.w3.org/2000/svg';
const OPAQUE = new Set(['Binary', 'Transformable', 'Undefined', 'ObjectID']);
const INTEGER_TYPES = new Set(['Integer 16', 'Integer 32', 'Integer 64']);
let panel = null;
let inflight = null;

const svg = (tag, attrs) => {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  return node;
};

const shell = deferredPanel('facet-panel', 'facet-panel', 'Facets', () => { if (inflight) inflight.abort(); });
const close = () => shell.close();

/** A value as the facet lists it: dates in the chosen zone, "" visible, a long text cut with its size, the rest as text. */
function shown(value, type) {
  if (isCutText(value)) return `${value.preview}… (${formatBytes(value.bytes)})`;
  if (type === 'Date') {
    const date = formatDate(value, readDateZone());
    if (date) return date.text;
  }
  if (value === '') return '"" (empty)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function pick(node) {
  close();
  predicate.addCondition(node);
}

/** The condition of a histogram bar: from <= v < to (the last bar includes its end). */
function rangeNode(attr, type, bucket, last) {
  if (INTEGER_TYPES.has(type)) {
    const high = last ? bucket.to : bucket.to - 1;
    return { keyPath: attr, op: 'BETWEEN', values: [bucket.from, high] };
  }
  if (last) return { keyPath: attr, op: 'BETWEEN', values: [bucket.from, bucket.to] };
  return { all: [{ keyPath: attr, op: '>=', value: bucket.from }, { keyPath: attr, op: '<', value: bucket.to }] };
}

function histogram(attr, type, buckets) {
  const width = 440;
  const height = 80;
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const step = width / buckets.length;
  const chart = svg('svg', { class: 'fc-histogram', viewBox: `0 0 ${width} ${height + 4}`, role: 'group', 'aria-label': `Histogram of ${attr}` });
  buckets.forEach((bucket, index) => {
    const h = bucket.count ? Math.max(2, Math.round((bucket.count / max) * height)) : 0;
    const last = index === buckets.length - 1;
    const label = `${shown(bucket.from, type)} – ${shown(bucket.to, type)}${last ? ' (inclusive)' : ''}: ${formatCount(bucket.count)}`;
    const hit = svg('rect', { class: 'fc-bar', x: index * step + 1, y: height - h, width: Math.max(1, step - 2), height: Math.max(h, 0),
      'data-from': bucket.from, 'data-to': bucket.to, 'data-count': bucket.count, role: 'button', tabindex: bucket.count ? 0 : -1, 'aria-label': label });
    const title = svg('title');
    title.textContent = label;
    hit.append(title);
    // A thin full-height target under each bar, so small counts are easy to click.
    const target = svg('rect', { class: 'fc-bar-target', x: index * step, y: 0, width: step, height, 'aria-hidden': 'true' });
    const choose = () => { if (bucket.count) pick(rangeNode(attr, type, bucket, last)); };
    hit.addEventListener('click', choose);
    target.addEventListener('click', choose);
    hit.addEventListener('keydown', (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); choose(); } });
    chart.append(target, hit);
  });
  chart.append(svg('line', { class: 'fc-axis', x1: 0, y1: height + 0.5, x2: width, y2: height + 0.5 }));
  const box = el('div', 'fc-chart');
  const axis = el('div', 'fc-axis-labels');
  axis.append(el('span', null, shown(buckets[0].from, type)), el('span', null, shown(buckets[buckets.length - 1].to, type)));
  box.append(chart, axis);
  return box;
}

function render(body, answer, attr, type) {
  const parts = [];
  // A facet cut at its time limit (answer.cut) sends null for what it did not count: the summary says only what it has.
  const summary = [answer.total == null ? 'not counted' : `${formatCount(answer.total)} records`];
  if (answer.nulls != null) summary.push(`${formatCount(answer.nulls)} nil`);
  if (answer.distinct != null) summary.push(`${formatCount(answer.distinct)}${answer.distinctExact ? '' : '+'} distinct`);
  parts.push(el('p', 'fc-summary', summary.join(' · ')));
  if (answer.cut) panel.dataset.cut = answer.cut;
  else delete panel.dataset.cut;
  const max = Math.max(1, answer.nulls || 0, ...answer.top.map((t) => t.count));
  const list = el('div', 'fc-values');
  const row = (label, count, node, extra) => {
    const item = el('button', 'fc-value');
    item.type = 'button';
    item.dataset.count = String(count);
    const bar = el('span', 'fc-bar-fill');
    bar.style.width = `${Math.round((count / max) * 100)}%`;
    item.append(bar, el('span', 'fc-value-text', label), el('span', 'fc-count', formatCount(count)));
    item.title = `Filter: ${predicate.formatTree(node, () => type)}`;
    if (extra) Object.assign(item.dataset, extra);
    item.addEventListener('click', () => pick(node));
    return item;
  };
  // A long text comes cut: its records are those whose value starts with what was sent.
  const condition = (value) => (isCutText(value)
    ? { keyPath: attr, op: 'BEGINSWITH', value: value.preview } : { keyPath: attr, op: '==', value });
  for (const entry of answer.top) list.append(row(shown(entry.value, type), entry.count, condition(entry.value)));
  if (answer.nulls) list.append(row('nil', answer.nulls, { keyPath: attr, op: '==', value: null }, { nil: 'true' }));
  parts.push(list);
  if (answer.others) parts.push(el('p', 'fc-others', `${formatCount(answer.others)} records hold other values`));
  if (Array.isArray(answer.histogram) && answer.histogram.length) {
    parts.push(el('p', 'fc-label', `Histogram · ${shown(answer.min, type)} to ${shown(answer.max, type)} · click a bar to filter its range`));
    parts.push(histogram(attr, type, answer.histogram));
  }
  const notes = [...(answer.notes || [])];
  if (notes.length) {
    const ul = el('ul', 'fc-notes');
    for (const note of notes) ul.append(el('li', null, note));
    parts.push(ul);
  }
  body.replaceChildren(...parts);
}

async function load(attr) {
  const view = predicate.describe();
  const entity = (predicate.fieldsOf(view.entity) || []).find((f) => f.key === attr && !f.relationship);
  const type = entity ? entity.type : '';
  panel.dataset.attr = attr;
  panel.dataset.state = 'loading';
  const body = panel.querySelector('.fc-body');
  body.replaceChildren(el('p', 'fc-note', 'Counting…'));
  if (inflight) inflight.abort();
  const controller = new AbortController();
  inflight = controller;
  const { limit, offset, sort, order, ...params } = view.params || {};
  try {
    const answer = await getJSON(apiPath(`/api/entities/${encodeURIComponent(view.entity)}/facets`, { ...params, where: view.where, attr }), controller.signal);
    if (controller.signal.aborted) return;
    render(body, answer, attr, type);
    panel.dataset.state = 'ready';
    // Kept inside the window once its height is known.
    panel.style.top = `${Math.max(8, Math.min(parseFloat(panel.style.top), window.innerHeight - panel.offsetHeight - 8))}px`;
  } catch (err) {
    if (err.name === 'AbortError') return;
    panel.dataset.state = 'error';
    body.replaceChildren(el('p', 'fc-error', `Cannot count ${attr}: ${err.message}`));
  }
}

function open(attr, anchor) {
  const view = predicate.describe();
  if (!view || !view.entity) return;
  panel = shell.node();
  const fields = predicate.fieldsOf(view.entity).filter((f) => !f.relationship && f.type !== 'record' && !OPAQUE.has(f.type));
  const head = el('div', 'fc-head');
  const choice = el('select', 'fc-attr');
  choice.setAttribute('aria-label', 'Attribute');
  for (const f of fields) {
    const option = el('option', null, f.key);
    option.value = f.key;
    choice.append(option);
  }
  choice.value = attr;
  choice.addEventListener('change', () => load(choice.value));
  const closer = el('button', 'fc-close', '×');
  closer.type = 'button';
  closer.setAttribute('aria-label', 'Close the facets');
  closer.addEventListener('click', close);
  head.append(el('h2', 'fc-title', `Facets · ${view.entity}`), choice, closer);
  panel.replaceChildren(head, el('div', 'fc-body'));
  const rect = anchor && anchor.getBoundingClientRect ? anchor.getBoundingClientRect() : { left: 100, bottom: 100 };
  const width = Math.min(500, window.innerWidth - 16);
  panel.style.width = `${width}px`;
  panel.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - width - 8))}px`;
  panel.style.top = `${Math.max(8, Math.min(rect.bottom + 4, window.innerHeight - 420))}px`;
  shell.show(anchor);
  choice.focus();
  load(attr);
}

/** Whether the attribute can be faceted (bytes cannot). */
function facetable(type) {
  return Boolean(type) && !OPAQUE.has(type);
}

// Names of values that are one per record (identifiers, keys, links): their facet is a list of 1s.
const IDENTIFYING = /^(id|uuid|key|token)$|identifier$|uuid$|[a-z](Id|ID)$|hash$|token$|url$|URL$/;
// Names of values that sort records into a few groups.
const CATEGORICAL = /status|state|type|kind|category|genre|language|country|format|group|level|code|currency|context|role|mode/i;

/** How worth faceting an attribute is when nothing says which: groups first, identifiers and free text last. */
function facetWorth({ name, type }) {
  if (!facetable(type)) return -Infinity;
  if (type === 'UUID' || type === 'URI' || IDENTIFYING.test(name)) return -10;
  if (type === 'String') return CATEGORICAL.test(name) ? 6 : 2;
  if (type === 'Boolean') return 5;
  if (type === 'Integer 16') return 4;
  return 1;
}

/**
 * The attribute the Facets button opens on: the list's sort attribute when it is worth faceting, else the most
 * worth faceting (schema order breaks ties), so a UUID that sorts first by name is not what a person sees first.
 */
function defaultFacetAttribute(attributes, sort) {
  const sorted = attributes.find((a) => a.name === sort);
  if (sorted && facetWorth(sorted) > 0) return sorted;
  let best = null;
  for (const attribute of attributes) if (facetWorth(attribute) > (best ? facetWorth(best) : -Infinity)) best = attribute;
  return best && facetWorth(best) > -Infinity ? best : null;
}

document.addEventListener('pointerdown', (event) => {
  if (panel && !panel.hidden && !panel.contains(event.target) && !event.target.closest('[data-opens-facets]')) close();
});

export {
  open,
  facetable,
  defaultFacetAttribute,
};
