/*
 * CoreDataBrowser — Model view: how an entity's box and a relationship's edge are drawn (used by
 * model.js). Pure drawing: SVG elements from /api/model's entities and the layout's boxes, no state.
 *
 *   g.entity[data-entity] (tabindex 0): rect.entity-box, its name as a link to the Inspector's list, its record
 *   count (.entity-count), one text.attribute[data-attribute] per attribute shown (14 at most, "+ N more").
 *   g.edge[data-kind=relationship|inheritance][data-from][data-to]: a polyline along the edge's route (a path for
 *   an entity related to itself, its ends in data-x1…data-y2) from border to border, text.cardinality marks; data-inverse="none" for a
 *   relationship without inverse (drawn with an arrow).
 *
 * Everything is drawn with SVG presentation attributes (fill, stroke, font), colours read once from tokens.css,
 * so an exported SVG carries its styles and opens the same anywhere; the page's CSS only adds highlights.
 */

import { formatCount } from './shared/paging.js';
import { viewURL } from './shared/url.js';

const SVG = 'http://www.w3.org/2000/svg';

const FONT_SIZE = 12;
const HEADER = 28;
const ROW = 17;
const PAD = 10;
const MIN_WIDTH = 150;
const MAX_WIDTH = 340;
/** Attributes listed in a box; the rest are counted ("+ 12 more") and listed in the details. */
const MAX_ROWS = 14;

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

/** "0..1", "1", "*", "1..10000": how many records of the destination one record holds. */
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

/** A box; `onSelect` runs when it is clicked (not on its name, a link) or Enter is pressed on it. */
function drawBox(entity, content, box, onSelect) {
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
  const link = svg('a', { href: viewURL('/', { entity: entity.name }), class: 'entity-link' });
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
    onSelect(entity.name, event);
  });
  group.addEventListener('click', (event) => {
    if (event.target.closest('a')) return; // the name browses the records
    onSelect(entity.name, event);
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

/** A straight line between the two boxes' borders, shifted sideways by `offset` (what an edge without a route gets). */
function straight(a, b, offset) {
  const ca = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
  const cb = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  const length = Math.hypot(cb.x - ca.x, cb.y - ca.y) || 1;
  const nx = -(cb.y - ca.y) / length;
  const ny = (cb.x - ca.x) / length;
  const limit = Math.min(a.width, a.height, b.width, b.height) / 2 - 2;
  const shift = Math.max(-limit, Math.min(limit, offset));
  const from = { x: ca.x + nx * shift, y: ca.y + ny * shift };
  const to = { x: cb.x + nx * shift, y: cb.y + ny * shift };
  return [exitPoint(a, from, to), exitPoint(b, to, from)];
}

/** The unit vector from `p` to `q`. */
function direction(p, q) {
  const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  return { x: (q.x - p.x) / length, y: (q.y - p.y) / length };
}

/**
 * An edge between two boxes along `route` (its points from the `from` box's border to the `to` box's, as
 * model-routing.js gives them); a loop on the box's right side for an entity related to itself, `offset` apart for
 * several loops.
 */
function drawEdge(edge, boxes, offset, route) {
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
  const points = route && route.length >= 2 ? route : straight(a, b, offset);
  group.append(svg('polyline', {
    points: points.map((p) => `${round(p.x)},${round(p.y)}`).join(' '), fill: 'none', stroke: colour,
    'stroke-width': 1.4, 'stroke-linejoin': 'round', 'stroke-dasharray': kind === 'inheritance' ? '6 4' : null,
  }));
  const p1 = points[0];
  const p2 = points[points.length - 1];
  // The directions the line arrives with at each end, for the arrow heads and the marks beside them.
  const end = direction(points[points.length - 2], p2);
  const start = direction(points[1], p1);
  if (kind === 'inheritance') {
    // UML's hollow triangle at the parent's end.
    const base = { x: p2.x - end.x * 12, y: p2.y - end.y * 12 };
    group.append(svg('polygon', {
      points: [p2, { x: base.x + end.y * 7, y: base.y - end.x * 7 }, { x: base.x - end.y * 7, y: base.y + end.x * 7 }]
        .map((p) => `${round(p.x)},${round(p.y)}`).join(' '),
      fill: colours.background, stroke: colour, 'stroke-width': 1.4,
    }));
    return group;
  }
  if (!edge.backward) {
    const base = { x: p2.x - end.x * 9, y: p2.y - end.y * 9 };
    group.append(svg('polygon', {
      points: [p2, { x: base.x + end.y * 4.5, y: base.y - end.x * 4.5 }, { x: base.x - end.y * 4.5, y: base.y + end.x * 4.5 }]
        .map((p) => `${round(p.x)},${round(p.y)}`).join(' '),
      fill: colour,
    }));
  }
  // Each end carries how many records of that end's entity one record at the other end holds, beside the line's
  // last stretch (on the side of the shift for parallel straight lines, so their marks do not print over each other).
  const side = offset < 0 ? -9 : 9;
  const along = 16 + Math.abs(offset) * 2;
  group.append(markText(p2.x - end.x * along + end.y * side, p2.y - end.y * along - end.x * side, cardinality(edge.forward), colour));
  if (edge.backward) {
    group.append(markText(p1.x - start.x * along - start.y * side, p1.y - start.y * along + start.x * side, cardinality(edge.backward), colour));
  }
  return group;
}

export {
  SVG,
  svg,
  colours,
  round,
  cardinality,
  boxContent,
  drawBox,
  drawEdge,
};
