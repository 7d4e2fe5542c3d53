/*
 * CoreDataBrowser — Model view: how an entity's box and a relationship's edge are drawn (used by
 * model.js). Pure drawing: SVG elements from /api/model's entities and the layout's boxes, no state.
 *
 *   g.entity[data-entity] (tabindex 0): rect.entity-box, its name as a link to the Inspector's list, its record
 *   count (.entity-count), one text.attribute[data-attribute] per attribute shown (14 at most, "+ N more").
 *   g.edge[data-kind=relationship|inheritance][data-from][data-to]: a polyline along the edge's route (a path for
 *   an entity related to itself, its ends in data-x1…data-y2) from border to border. A relationship edge is one
 *   line for every relationship between its two entities (data-count; thicker when more than one), its <title> lists
 *   them all; data-inverse="none" for a single relationship without inverse (drawn with an arrow). Its labels, where
 *   the label search below found them room: text.edge-label[data-relationship] (tspan.relationship-name and
 *   tspan.cardinality) at the end a relationship arrives at, text.edge-count ("×3") beside a bundled line.
 *
 * Everything is drawn with SVG presentation attributes (fill, stroke, font), colours read once from tokens.css,
 * so an exported SVG carries its styles and opens the same anywhere; the page's CSS only adds highlights.
 */

import { formatCount } from '../../shared/paging.js';
import { viewURL } from '../../shared/url.js';

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
let measureFont = '';
function textWidth(text, font) {
  // Setting a canvas's font parses it, every time: only when it changes (hundreds of labels share one font).
  if (font !== measureFont) {
    measureContext.font = font;
    measureFont = font;
  }
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
// Where labels go
// ---------------------------------------------------------------------------------------------
//
// Each edge's text (a relationship's name and cardinality at the end it arrives at, a bundled line's count) goes
// where a greedy search among a few candidates finds room. Why not a force or annealing placement: the candidates
// are the places a reader looks for a label (beside the line's last stretch at a box for an end, beside its longest
// stretch for a count), so a label that finds one is unambiguous; a label that finds none is not drawn, and its text
// stays in the line's tooltip and the details pane. Nothing is drawn over a box, another label or any line: every
// box, every stretch of every edge (inheritance lines included), every arrow head and every loop is an obstacle, and
// each placed label becomes one. Candidates are tried in a fixed order and labels in the caller's, so the same model
// gets the same places. Rects are {x, y, w, h} in diagram coordinates; a label is drawn inside its rect.
// (Here rather than in a file of its own for now: a new web file is served only by a server built after it, and this
// was tested with a binary built before.)

/** A label's height: 11 px text's box (about 13 px) with a pixel to spare. */
const LABEL_HEIGHT = 15;
/** Between a label and the line it belongs to. */
const GAP = 3;
/** Half the width an obstacle line takes (its stroke, and some air). */
const LINE = 1.5;
/** Steps along a line's last stretch where an end's label may sit. */
const STEP = 10;
/** How far from its box an end's label may be: farther along its line, a reader cannot tell which end it names. */
const REACH = 240;
/** The grid the space is indexed by: obstacles are looked up in the cells a candidate covers. */
const CELL = 64;
/** Cells per grid row in a cell's number (a diagram is far narrower than this many cells). */
const CELLS = 1 << 16;

const intersects = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

class Space {
  constructor() {
    this.cells = new Map();
  }

  /** The numbers of the grid cells `rect` covers. */
  keys(rect) {
    const result = [];
    for (let i = Math.floor(rect.x / CELL); i <= Math.floor((rect.x + rect.w) / CELL); i += 1) {
      for (let j = Math.floor(rect.y / CELL); j <= Math.floor((rect.y + rect.h) / CELL); j += 1) result.push(j * CELLS + i);
    }
    return result;
  }

  block(rect) {
    for (const key of this.keys(rect)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(rect);
      else this.cells.set(key, [rect]);
    }
  }

  /** A stretch of a line as an obstacle (its bounding box: exact for the router's horizontal and vertical runs). */
  blockSegment(p, q) {
    this.block({
      x: Math.min(p.x, q.x) - LINE, y: Math.min(p.y, q.y) - LINE,
      w: Math.abs(q.x - p.x) + LINE * 2, h: Math.abs(q.y - p.y) + LINE * 2,
    });
  }

  free(rect) {
    for (const key of this.keys(rect)) {
      for (const other of this.cells.get(key) || []) if (intersects(rect, other)) return false;
    }
    return true;
  }

  /** The first free rect of `candidates` (any iterable, tried in order), now blocked; null when none is. */
  place(candidates) {
    for (const rect of candidates) {
      if (this.free(rect)) {
        this.block(rect);
        return rect;
      }
    }
    return null;
  }
}

function unit(p, q) {
  const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  return { x: (q.x - p.x) / length, y: (q.y - p.y) / length, length };
}

/**
 * Places beside the stretch of the line that starts at `from` and heads towards `to`, `from` `offset` px away
 * from the label's near side (0 = at `from`), on both sides of the line: beside a vertical stretch, above and below
 * a horizontal one.
 */
function beside(from, to, offset, width) {
  const u = unit(from, to);
  const h = LABEL_HEIGHT;
  if (Math.abs(u.y) >= Math.abs(u.x)) {
    const y = u.y > 0 ? from.y + offset : from.y - offset - h;
    return [{ x: from.x + GAP, y, w: width, h }, { x: from.x - GAP - width, y, w: width, h }];
  }
  const x = u.x > 0 ? from.x + offset : from.x - offset - width;
  return [{ x, y: from.y - GAP - h, w: width, h }, { x, y: from.y + GAP, w: width, h }];
}

/**
 * Where an end's label may go: beside the line's last stretch at that end, nearest the box first, then beside the
 * stretch before it (where the last one is too short or too crowded: a route leaving a box turns into its channel
 * within a few pixels).
 */
function* endCandidates(points, atStart, width) {
  const course = atStart ? points : [...points].reverse();
  for (let k = 0; k < Math.min(2, course.length - 1); k += 1) {
    const p = course[k];
    const q = course[k + 1];
    const { length } = unit(p, q);
    // Along the stretch as far as it goes (a label past its corner would lie across the next stretch, an obstacle
    // anyway), at least one place when the stretch is short.
    const along = Math.abs(q.x - p.x) >= Math.abs(q.y - p.y) ? width : LABEL_HEIGHT;
    const first = k === 0 ? GAP : GAP + LINE;
    const last = Math.min(length, REACH);
    for (let offset = first; offset === first || offset + along <= last; offset += STEP) yield* beside(p, q, offset, width);
  }
}

/** Where a line's own label (a bundle's count) may go: beside its stretches, longest first, middle first. */
function* alongCandidates(points, width) {
  const stretches = [];
  for (let i = 1; i < points.length; i += 1) stretches.push({ p: points[i - 1], q: points[i], index: i });
  stretches.sort((a, b) => unit(b.p, b.q).length - unit(a.p, a.q).length || a.index - b.index);
  for (const { p, q } of stretches) {
    const u = unit(p, q);
    const along = Math.abs(u.x) >= Math.abs(u.y) ? width : LABEL_HEIGHT;
    for (const t of [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9]) {
      const offset = u.length * t - along / 2;
      if (offset >= 0 && offset + along <= u.length) yield* beside(p, q, offset, width);
    }
  }
}

/** Beside a loop on a box's right side ({x, y1, y2}, reaching about 30 px out): to its right, then above, below. */
function* loopCandidates(loop, width) {
  const h = LABEL_HEIGHT;
  const middle = (loop.y1 + loop.y2) / 2;
  for (const dy of [0, -h, h, -2 * h, 2 * h]) yield { x: loop.x + 34, y: middle - h / 2 + dy, w: width, h };
  yield { x: loop.x + 2, y: loop.y1 - 14 - h, w: width, h };
  yield { x: loop.x + 2, y: loop.y2 + 14, w: width, h };
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
 * The course of an edge: {points} along `route` (its points from the `from` box's border to the `to` box's, as
 * routing.js gives them), or a straight line when it has none; {loop: {x, y1, y2}} on the box's right side for
 * an entity related to itself, `offset` apart for several loops.
 */
function course(edge, boxes, offset, route) {
  const a = boxes.get(edge.from);
  if (edge.from === edge.to) {
    const x = a.x + a.width;
    return { loop: { x, y1: a.y + Math.min(a.height - 6, 10 + offset), y2: a.y + Math.min(a.height - 2, 26 + offset) } };
  }
  return { points: route && route.length >= 2 ? route : straight(a, boxes.get(edge.to), offset) };
}

/** The head at `tip` of a line arriving in direction `end`: `length` long, `half` wide on each side. */
function head(tip, end, length, half) {
  const base = { x: tip.x - end.x * length, y: tip.y - end.y * length };
  return [tip, { x: base.x + end.y * half, y: base.y - end.x * half }, { x: base.x - end.y * half, y: base.y + end.x * half }];
}

/** Whether a line's end has a head (inheritance's triangle, a relationship without inverse's arrow), and its size. */
const headSize = (edge) => (edge.kind === 'inheritance' ? [12, 7] : edge.members.length === 1 && !edge.members[0].backward ? [9, 4.5] : null);

/** What a label may not cover of an edge's course: every stretch, the head at its end, or the loop. */
function obstacles(edge, drawnCourse, space) {
  if (drawnCourse.loop) {
    const { x, y1, y2 } = drawnCourse.loop;
    space.block({ x: x - 1, y: y1 - 13, w: 33, h: y2 - y1 + 26 });
    return;
  }
  const { points } = drawnCourse;
  for (let i = 1; i < points.length; i += 1) space.blockSegment(points[i - 1], points[i]);
  const size = headSize(edge);
  if (size) {
    const corners = head(points[points.length - 1], direction(points[points.length - 2], points[points.length - 1]), ...size);
    const xs = corners.map((p) => p.x);
    const ys = corners.map((p) => p.y);
    space.block({ x: Math.min(...xs) - 1, y: Math.min(...ys) - 1, w: Math.max(...xs) - Math.min(...xs) + 2, h: Math.max(...ys) - Math.min(...ys) + 2 });
  }
}

/** "Author.books → Book (*)": one direction of a relationship, as its tooltip and the details pane say it. */
const described = (source, relationship) => `${source}.${relationship.name} → ${relationship.destination} (${cardinality(relationship)})`;

/** The tooltip of an edge: every relationship it stands for, each inverse pair on a line of its own. */
function edgeTitle(edge) {
  if (edge.kind === 'inheritance') return `${edge.from} is a sub-entity of ${edge.to}`;
  const lines = edge.members.map((m) => described(m.from, m.forward) + (m.backward ? ` ⇄ ${described(m.to, m.backward)}` : ' (no inverse)'));
  return edge.members.length === 1 ? lines[0] : [`${edge.members.length} relationships between ${edge.from} and ${edge.to}:`, ...lines].join('\n');
}

/**
 * An edge between two boxes along its course; `onSelect(edge, event)` runs when a relationship's line (or its
 * label) is clicked. Its labels are added later (drawLabel), once the label search has found them a place.
 */
function drawEdge(edge, drawnCourse, onSelect) {
  const kind = edge.kind;
  const oneWay = kind === 'relationship' && edge.members.length === 1 && !edge.members[0].backward;
  const colour = kind === 'inheritance' ? colours.inherit : oneWay ? colours.oneWay : colours.dim;
  const group = svg('g', {
    class: 'edge', 'data-kind': kind, 'data-from': edge.from, 'data-to': edge.to,
    'data-inverse': oneWay ? 'none' : null,
    'data-count': kind === 'relationship' ? edge.members.length : null,
  });
  group.append(svg('title', {}, edgeTitle(edge)));
  if (drawnCourse.loop) {
    // An entity related to itself: a loop on the box's right side, both ends on its border.
    const { x, y1, y2 } = drawnCourse.loop;
    group.append(svg('path', {
      d: `M ${round(x)} ${round(y1)} C ${round(x + 40)} ${round(y1 - 16)} ${round(x + 40)} ${round(y2 + 16)} ${round(x)} ${round(y2)}`,
      fill: 'none', stroke: colour, 'stroke-width': 1.4,
      'data-x1': round(x), 'data-y1': round(y1), 'data-x2': round(x), 'data-y2': round(y2),
    }));
  } else {
    const { points } = drawnCourse;
    const list = points.map((p) => `${round(p.x)},${round(p.y)}`).join(' ');
    group.append(svg('polyline', {
      points: list, fill: 'none', stroke: colour,
      'stroke-width': kind === 'relationship' && edge.members.length > 1 ? 2.4 : 1.4,
      'stroke-linejoin': 'round', 'stroke-dasharray': kind === 'inheritance' ? '6 4' : null,
    }));
    const size = headSize(edge);
    if (size) {
      // UML's hollow triangle at an inheritance's parent; a filled arrow where a relationship without inverse points.
      const corners = head(points[points.length - 1], direction(points[points.length - 2], points[points.length - 1]), ...size);
      group.append(svg('polygon', {
        points: corners.map((p) => `${round(p.x)},${round(p.y)}`).join(' '),
        fill: kind === 'inheritance' ? colours.background : colour,
        stroke: kind === 'inheritance' ? colour : null, 'stroke-width': kind === 'inheritance' ? 1.4 : null,
      }));
    }
  }
  if (kind === 'relationship') {
    group.addEventListener('click', (event) => onSelect(edge, event));
  }
  return group;
}

/**
 * A wider, invisible copy of a relationship's line that takes the clicks near it (the page's; the export drops it),
 * or null. Drawn in a layer beneath every edge, so it never takes a click meant for another line's label.
 */
function drawHit(edge, drawnCourse, onSelect) {
  if (edge.kind !== 'relationship' || !drawnCourse.points) return null;
  const hit = svg('polyline', {
    class: 'edge-hit', points: drawnCourse.points.map((p) => `${round(p.x)},${round(p.y)}`).join(' '),
    fill: 'none', stroke: 'transparent', 'stroke-width': 10, 'data-from': edge.from, 'data-to': edge.to,
  });
  hit.append(svg('title', {}, edgeTitle(edge)));
  hit.addEventListener('click', (event) => onSelect(edge, event));
  return hit;
}

/** The font of every label on an edge, and its width in it: the diagram's smallest text (with "+ N more"). */
const LABEL_FONT = 11;
/** The smallest text on screen a reader reads without zooming, in CSS pixels. */
const READABLE_PX = 9;
/** The smallest zoom the diagram opens at: its smallest text (LABEL_FONT) still READABLE_PX on screen. */
const READABLE_SCALE = READABLE_PX / LABEL_FONT;
/**
 * Between two line ends on a box's side, at least (where the box can be made wide enough): room between two
 * vertical lines for the widest common cardinality ("0..1", about 29 px at LABEL_FONT) and the GAP and LINE on
 * each side of it. PORT_INSET is what the router keeps free at a side's two corners.
 */
const PORT_ROOM = 38;
const PORT_INSET = 16;
const labelWidth = (text) => textWidth(text, `${LABEL_FONT}px ${mono}`) + 2;

/**
 * What an edge's labels say, each with the fallbacks tried when it finds no place, in the order they are placed:
 * {edge, end: 'start' | 'end' | 'loop' | 'along', texts: [[name, cardinality], …]} (a bundle's count is its
 * cardinality part, with no name). A line of one relationship carries, at the end where each direction arrives, its
 * name and cardinality (as UML puts a role at its end), else the cardinality alone; a bundled line carries its
 * count ("×3"), its names being in its tooltip and the details pane.
 */
function edgeLabels(edge) {
  if (edge.kind !== 'relationship') return [];
  if (edge.members.length > 1) return [{ edge, end: edge.from === edge.to ? 'loop' : 'along', count: true, texts: [['', `×${edge.members.length}`]] }];
  const { forward, backward } = edge.members[0];
  const ends = [[edge.from === edge.to ? 'loop' : 'end', forward]];
  if (backward) ends.push([edge.from === edge.to ? 'loop' : 'start', backward]);
  return ends.map(([end, relationship]) => ({
    edge, end, relationship, texts: [[relationship.name, cardinality(relationship)], ['', cardinality(relationship)]],
  }));
}

/** A placed label: its text in `rect` (from Space.place); the name and the cardinality are tspans of their own. */
function drawLabel(label, [name, mark], rect) {
  const colour = label.edge.members.length === 1 && !label.edge.members[0].backward ? colours.oneWay : colours.dim;
  const text = svg('text', {
    class: label.count ? 'edge-label edge-count' : 'edge-label', x: round(rect.x + 1), y: round(rect.y + rect.h / 2),
    'dominant-baseline': 'central', 'font-family': mono, 'font-size': LABEL_FONT, fill: colour,
    'font-weight': label.count ? 600 : null,
    'data-relationship': label.relationship ? label.relationship.name : null,
  });
  if (name) text.append(svg('tspan', { class: 'relationship-name', fill: colours.text }, `${name} `));
  text.append(svg('tspan', { class: label.count ? 'bundle-count' : 'cardinality' }, mark));
  return text;
}

export {
  SVG,
  READABLE_SCALE,
  PORT_ROOM,
  PORT_INSET,
  Space,
  endCandidates,
  alongCandidates,
  loopCandidates,
  svg,
  colours,
  round,
  cardinality,
  described,
  boxContent,
  course,
  obstacles,
  drawBox,
  drawEdge,
  drawHit,
  edgeLabels,
  labelWidth,
  drawLabel,
};
