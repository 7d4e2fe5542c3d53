/*
 * CoreDataBrowser — the model diagram's layout (/model): where each entity's box goes and the course of each edge.
 * Pure computation, no DOM: given box sizes and the edges between boxes, it returns positions and routes. An ES
 * module imported by model.js; the routes come from routing.js.
 *
 * Why layered and not force-directed: a force simulation settles differently with every change of its inputs,
 * needs many iterations on 60+ boxes, and still lets boxes overlap unless a separate pass pushes them apart. A
 * layered layout is deterministic (the same model gives the same picture on every reload, whatever the browser's
 * timing), cannot overlap (boxes are placed side by side in rows), and keeps connected boxes in adjacent rows.
 *
 *   1. Connected components (relationships and inheritance both connect), each laid out on its own.
 *   2. Layers: breadth-first from the component's most connected entity (ties broken by name), so an entity
 *      sits one row away from the entities it is related to.
 *   3. Crossing reduction: rows are reordered by the barycentre of their neighbours in the rows above and below,
 *      sweeping down and up a fixed number of times (Sugiyama's heuristic); ties keep the previous order.
 *   4. Wide layers wrap into several rows, so a hub related to 40 entities gives a block, not a 10,000 px line.
 *   5. Coordinates: each row is put in the order of where its boxes want to be (the centre of their neighbours
 *      above) and placed by two greedy passes, pushing right then left, whose mean never overlaps.
 *   6. Edges are routed through the gaps between rows and boxes (routing.js); rows are then stacked, each
 *      channel between two rows at least GAP_Y tall and as tall as the edges running along it need.
 *   7. Components are packed into shelves, largest first; lone entities last.
 *
 * API: modelLayout.layout(nodes, edges, options) where nodes = [{id, width, height}], edges =
 * [{from, to}] (undirected for layout), options = {maxWidth}. Returns {boxes: Map id -> {x, y, width, height},
 * routes: Map edge index -> [{x, y}, …] (from the edge's `from` box to its `to` box; none for an edge from a box to
 * itself), width, height}.
 */

import { plan } from './routing.js';

const GAP_X = 48;
const GAP_Y = 72;
const COMPONENT_GAP = 96;
const SWEEPS = 8;

const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function adjacency(nodes, edges) {
  const neighbours = new Map(nodes.map((node) => [node.id, new Set()]));
  for (const edge of edges) {
    if (edge.from === edge.to || !neighbours.has(edge.from) || !neighbours.has(edge.to)) continue;
    neighbours.get(edge.from).add(edge.to);
    neighbours.get(edge.to).add(edge.from);
  }
  const sorted = new Map();
  for (const [id, set] of neighbours) sorted.set(id, [...set].sort(byName));
  return sorted;
}

function components(ids, neighbours) {
  const seen = new Set();
  const result = [];
  for (const start of ids) {
    if (seen.has(start)) continue;
    const members = [];
    const queue = [start];
    seen.add(start);
    while (queue.length) {
      const id = queue.shift();
      members.push(id);
      for (const next of neighbours.get(id)) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    result.push(members);
  }
  return result;
}

/** Breadth-first layers from the most connected member; neighbours visited most connected first. */
function layers(members, neighbours) {
  const degree = (id) => neighbours.get(id).length;
  const byDegree = (a, b) => degree(b) - degree(a) || byName(a, b);
  const root = [...members].sort(byDegree)[0];
  const depth = new Map([[root, 0]]);
  const result = [[root]];
  const queue = [root];
  while (queue.length) {
    const id = queue.shift();
    for (const next of [...neighbours.get(id)].sort(byDegree)) {
      if (depth.has(next)) continue;
      const level = depth.get(id) + 1;
      depth.set(next, level);
      (result[level] ||= []).push(next);
      queue.push(next);
    }
  }
  return result;
}

/** Reorders each layer by the mean position of its neighbours in the adjacent layer (down, then up). */
function reduceCrossings(rows, neighbours) {
  const position = new Map();
  const remember = () => rows.forEach((row) => row.forEach((id, index) => position.set(id, index / Math.max(1, row.length - 1))));
  remember();
  const reorder = (row, reference) => {
    const keys = new Map();
    row.forEach((id, index) => {
      const around = neighbours.get(id).filter((other) => reference.has(other));
      keys.set(id, around.length
        ? around.reduce((sum, other) => sum + position.get(other), 0) / around.length
        : index / Math.max(1, row.length - 1));
    });
    const indexOf = new Map(row.map((id, index) => [id, index]));
    row.sort((a, b) => keys.get(a) - keys.get(b) || indexOf.get(a) - indexOf.get(b));
  };
  for (let sweep = 0; sweep < SWEEPS; sweep += 1) {
    for (let i = 1; i < rows.length; i += 1) {
      reorder(rows[i], new Set(rows[i - 1]));
      remember();
    }
    for (let i = rows.length - 2; i >= 0; i -= 1) {
      reorder(rows[i], new Set(rows[i + 1]));
      remember();
    }
  }
}

/** Splits layers wider than `maxWidth` into consecutive rows. */
function wrap(rows, size, maxWidth) {
  const result = [];
  for (const row of rows) {
    let current = [];
    let width = 0;
    for (const id of row) {
      const w = size.get(id).width;
      if (current.length && width + GAP_X + w > maxWidth) {
        result.push(current);
        current = [];
        width = 0;
      }
      width += (current.length ? GAP_X : 0) + w;
      current.push(id);
    }
    if (current.length) result.push(current);
  }
  return result;
}

/** Positions of one component's boxes and the courses of its edges, its top-left corner at (0, 0). */
function place(rows, size, neighbours, edges) {
  const boxes = new Map();
  const rowWidth = (row) => row.reduce((sum, id) => sum + size.get(id).width, 0) + GAP_X * (row.length - 1);
  const widest = Math.max(...rows.map(rowWidth));
  for (const row of rows) {
    // Where each box would like its centre: above its neighbours already placed, else in the row's even spread.
    let x = (widest - rowWidth(row)) / 2;
    const even = new Map();
    for (const id of row) {
      even.set(id, x + size.get(id).width / 2);
      x += size.get(id).width + GAP_X;
    }
    const wanted = new Map(row.map((id) => {
      const placed = neighbours.get(id).filter((other) => boxes.has(other));
      if (!placed.length) return [id, even.get(id)];
      return [id, placed.reduce((sum, other) => sum + boxes.get(other).x + boxes.get(other).width / 2, 0) / placed.length];
    }));
    // A wrapped row's order came from its whole layer: put it in the order of where its boxes want to be (ties
    // keep the layer's order), so edges to the rows above do not cross for nothing.
    const order = new Map(row.map((id, index) => [id, index]));
    row.sort((a, b) => wanted.get(a) - wanted.get(b) || order.get(a) - order.get(b));
    // Two greedy passes that never overlap, pushing right then pushing left; their mean keeps the order and the
    // gaps of both, and centres a crowded group on where it wants to be instead of pushing it all one way.
    const width = (id) => size.get(id).width;
    const forward = [];
    row.forEach((id, index) => {
      const want = wanted.get(id) - width(id) / 2;
      forward.push(index ? Math.max(want, forward[index - 1] + width(row[index - 1]) + GAP_X) : want);
    });
    const backward = new Array(row.length);
    for (let index = row.length - 1; index >= 0; index -= 1) {
      const id = row[index];
      const want = wanted.get(id) - width(id) / 2;
      backward[index] = index === row.length - 1 ? want : Math.min(want, backward[index + 1] - GAP_X - width(id));
    }
    row.forEach((id, index) => {
      const { width: w, height: h } = size.get(id);
      boxes.set(id, { x: (forward[index] + backward[index]) / 2, y: 0, width: w, height: h });
    });
  }
  // The rows' heights come last: a channel between two rows is as tall as the edges routed along it need.
  const routing = plan(rows, boxes, edges, GAP_X);
  const rowTops = [];
  const channelTops = [];
  let y = 0;
  rows.forEach((row, r) => {
    channelTops.push(y);
    y += r === 0 ? routing.channels[0] : Math.max(GAP_Y, routing.channels[r]);
    rowTops.push(y);
    for (const id of row) boxes.get(id).y = y;
    y += Math.max(...row.map((id) => size.get(id).height));
  });
  channelTops.push(y);
  y += routing.channels[rows.length];
  const routes = routing.route(rowTops, channelTops);
  // Normalise so the component, routes included, starts at x = 0.
  let minX = Infinity;
  let maxX = -Infinity;
  for (const box of boxes.values()) {
    minX = Math.min(minX, box.x);
    maxX = Math.max(maxX, box.x + box.width);
  }
  for (const points of routes.values()) {
    for (const point of points) {
      minX = Math.min(minX, point.x);
      maxX = Math.max(maxX, point.x);
    }
  }
  for (const box of boxes.values()) box.x -= minX;
  for (const points of routes.values()) for (const point of points) point.x -= minX;
  return { boxes, routes, width: maxX - minX, height: y };
}

function layout(nodes, edges, options = {}) {
  const size = new Map(nodes.map((node) => [node.id, { width: node.width, height: node.height }]));
  const ids = nodes.map((node) => node.id).sort(byName);
  const neighbours = adjacency(nodes, edges);
  const totalArea = nodes.reduce((sum, node) => sum + (node.width + GAP_X) * (node.height + GAP_Y), 0);
  const widestBox = Math.max(0, ...nodes.map((node) => node.width));
  const maxWidth = Math.max(options.maxWidth || 0, widestBox, Math.sqrt(totalArea) * 1.6);

  const routed = edges.map((edge, index) => ({ index, from: edge.from, to: edge.to }))
    .filter((edge) => edge.from !== edge.to && size.has(edge.from) && size.has(edge.to));
  const parts = components(ids, neighbours).map((members) => {
    const rows = layers(members, neighbours);
    reduceCrossings(rows, neighbours);
    const inside = new Set(members);
    return { members, ...place(wrap(rows, size, maxWidth), size, neighbours, routed.filter((edge) => inside.has(edge.from))) };
  });
  // Largest first (by box count, then area), lone entities last; names break ties so the order never varies.
  parts.sort((a, b) => b.members.length - a.members.length || b.width * b.height - a.width * a.height
    || byName([...a.members].sort(byName)[0], [...b.members].sort(byName)[0]));

  const boxes = new Map();
  const routes = new Map();
  const shelfWidth = Math.max(maxWidth, ...parts.map((part) => part.width));
  let x = 0;
  let y = 0;
  let shelfHeight = 0;
  let width = 0;
  for (const part of parts) {
    if (x > 0 && x + part.width > shelfWidth) {
      x = 0;
      y += shelfHeight + COMPONENT_GAP;
      shelfHeight = 0;
    }
    for (const [id, box] of part.boxes) boxes.set(id, { ...box, x: box.x + x, y: box.y + y });
    for (const [index, points] of part.routes) routes.set(index, points.map((point) => ({ x: point.x + x, y: point.y + y })));
    x += part.width + COMPONENT_GAP;
    width = Math.max(width, x - COMPONENT_GAP);
    shelfHeight = Math.max(shelfHeight, part.height);
  }
  return { boxes, routes, width, height: y + shelfHeight };
}

export {
  layout,
  GAP_X,
  GAP_Y,
};
