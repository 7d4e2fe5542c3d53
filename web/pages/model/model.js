/*
 * CoreDataBrowser — Model view (/model): the store's model as a diagram:
 * the page's module (model.html loads it, then versions.js), built from layout.js, drawing.js,
 * details.js and export.js.
 *
 * API (docs/API.md): GET /api/model, GET /api/health.
 *
 *   Diagram   #model-svg > #model-viewport: g.entity[data-entity] (rect.entity-box with x/y/width/height, its name
 *             as a link to the Inspector's list, its record count, one text.attribute per attribute shown), then
 *             g.edge[data-kind=relationship|inheritance][data-from][data-to] holding a polyline (or a path for an
 *             entity related to itself) whose ends lie on the two boxes' borders, and its labels (text.edge-label:
 *             a name and tspan.cardinality at an end, text.edge-count "×3" on a bundled line; drawing.js).
 *             All the relationships between two entities are one edge (data-count); a relationship without
 *             inverse alone on its edge has an arrow and data-inverse="none". g.edge-hits, beneath, holds the
 *             wider invisible lines that take clicks.
 *   Controls  #model-search (find and centre an entity), #model-focus + #model-hops (an entity and its
 *             neighbours within N hops), #model-attributes (boxes with or without attributes), zoom buttons,
 *             wheel zoom and drag to pan (it opens at a readable zoom, centred on the hub when the whole does not
             fit at it; #zoom-fit and the 0 key show the whole), #export-svg / #export-png. URL: /model?focus=Book&hops=2&attributes=0;
 *             ?version=<name> draws another version of a versioned model file (versions.js links to it).
 *   Details   clicking a box, or Enter on it (boxes are in the Tab order), selects it (#model-details lists
 *             everything /api/model says about it); clicking a relationship line or its label lists the
 *             relationships it stands for. Keys on the canvas: + and − zoom, 0 fits, arrows pan.
 *   State     document.body.dataset.modelState = loading | ready | error; dataset.layoutMs = the last drawing's
 *             time in milliseconds (performance.now around measuring the text, layout and routing, and building
 *             the SVG), what the browser tests report; dataset.labelMs = the part of it spent placing labels.
 *
 * Drawn with SVG presentation attributes (fill, stroke, font) rather than classes, so the exported SVG carries its
 * styles inline and opens the same anywhere; the page's CSS only adds hover and selection highlights.
 */

import { apiPath, getJSON } from '../../shared/api.js';
import { byId, el } from '../../shared/dom.js';
import { showModelLine } from '../../shared/model-line.js';
import { viewURL } from '../../shared/url.js';
import { show as showDetails, showLine } from './details.js';
import {
  svg, colours, round, boxContent, course, obstacles, drawBox, drawEdge, drawHit, edgeLabels, labelWidth, drawLabel,
  Space, endCandidates, alongCandidates, loopCandidates, PORT_ROOM, PORT_INSET, READABLE_SCALE,
} from './drawing.js';
import { exportSVG as saveSVG, exportPNG as savePNG } from './export.js';
import { layout } from './layout.js';

const dom = {
  svg: byId('model-svg'),
  viewport: byId('model-viewport'),
  canvas: byId('model-canvas'),
  details: byId('model-details'),
  status: byId('model-status'),
  search: byId('model-search'),
  names: byId('model-entity-names'),
  focus: byId('model-focus'),
  hops: byId('model-hops'),
  attributes: byId('model-attributes'),
};

/** Space around the diagram. */
const MARGIN = 40;

let model = null;
let entities = new Map();
let drawn = null; // { boxes, width, height }
let selected = null;
const view = { x: 0, y: 0, k: 1 };

function setState(state, message) {
  document.body.dataset.modelState = state;
  dom.status.textContent = message || '';
  dom.status.dataset.state = state;
}

// ---------------------------------------------------------------------------------------------
// The model as a graph
// ---------------------------------------------------------------------------------------------

/** The entity that declares `name` among `entity` and its ancestors (a relationship may be inherited). */
function declaring(entityName, relationshipName) {
  let current = entities.get(entityName);
  const seen = new Set();
  while (current && !seen.has(current.name)) {
    seen.add(current.name);
    const found = current.relationships.find((r) => r.name === relationshipName);
    if (found) return { entity: current, relationship: found };
    current = current.parent ? entities.get(current.parent) : null;
  }
  return null;
}

/**
 * Relationship edges and inheritance edges, in a fixed order. A relationship edge is one line for every
 * relationship between the same two entities, `members` = [{from, to, forward, backward}] (an inverse pair once):
 * a real model relates two entities in several ways (a person's faces, key face, rejected faces), and one line per
 * relationship drew dozens of parallel lines whose labels printed over each other.
 */
function graphEdges() {
  const edges = [];
  const lines = new Map();
  const paired = new Set();
  for (const entity of model.entities) {
    for (const relationship of entity.relationships) {
      const key = `${entity.name}.${relationship.name}`;
      if (paired.has(key) || !entities.has(relationship.destination)) continue;
      const inverse = relationship.inverse ? declaring(relationship.destination, relationship.inverse) : null;
      if (inverse) paired.add(`${inverse.entity.name}.${inverse.relationship.name}`);
      // The destination's box, even when the inverse is declared on a parent of it (inherited).
      const member = { from: entity.name, to: relationship.destination, forward: relationship, backward: inverse ? inverse.relationship : null };
      const pair = [member.from, member.to].sort().join('\u0000');
      if (!lines.has(pair)) {
        const line = { kind: 'relationship', from: member.from, to: member.to, members: [] };
        lines.set(pair, line);
        edges.push(line);
      }
      lines.get(pair).members.push(member);
    }
    if (entity.parent && entities.has(entity.parent)) {
      edges.push({ kind: 'inheritance', from: entity.name, to: entity.parent });
    }
  }
  return edges;
}

/** The entities within `hops` of `name` (relationships and inheritance both count as one hop). */
function neighbourhood(name, hops, edges) {
  const around = new Map();
  for (const edge of edges) {
    if (!around.has(edge.from)) around.set(edge.from, new Set());
    if (!around.has(edge.to)) around.set(edge.to, new Set());
    around.get(edge.from).add(edge.to);
    around.get(edge.to).add(edge.from);
  }
  const reached = new Set([name]);
  let frontier = [name];
  for (let step = 0; step < hops; step += 1) {
    const next = [];
    for (const id of frontier) {
      for (const other of around.get(id) || []) {
        if (!reached.has(other)) {
          reached.add(other);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  return reached;
}

// ---------------------------------------------------------------------------------------------
// Drawing, panning and zooming
// ---------------------------------------------------------------------------------------------

function options() {
  return {
    focus: dom.focus.value,
    hops: Number(dom.hops.value) || 1,
    attributes: dom.attributes.checked,
  };
}

function writeURL() {
  const chosen = options();
  const path = viewURL('/model', {
    version: new URLSearchParams(window.location.search).get('version'),
    focus: chosen.focus, hops: chosen.focus ? chosen.hops : '', attributes: chosen.attributes ? '' : '0',
  });
  window.history.replaceState(null, '', path);
}

function draw() {
  const chosen = options();
  const allEdges = graphEdges();
  const shown = chosen.focus && entities.has(chosen.focus)
    ? neighbourhood(chosen.focus, chosen.hops, allEdges)
    : new Set(entities.keys());
  const edges = allEdges.filter((edge) => shown.has(edge.from) && shown.has(edge.to));
  // Timed: what a user waits for between asking and seeing the diagram — measuring the boxes' text, the layout
  // and routing, building the SVG (the browser's own paint of it afterwards is not included).
  const started = performance.now();
  const contents = new Map();
  for (const name of shown) contents.set(name, boxContent(entities.get(name), chosen.attributes));
  // A box is at least as wide as its line ends need to be PORT_ROOM apart: the router spreads a side's ends over
  // the box's width, and a hub's 37 ends squeezed under a 250 px box left no room between two lines for the label
  // of either (28 of a 65-entity model's 96 ends went unlabelled). Counted over every line of the box, a bound on
  // any one side's.
  const ends = new Map();
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    for (const name of [edge.from, edge.to]) ends.set(name, (ends.get(name) || 0) + 1);
  }
  for (const [name, content] of contents) {
    content.width = Math.max(content.width, Math.ceil((ends.get(name) || 0) * PORT_ROOM + PORT_INSET));
  }

  const result = layout(
    [...contents].map(([id, content]) => ({ id, width: content.width, height: content.height })),
    // Not the window's width: the same model gives the same picture in any window (and in an export).
    edges.map((edge) => ({ from: edge.from, to: edge.to })),
    { maxWidth: 900 });

  const boxes = new Map();
  for (const [id, box] of result.boxes) boxes.set(id, { ...box, x: box.x + MARGIN, y: box.y + MARGIN });
  // The hub: the entity with the most lines, where a model too big to read whole opens (openView).
  const hub = [...ends].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] || null;
  drawn = { boxes, hub, width: result.width + MARGIN * 2, height: result.height + MARGIN * 2 };

  const edgeLayer = svg('g', { class: 'edges' });
  const boxLayer = svg('g', { class: 'entities' });
  const perPair = new Map();
  const courses = edges.map((edge, edgeIndex) => {
    const pair = [edge.from, edge.to].sort().join('\u0000');
    const index = perPair.get(pair) || 0;
    perPair.set(pair, index + 1);
    // 0, +8, -8, +16, -16…: several loops on one box apart (routed edges have ports of their own).
    const offset = index === 0 ? 0 : (index % 2 ? 1 : -1) * 8 * Math.ceil(index / 2);
    const route = result.routes.get(edgeIndex);
    return course(edge, boxes, offset, route && route.map((point) => ({ x: point.x + MARGIN, y: point.y + MARGIN })));
  });
  // The end of a drag that started on a box or a line is not a click on it.
  const clicked = (event) => event.type === 'keydown' || dom.canvas.dataset.dragged !== '1';
  const onSelect = (name, event) => { if (clicked(event)) select(name); };
  const onSelectLine = (edge, event) => { if (clicked(event)) selectLine(edge); };
  const groups = edges.map((edge, index) => drawEdge(edge, courses[index], onSelectLine));
  edgeLayer.append(...groups);
  const hitLayer = svg('g', { class: 'edge-hits' });
  hitLayer.append(...edges.map((edge, index) => drawHit(edge, courses[index], onSelectLine)).filter(Boolean));
  const labelsStarted = performance.now();
  placeLabels(edges, courses, boxes, groups);
  document.body.dataset.labelMs = (performance.now() - labelsStarted).toFixed(1);
  for (const name of [...shown].sort()) {
    boxLayer.append(drawBox(entities.get(name), contents.get(name), boxes.get(name), onSelect));
  }
  dom.viewport.replaceChildren(
    svg('rect', { class: 'diagram-background', x: 0, y: 0, width: drawn.width, height: drawn.height, fill: colours.background }),
    hitLayer, edgeLayer, boxLayer);
  const layoutMs = performance.now() - started;
  document.body.dataset.layoutMs = layoutMs.toFixed(1);
  document.body.dataset.entitiesShown = String(shown.size);
  if (selected && shown.has(selected)) markSelected(selected);
  openView();
  setState('ready', `${shown.size} of ${entities.size} entities · laid out in ${layoutMs.toFixed(0)} ms`);
}

/**
 * Labels where drawing.js's label search finds them room, never over a box, a line or another label:
 * bundles' counts first (a bundled line without its count would read as one relationship), then every end's name
 * and cardinality, then the cardinality alone for the ends whose name found no room. What is not drawn is in the
 * line's tooltip and the details pane.
 */
function placeLabels(edges, courses, boxes, groups) {
  const space = new Space();
  for (const box of boxes.values()) space.block({ x: box.x - 2, y: box.y - 2, w: box.width + 4, h: box.height + 4 });
  edges.forEach((edge, index) => obstacles(edge, courses[index], space));
  const labels = edges.flatMap((edge, index) => edgeLabels(edge).map((label) => ({ ...label, index })));
  const candidates = (label, width) => {
    const drawnCourse = courses[label.index];
    if (label.end === 'loop') return loopCandidates(drawnCourse.loop, width);
    if (label.end === 'along') return alongCandidates(drawnCourse.points, width);
    return endCandidates(drawnCourse.points, label.end === 'start', width);
  };
  const place = (label, [name, mark]) => {
    const rect = space.place(candidates(label, labelWidth(name ? `${name} ${mark}` : mark)));
    if (rect) groups[label.index].append(drawLabel(label, [name, mark], rect));
    return rect !== null;
  };
  for (const label of labels) if (label.count) place(label, label.texts[0]);
  let pending = labels.filter((label) => !label.count);
  for (let level = 0; pending.length && level < 2; level += 1) pending = pending.filter((label) => !place(label, label.texts[level]));
}

function applyView() {
  dom.viewport.setAttribute('transform', `translate(${round(view.x)} ${round(view.y)}) scale(${view.k})`);
}

function fitView() {
  if (!drawn) return;
  const width = dom.canvas.clientWidth || 800;
  const height = dom.canvas.clientHeight || 600;
  view.k = Math.min(1.5, Math.max(0.05, Math.min(width / drawn.width, height / drawn.height)));
  view.x = (width - drawn.width * view.k) / 2;
  view.y = Math.max(0, (height - drawn.height * view.k) / 2);
  applyView();
}

/**
 * The view a diagram opens at: the whole diagram when it fits at a readable zoom; else READABLE_SCALE (its smallest
 * text READABLE_PX on screen) centred on the hub, kept inside the diagram. A fitted 65-entity model was at 0.3, its
 * 11 px labels 3 px on screen: a picture of a model, not one a reader can read. The fit button and the 0 key still
 * give the overview.
 */
function openView() {
  if (!drawn) return;
  const width = dom.canvas.clientWidth || 800;
  const height = dom.canvas.clientHeight || 600;
  const hub = drawn.hub && drawn.boxes.get(drawn.hub);
  if (!hub || Math.min(width / drawn.width, height / drawn.height) >= READABLE_SCALE) {
    fitView();
    return;
  }
  view.k = READABLE_SCALE;
  // Centred on the hub, but no emptiness beyond the diagram's edges where it is bigger than the window.
  const clamp = (offset, window, size) => (size * view.k <= window ? (window - size * view.k) / 2
    : Math.min(0, Math.max(window - size * view.k, offset)));
  // A hub wider than the window shows its left part, where its name and attributes are.
  const hubLeft = hub.width * view.k > width ? MARGIN / 2 - hub.x * view.k : width / 2 - (hub.x + hub.width / 2) * view.k;
  view.x = clamp(hubLeft, width, drawn.width);
  view.y = clamp(height / 2 - (hub.y + hub.height / 2) * view.k, height, drawn.height);
  applyView();
}

function zoomAt(factor, cx, cy) {
  const k = Math.min(4, Math.max(0.05, view.k * factor));
  view.x = cx - (cx - view.x) * (k / view.k);
  view.y = cy - (cy - view.y) * (k / view.k);
  view.k = k;
  applyView();
}

function centreOn(name) {
  const box = drawn && drawn.boxes.get(name);
  if (!box) return;
  view.k = Math.max(view.k, 0.9);
  view.x = dom.canvas.clientWidth / 2 - (box.x + box.width / 2) * view.k;
  view.y = dom.canvas.clientHeight / 2 - (box.y + box.height / 2) * view.k;
  applyView();
}

function wirePanZoom() {
  let drag = null;
  dom.canvas.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || event.target.closest('a')) return;
    drag = { x: event.clientX, y: event.clientY, vx: view.x, vy: view.y, moved: false };
    dom.canvas.dataset.dragged = '0';
  });
  dom.canvas.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) > 3) {
      // Captured only once it is a drag: a capture from the press on would send a plain click on a box to the
      // canvas instead of the box.
      drag.moved = true;
      dom.canvas.setPointerCapture(event.pointerId);
    }
    view.x = drag.vx + dx;
    view.y = drag.vy + dy;
    applyView();
  });
  const end = () => {
    if (drag && drag.moved) dom.canvas.dataset.dragged = '1';
    drag = null;
  };
  dom.canvas.addEventListener('pointerup', end);
  dom.canvas.addEventListener('pointercancel', end);
  dom.canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    const rect = dom.canvas.getBoundingClientRect();
    zoomAt(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX - rect.left, event.clientY - rect.top);
  }, { passive: false });
  dom.canvas.addEventListener('keydown', (event) => {
    const centre = () => [dom.canvas.clientWidth / 2, dom.canvas.clientHeight / 2];
    const pan = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] }[event.key];
    if (event.key === '+' || event.key === '=') zoomAt(1.25, ...centre());
    else if (event.key === '-') zoomAt(1 / 1.25, ...centre());
    else if (event.key === '0') fitView();
    else if (pan) {
      view.x += pan[0];
      view.y += pan[1];
      applyView();
    } else return;
    event.preventDefault();
  });
  byId('zoom-in').addEventListener('click', () => zoomAt(1.25, dom.canvas.clientWidth / 2, dom.canvas.clientHeight / 2));
  byId('zoom-out').addEventListener('click', () => zoomAt(1 / 1.25, dom.canvas.clientWidth / 2, dom.canvas.clientHeight / 2));
  byId('zoom-fit').addEventListener('click', fitView);
}

// ---------------------------------------------------------------------------------------------
// Selection and details
// ---------------------------------------------------------------------------------------------

/** Highlights the entity `name` and its edges, or (`line`, an edge of graphEdges()) one relationship line. */
function markSelected(name, line = null) {
  for (const node of dom.viewport.querySelectorAll('.is-selected')) node.classList.remove('is-selected');
  for (const node of dom.viewport.querySelectorAll('.edge.is-near')) node.classList.remove('is-near');
  const node = name && dom.viewport.querySelector(`.entity[data-entity="${CSS.escape(name)}"]`);
  if (node) node.classList.add('is-selected');
  for (const edge of dom.viewport.querySelectorAll('.edge')) {
    if (line ? edge.dataset.kind === 'relationship' && edge.dataset.from === line.from && edge.dataset.to === line.to
      : edge.dataset.from === name || edge.dataset.to === name) edge.classList.add('is-near');
    if (line && edge.classList.contains('is-near')) edge.classList.add('is-selected');
  }
}

function select(name) {
  selected = name;
  markSelected(name);
  const entity = entities.get(name);
  if (!entity) return;
  byId('model-versions').hidden = true; // one side pane at a time
  showDetails(dom.details, entity, model, {
    onFocus: (focus) => { dom.focus.value = focus; onOptionsChange(); },
    onClose: () => { selected = null; markSelected(''); },
  });
  dom.details.hidden = false;
}

/** A relationship line was clicked: the details pane lists every relationship it stands for. */
function selectLine(line) {
  selected = null;
  markSelected('', line);
  byId('model-versions').hidden = true;
  showLine(dom.details, line, { onEntity: select, onClose: () => markSelected('') });
  dom.details.hidden = false;
}

// ---------------------------------------------------------------------------------------------
// Search and options
// ---------------------------------------------------------------------------------------------

function find(text) {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return null;
  const names = [...entities.keys()].sort();
  return names.find((n) => n.toLowerCase() === wanted)
    || names.find((n) => n.toLowerCase().startsWith(wanted))
    || names.find((n) => n.toLowerCase().includes(wanted)) || null;
}

function onSearch() {
  if (!dom.search.value.trim()) return; // emptied: nothing asked (a change event fires on clearing it too)
  const name = find(dom.search.value);
  if (!name) {
    setState('ready', `No entity matches “${dom.search.value.trim()}”`);
    return;
  }
  if (drawn && !drawn.boxes.has(name)) {
    // Outside the focused part: show the whole model again.
    dom.focus.value = '';
    onOptionsChange();
  }
  select(name);
  centreOn(name);
  for (const node of dom.viewport.querySelectorAll('.entity.is-found')) node.classList.remove('is-found');
  dom.viewport.querySelector(`.entity[data-entity="${CSS.escape(name)}"]`)?.classList.add('is-found');
}

function onOptionsChange() {
  writeURL();
  draw();
}

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

function fileName() {
  const focus = options().focus;
  return `model${focus ? `-${focus}` : ''}`.replace(/[^A-Za-z0-9._-]+/g, '_');
}

const exportTitle = () => `Model of ${byId('store-name').textContent || 'the store'}`;

function exportSVG() {
  if (drawn) saveSVG(dom.viewport, drawn, exportTitle(), fileName());
}

function exportPNG() {
  if (drawn) savePNG(dom.viewport, drawn, exportTitle(), fileName(), (message) => setState('ready', message));
}

// ---------------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------------

async function start() {
  setState('loading', 'Loading the model…');
  const q = new URLSearchParams(window.location.search);
  dom.attributes.checked = q.get('attributes') !== '0';
  if (['1', '2', '3'].includes(q.get('hops'))) dom.hops.value = q.get('hops');
  wirePanZoom();
  try {
    const version = q.get('version') || '';
    const [health, answer] = await Promise.all([getJSON('/api/health'), getJSON(apiPath('/api/model', { version }))]);
    if (version) {
      // Another version than the one the store is read with: say so where the model line is.
      const line = byId('model-version-line');
      line.textContent = `Showing version “${version}” of the model file`;
      line.hidden = false;
    }
    byId('store-name').textContent = health.store || '';
    showModelLine(byId('model-line'), health.model);
    model = answer;
    entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    const names = [...entities.keys()].sort();
    dom.names.replaceChildren(...names.map((name) => { const option = el('option'); option.value = name; return option; }));
    dom.focus.append(...names.map((name) => { const option = el('option', null, name); option.value = name; return option; }));
    if (entities.has(q.get('focus'))) dom.focus.value = q.get('focus');
    draw();
    window.dispatchEvent(new CustomEvent('cdb-model-ready', { detail: model }));
  } catch (error) {
    setState('error', `Could not load the model: ${error.message}`);
    return;
  }
  dom.focus.addEventListener('change', onOptionsChange);
  dom.hops.addEventListener('change', onOptionsChange);
  dom.attributes.addEventListener('change', onOptionsChange);
  byId('model-tools').addEventListener('submit', (event) => { event.preventDefault(); onSearch(); });
  dom.search.addEventListener('change', onSearch);
  byId('export-svg').addEventListener('click', exportSVG);
  byId('export-png').addEventListener('click', exportPNG);
  window.addEventListener('resize', openView);
}

start();
