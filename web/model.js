/*
 * CoreDataBrowser — Model view (/model): the store's model as a diagram (after shared.js and model-layout.js).
 *
 * API (docs/API.md): GET /api/model, GET /api/health.
 *
 *   Diagram   #model-svg > #model-viewport: g.entity[data-entity] (rect.entity-box with x/y/width/height, its name
 *             as a link to the Inspector's list, its record count, one text.attribute per attribute shown), then
 *             g.edge[data-kind=relationship|inheritance][data-from][data-to] holding a line (or a path for an
 *             entity related to itself) whose ends lie on the two boxes' borders, and text.cardinality marks.
 *             An inverse pair is one edge; a relationship without inverse has an arrow and data-inverse="none".
 *   Controls  #model-search (find and centre an entity), #model-focus + #model-hops (an entity and its
 *             neighbours within N hops), #model-attributes (boxes with or without attributes), zoom buttons,
 *             wheel zoom and drag to pan, #export-svg / #export-png. URL: /model?focus=Book&hops=2&attributes=0;
 *             ?version=<name> draws another version of a versioned model file (model-versions.js links to it).
 *   Details   clicking a box, or Enter on it (boxes are in the Tab order), selects it (#model-details lists
 *             everything /api/model says about it). Keys on the canvas: + and − zoom, 0 fits, arrows pan.
 *   State     document.body.dataset.modelState = loading | ready | error; dataset.layoutMs = the last layout's
 *             time in milliseconds (performance.now), what the browser test bounds.
 *
 * Drawn with SVG presentation attributes (fill, stroke, font) rather than classes, so the exported SVG carries its
 * styles inline and opens the same anywhere; the page's CSS only adds hover and selection highlights.
 */
'use strict';

(() => {
  const { el, apiPath, getJSON, showModelLine, formatCount } = window.CDBShared;
  const { layout } = window.CDBModelLayout;
  const SVG = 'http://www.w3.org/2000/svg';
  const byId = (id) => document.getElementById(id);
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

  const FONT_SIZE = 12;
  const HEADER = 28;
  const ROW = 17;
  const PAD = 10;
  const MIN_WIDTH = 150;
  const MAX_WIDTH = 340;
  /** Attributes listed in a box; the rest are counted ("+ 12 more") and listed in the details. */
  const MAX_ROWS = 14;
  const MARGIN = 40;

  let model = null;
  let entities = new Map();
  let drawn = null; // { boxes, width, height }
  let selected = null;
  const view = { x: 0, y: 0, k: 1 };

  // ---------------------------------------------------------------------------------------------
  // Colours and fonts: read once from tokens.css, written as attributes so an export keeps them
  // ---------------------------------------------------------------------------------------------

  const css = getComputedStyle(document.documentElement);
  const token = (name, fallback) => (css.getPropertyValue(name) || '').trim() || fallback;
  const colours = {
    background: token('--bg', '#0a0a0d'),
    box: token('--bg-elev', '#16161a'),
    header: token('--bg-elev-2', '#1f1f24'),
    border: token('--border', '#26262d'),
    text: token('--fg', '#ededef'),
    dim: token('--fg-dim', '#8b8b95'),
    accent: token('--accent', '#4a8bff'),
    inherit: token('--syntax-amber', '#c8a050'),
    oneWay: token('--syntax-pink', '#d6589a'),
  };
  const mono = token('--mono', 'monospace');
  const sans = token('--sans', 'sans-serif');

  const measureContext = document.createElement('canvas').getContext('2d');
  function textWidth(text, font) {
    measureContext.font = font;
    return measureContext.measureText(text).width;
  }

  function svg(tag, attributes, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null) node.setAttribute(key, String(value));
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

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

  /** Relationship edges (an inverse pair once) and inheritance edges, in a fixed order. */
  function graphEdges() {
    const edges = [];
    const paired = new Set();
    for (const entity of model.entities) {
      for (const relationship of entity.relationships) {
        const key = `${entity.name}.${relationship.name}`;
        if (paired.has(key)) continue;
        const inverse = relationship.inverse ? declaring(relationship.destination, relationship.inverse) : null;
        if (inverse) paired.add(`${inverse.entity.name}.${inverse.relationship.name}`);
        edges.push({
          kind: 'relationship',
          from: entity.name,
          to: inverse ? inverse.entity.name : relationship.destination,
          forward: relationship,
          backward: inverse ? inverse.relationship : null,
        });
      }
      if (entity.parent && entities.has(entity.parent)) {
        edges.push({ kind: 'inheritance', from: entity.name, to: entity.parent });
      }
    }
    return edges.filter((edge) => entities.has(edge.to));
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

  function cardinality(relationship) {
    if (!relationship.toMany) return relationship.optional === false ? '1' : '0..1';
    const min = relationship.minCount || 0;
    const max = relationship.maxCount === null || relationship.maxCount === undefined ? '*' : String(relationship.maxCount);
    return min === 0 && max === '*' ? '*' : `${min}..${max}`;
  }

  // ---------------------------------------------------------------------------------------------
  // Boxes
  // ---------------------------------------------------------------------------------------------

  function boxContent(entity, withAttributes) {
    const rows = withAttributes ? entity.attributes.slice(0, MAX_ROWS).map((a) => ({ name: a.name, type: a.type, attribute: a })) : [];
    const hidden = withAttributes ? entity.attributes.length - rows.length : 0;
    const count = entity.count === null || entity.count === undefined ? '' : formatCount(entity.count);
    const title = entity.abstract ? `${entity.name} (abstract)` : entity.name;
    let width = textWidth(title, `600 13px ${sans}`) + (count ? textWidth(count, `${FONT_SIZE}px ${mono}`) + 18 : 0);
    for (const row of rows) {
      width = Math.max(width, textWidth(row.name, `${FONT_SIZE}px ${mono}`) + 16 + textWidth(row.type, `${FONT_SIZE}px ${mono}`));
    }
    const lines = rows.length + (hidden > 0 ? 1 : 0);
    return {
      title, count, rows, hidden,
      width: Math.ceil(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width + PAD * 2))),
      height: HEADER + (lines ? lines * ROW + 8 : 0),
    };
  }

  /** Cuts text to fit `width` pixels with an ellipsis (the whole text stays in the box's tooltip). */
  function fit(text, font, width) {
    if (textWidth(text, font) <= width) return text;
    let cut = text;
    while (cut.length > 1 && textWidth(`${cut}…`, font) > width) cut = cut.slice(0, -1);
    return `${cut}…`;
  }

  function drawBox(entity, content, box) {
    // Focusable: Tab walks the boxes, Enter shows one's details (the search box finds one by name).
    const group = svg('g', {
      class: 'entity', 'data-entity': entity.name, transform: `translate(${box.x} ${box.y})`, tabindex: 0,
      role: 'button', 'aria-label': `${entity.name}, ${entity.count ?? 'unknown'} records: show details`,
    });
    group.append(svg('title', {}, `${entity.name}${entity.parent ? ` : ${entity.parent}` : ''} — ${entity.count ?? '?'} records`));
    group.append(svg('rect', {
      class: 'entity-box', x: 0, y: 0, width: box.width, height: box.height, rx: 6,
      fill: colours.box, stroke: entity.abstract ? colours.dim : colours.border, 'stroke-width': 1.5,
      'stroke-dasharray': entity.abstract ? '5 3' : null,
      // The box's place in diagram coordinates, for tests and tools (the group's transform holds the same).
      'data-x': box.x, 'data-y': box.y,
    }));
    group.append(svg('rect', { x: 0.75, y: 0.75, width: box.width - 1.5, height: HEADER - 1, rx: 5, fill: colours.header }));
    const link = svg('a', { href: apiPath('/', { entity: entity.name }), class: 'entity-link' });
    const titleFont = `600 13px ${sans}`;
    const countWidth = content.count ? textWidth(content.count, `${FONT_SIZE}px ${mono}`) + 18 : 0;
    link.append(svg('text', {
      x: PAD, y: 18, fill: colours.accent, 'font-family': sans, 'font-size': 13, 'font-weight': 600,
      'font-style': entity.abstract ? 'italic' : null, class: 'entity-name',
    }, fit(content.title, titleFont, box.width - PAD * 2 - countWidth)));
    group.append(link);
    if (content.count) {
      group.append(svg('text', {
        x: box.width - PAD, y: 18, 'text-anchor': 'end', fill: colours.dim, 'font-family': mono, 'font-size': FONT_SIZE,
        class: 'entity-count',
      }, content.count));
    }
    const font = `${FONT_SIZE}px ${mono}`;
    content.rows.forEach((row, index) => {
      const y = HEADER + 4 + ROW * index + 12;
      const typeWidth = textWidth(row.type, font);
      const text = svg('text', {
        class: 'attribute', x: PAD, y, 'font-family': mono, 'font-size': FONT_SIZE, fill: colours.text,
        'data-attribute': row.name,
      });
      text.append(svg('tspan', {}, fit(row.name, font, box.width - PAD * 2 - typeWidth - 12)));
      group.append(text);
      group.append(svg('text', {
        x: box.width - PAD, y, 'text-anchor': 'end', 'font-family': mono, 'font-size': FONT_SIZE,
        fill: row.attribute.optional === false ? colours.text : colours.dim,
      }, row.type));
    });
    if (content.hidden > 0) {
      group.append(svg('text', {
        x: PAD, y: HEADER + 4 + ROW * content.rows.length + 12, 'font-family': sans, 'font-size': 11, fill: colours.dim,
      }, `+ ${content.hidden} more`));
    }
    group.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      event.stopPropagation();
      select(entity.name);
    });
    group.addEventListener('click', (event) => {
      if (event.target.closest('a')) return; // the name browses the records
      if (dom.canvas.dataset.dragged === '1') return; // the end of a drag that started on the box
      select(entity.name);
    });
    return group;
  }

  // ---------------------------------------------------------------------------------------------
  // Edges
  // ---------------------------------------------------------------------------------------------

  /** Where the segment from inside `box` towards `target` leaves the box. */
  function exitPoint(box, from, target) {
    const dx = target.x - from.x;
    const dy = target.y - from.y;
    let t = Infinity;
    if (dx > 0) t = Math.min(t, (box.x + box.width - from.x) / dx);
    if (dx < 0) t = Math.min(t, (box.x - from.x) / dx);
    if (dy > 0) t = Math.min(t, (box.y + box.height - from.y) / dy);
    if (dy < 0) t = Math.min(t, (box.y - from.y) / dy);
    if (!Number.isFinite(t)) return { ...from };
    return { x: from.x + dx * t, y: from.y + dy * t };
  }

  const round = (n) => Math.round(n * 100) / 100;

  function markText(x, y, text, colour) {
    return svg('text', {
      class: 'cardinality', x: round(x), y: round(y), 'text-anchor': 'middle', 'dominant-baseline': 'middle',
      'font-family': mono, 'font-size': 11, fill: colour,
    }, text);
  }

  /** A line between two boxes, shifted sideways by `offset` when several edges join the same two boxes. */
  function drawEdge(edge, boxes, offset) {
    const a = boxes.get(edge.from);
    const b = boxes.get(edge.to);
    const kind = edge.kind;
    const colour = kind === 'inheritance' ? colours.inherit : edge.backward ? colours.dim : colours.oneWay;
    const group = svg('g', {
      class: 'edge', 'data-kind': kind, 'data-from': edge.from, 'data-to': edge.to,
      'data-inverse': kind === 'relationship' && !edge.backward ? 'none' : null,
    });
    const label = kind === 'inheritance'
      ? `${edge.from} is a sub-entity of ${edge.to}`
      : `${edge.from}.${edge.forward.name} → ${edge.forward.destination} (${cardinality(edge.forward)})`
        + (edge.backward ? ` ⇄ ${edge.to}.${edge.backward.name} → ${edge.backward.destination} (${cardinality(edge.backward)})` : ' (no inverse)');
    group.append(svg('title', {}, label));
    if (edge.from === edge.to) {
      // An entity related to itself: a loop on the box's right side, both ends on its border.
      const x = a.x + a.width;
      const y1 = a.y + Math.min(a.height - 6, 10 + offset);
      const y2 = a.y + Math.min(a.height - 2, 26 + offset);
      group.append(svg('path', {
        d: `M ${round(x)} ${round(y1)} C ${round(x + 40)} ${round(y1 - 16)} ${round(x + 40)} ${round(y2 + 16)} ${round(x)} ${round(y2)}`,
        fill: 'none', stroke: colour, 'stroke-width': 1.4,
        'data-x1': round(x), 'data-y1': round(y1), 'data-x2': round(x), 'data-y2': round(y2),
      }));
      group.append(markText(x + 42, (y1 + y2) / 2, cardinality(edge.forward), colour));
      return group;
    }
    const ca = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
    const cb = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    const length = Math.hypot(cb.x - ca.x, cb.y - ca.y) || 1;
    const nx = -(cb.y - ca.y) / length;
    const ny = (cb.x - ca.x) / length;
    const limit = Math.min(a.width, a.height, b.width, b.height) / 2 - 2;
    const shift = Math.max(-limit, Math.min(limit, offset));
    const from = { x: ca.x + nx * shift, y: ca.y + ny * shift };
    const to = { x: cb.x + nx * shift, y: cb.y + ny * shift };
    const p1 = exitPoint(a, from, to);
    const p2 = exitPoint(b, to, from);
    group.append(svg('line', {
      x1: round(p1.x), y1: round(p1.y), x2: round(p2.x), y2: round(p2.y), stroke: colour, 'stroke-width': 1.4,
      'stroke-dasharray': kind === 'inheritance' ? '6 4' : null,
    }));
    const ux = (p2.x - p1.x) / (Math.hypot(p2.x - p1.x, p2.y - p1.y) || 1);
    const uy = (p2.y - p1.y) / (Math.hypot(p2.x - p1.x, p2.y - p1.y) || 1);
    if (kind === 'inheritance') {
      // UML's hollow triangle at the parent's end.
      const tip = p2;
      const base = { x: tip.x - ux * 12, y: tip.y - uy * 12 };
      group.append(svg('polygon', {
        points: [tip, { x: base.x + uy * 7, y: base.y - ux * 7 }, { x: base.x - uy * 7, y: base.y + ux * 7 }]
          .map((p) => `${round(p.x)},${round(p.y)}`).join(' '),
        fill: colours.background, stroke: colour, 'stroke-width': 1.4,
      }));
      return group;
    }
    if (!edge.backward) {
      const base = { x: p2.x - ux * 9, y: p2.y - uy * 9 };
      group.append(svg('polygon', {
        points: [p2, { x: base.x + uy * 4.5, y: base.y - ux * 4.5 }, { x: base.x - uy * 4.5, y: base.y + ux * 4.5 }]
          .map((p) => `${round(p.x)},${round(p.y)}`).join(' '),
        fill: colour,
      }));
    }
    // Each end carries how many records of that end's entity one record at the other end holds.
    // Beside the line, on the side it was shifted to, and further along for each parallel edge, so the marks of
    // two edges between the same boxes do not print over each other.
    const side = offset < 0 ? -9 : 9;
    const along = 16 + Math.abs(offset) * 2;
    group.append(markText(p2.x - ux * along + uy * side, p2.y - uy * along - ux * side, cardinality(edge.forward), colour));
    if (edge.backward) {
      group.append(markText(p1.x + ux * along + uy * side, p1.y + uy * along - ux * side, cardinality(edge.backward), colour));
    }
    return group;
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
    const path = apiPath('/model', {
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
    const contents = new Map();
    for (const name of shown) contents.set(name, boxContent(entities.get(name), chosen.attributes));

    const started = performance.now();
    const result = layout(
      [...contents].map(([id, content]) => ({ id, width: content.width, height: content.height })),
      // Not the window's width: the same model gives the same picture in any window (and in an export).
      edges.map((edge) => ({ from: edge.from, to: edge.to })),
      { maxWidth: 900 });
    const layoutMs = performance.now() - started;

    const boxes = new Map();
    for (const [id, box] of result.boxes) boxes.set(id, { ...box, x: box.x + MARGIN, y: box.y + MARGIN });
    drawn = { boxes, width: result.width + MARGIN * 2, height: result.height + MARGIN * 2 };

    const edgeLayer = svg('g', { class: 'edges' });
    const boxLayer = svg('g', { class: 'entities' });
    const perPair = new Map();
    for (const edge of edges) {
      const pair = [edge.from, edge.to].sort().join('\u0000');
      const index = perPair.get(pair) || 0;
      perPair.set(pair, index + 1);
      // 0, +8, -8, +16, -16…: parallel edges between the same boxes side by side.
      const offset = index === 0 ? 0 : (index % 2 ? 1 : -1) * 8 * Math.ceil(index / 2);
      edgeLayer.append(drawEdge(edge, boxes, offset));
    }
    for (const name of [...shown].sort()) boxLayer.append(drawBox(entities.get(name), contents.get(name), boxes.get(name)));
    dom.viewport.replaceChildren(
      svg('rect', { class: 'diagram-background', x: 0, y: 0, width: drawn.width, height: drawn.height, fill: colours.background }),
      edgeLayer, boxLayer);
    document.body.dataset.layoutMs = layoutMs.toFixed(1);
    document.body.dataset.entitiesShown = String(shown.size);
    if (selected && shown.has(selected)) markSelected(selected);
    fitView();
    setState('ready', `${shown.size} of ${entities.size} entities · laid out in ${layoutMs.toFixed(0)} ms`);
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

  function markSelected(name) {
    for (const node of dom.viewport.querySelectorAll('.entity.is-selected')) node.classList.remove('is-selected');
    for (const node of dom.viewport.querySelectorAll('.edge.is-near')) node.classList.remove('is-near');
    const node = dom.viewport.querySelector(`.entity[data-entity="${CSS.escape(name)}"]`);
    if (node) node.classList.add('is-selected');
    for (const edge of dom.viewport.querySelectorAll('.edge')) {
      if (edge.dataset.from === name || edge.dataset.to === name) edge.classList.add('is-near');
    }
  }

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

  function select(name) {
    selected = name;
    markSelected(name);
    const entity = entities.get(name);
    if (!entity) return;
    const pane = dom.details;
    pane.replaceChildren();
    byId('model-versions').hidden = true; // one side pane at a time
    const head = el('div', 'model-details-head');
    head.append(el('h2', null, entity.name));
    const close = el('button', 'control', '×');
    close.type = 'button';
    close.title = 'Close the details';
    close.addEventListener('click', () => { pane.hidden = true; selected = null; markSelected(''); });
    head.append(close);
    pane.append(head);
    const actions = el('p', 'model-details-actions');
    const browse = el('a', 'model-browse', `Browse ${entity.count === null || entity.count === undefined ? '' : `${formatCount(entity.count)} `}records →`);
    browse.href = apiPath('/', { entity: entity.name });
    const focus = el('button', 'control', 'Focus here');
    focus.type = 'button';
    focus.addEventListener('click', () => { dom.focus.value = entity.name; onOptionsChange(); });
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
    pane.append(table(['Name', 'Destination', 'Inverse', 'Count', 'Delete rule', 'Notes'], entity.relationships.map((r) => [
      r.name, r.destination, shown(r.inverse), cardinality(r), shown(r.deleteRule),
      [r.ordered && 'ordered', r.transient && 'transient', r.renamingIdentifier && `renamed from ${r.renamingIdentifier}`]
        .filter(Boolean).join('; '),
    ])));
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

  function download(blob, name) {
    const url = URL.createObjectURL(blob);
    const link = el('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function baseName() {
    const focus = options().focus;
    return `model${focus ? `-${focus}` : ''}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  }

  /** The diagram as a standalone SVG document: every style is an attribute, no script, no link to this server. */
  function svgDocument() {
    const root = svg('svg', {
      xmlns: SVG, width: Math.ceil(drawn.width), height: Math.ceil(drawn.height),
      viewBox: `0 0 ${Math.ceil(drawn.width)} ${Math.ceil(drawn.height)}`,
    });
    root.append(svg('title', {}, `Model of ${byId('store-name').textContent || 'the store'}`));
    const content = dom.viewport.cloneNode(true);
    content.removeAttribute('id');
    content.removeAttribute('transform');
    for (const node of content.querySelectorAll('.is-selected, .is-found, .is-near')) node.classList.remove('is-selected', 'is-found', 'is-near');
    for (const node of content.querySelectorAll('[tabindex]')) ['tabindex', 'role', 'aria-label'].forEach((name) => node.removeAttribute(name));
    // Links lead to this server's Inspector; in a file they would lead nowhere.
    for (const link of content.querySelectorAll('a')) link.replaceWith(...link.childNodes);
    root.append(content);
    return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}`;
  }

  function exportSVG() {
    if (!drawn) return;
    download(new Blob([svgDocument()], { type: 'image/svg+xml' }), `${baseName()}.svg`);
  }

  function exportPNG() {
    if (!drawn) return;
    const image = new Image();
    const text = svgDocument();
    image.onload = () => {
      // Twice the size for sharp text, within what a canvas can hold.
      const scale = Math.max(0.25, Math.min(2, Math.sqrt(60e6 / (drawn.width * drawn.height)), 16000 / Math.max(drawn.width, drawn.height)));
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(drawn.width * scale);
      canvas.height = Math.ceil(drawn.height * scale);
      const context = canvas.getContext('2d');
      context.scale(scale, scale);
      context.drawImage(image, 0, 0, drawn.width, drawn.height);
      canvas.toBlob((blob) => {
        if (blob) download(blob, `${baseName()}.png`);
        else setState('ready', 'The PNG could not be made (the diagram is too large for a canvas); export the SVG');
      }, 'image/png');
    };
    image.onerror = () => setState('ready', 'The PNG could not be made; export the SVG');
    // A data: URL (the page's policy allows images from data:, not from blob:).
    image.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(text)))}`;
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
    window.addEventListener('resize', fitView);
  }

  start();
})();
