/*
 * CoreDataBrowser — the model diagram's edge routing (/model): the course of each edge between boxes already placed
 * in rows by layout.js. Pure computation, no DOM.
 *
 * Why orthogonal routes through the gaps and not straight lines: on a 60-entity model a hub's straight edges to its
 * second and third rows cut through every box in between. Here an edge never enters a box that is not one of its
 * ends: it leaves the upper box through its bottom, runs along the channel (the free band between two rows), goes
 * down through a passage (the free gap between two boxes of a row, or beside the row's ends) for each row it has to
 * cross, and enters the lower box through its top. Boxes side by side in a row are joined by a straight line.
 *
 *   1. Each edge picks, in every row it crosses, the passage closest to the way from where it is to its target.
 *   2. Ports along a box's side and lanes in a passage are ordered by where the edge comes from and goes to, so
 *      edges leaving one box fan out without crossing each other.
 *   3. In each channel the horizontal runs are stacked on tracks: each run is inserted where it crosses the fewest
 *      vertical runs of the others, then runs that do not overlap share a track. A channel is as tall as its tracks
 *      need (at least the layout's gap), which is why the router runs before the rows get their heights.
 *
 * Everything is ordered by position and then by the edge's index, so the same input gives the same routes.
 *
 * API: plan(rows, boxes, edges, gapX) with rows = [[id, …] left to right], boxes = Map id -> {x, width, height}
 * (y not known yet), edges = [{index, from, to}] (no edge from a box to itself). Returns {channels, route}:
 * channels[c] = the height channel c needs (c = 0 above the first row … rows.length below the last, 0 if unused);
 * route(rowTops, channelTops) = Map index -> [{x, y}, …] from the edge's `from` box to its `to` box.
 */

const TRACK = 6; // between two horizontal runs in a channel
const LANE = 7; // between two vertical runs in a passage
const PORT = 64; // between two ends on a box's side, at most: wide enough for the labels beside the lines (drawing.js)
// From a channel's outer tracks to the rows around it: room for an end's label (15 px tall, drawing.js)
// beside a line's stretch between its box and the channel's first track, above every other line's run.
const PAD = 22;
const SIDE = 10; // between parallel edges of two boxes side by side

const byKey = (a, b) => a.key - b.key || a.order - b.order;

function plan(rows, boxes, edges, gapX) {
  const rowOf = new Map();
  const indexIn = new Map();
  rows.forEach((row, r) => row.forEach((id, i) => { rowOf.set(id, r); indexIn.set(id, i); }));
  const centre = (id) => boxes.get(id).x + boxes.get(id).width / 2;
  // The free gaps of each row: before its first box, between two boxes, after its last.
  const passages = rows.map((row) => {
    const result = [];
    for (let g = 0; g <= row.length; g += 1) {
      const left = g === 0 ? boxes.get(row[0]).x - gapX : boxes.get(row[g - 1]).x + boxes.get(row[g - 1]).width;
      const right = g === row.length ? left + gapX : boxes.get(row[g]).x;
      result.push({ left: g === 0 ? right - gapX : left, right, centre: g === 0 ? right - gapX / 2 : (left + right) / 2 });
    }
    return result;
  });

  // 1. The course of each edge: a list of steps, vertical ones (a port on a box, a passage) between channels.
  const routes = edges.map((edge) => {
    let [a, b] = [edge.from, edge.to];
    const reversed = rowOf.get(a) > rowOf.get(b) || (rowOf.get(a) === rowOf.get(b) && indexIn.get(a) > indexIn.get(b));
    if (reversed) [a, b] = [b, a];
    const ra = rowOf.get(a);
    const rb = rowOf.get(b);
    if (ra === rb && indexIn.get(b) - indexIn.get(a) === 1) return { edge, reversed, side: true, a, b };
    if (ra === rb) {
      return { edge, reversed, a, b, steps: [{ port: a, side: 'bottom', x: centre(a) }, { channel: ra + 1 }, { port: b, side: 'bottom', x: centre(b) }] };
    }
    const steps = [{ port: a, side: 'bottom', x: centre(a) }, { channel: ra + 1 }];
    let current = centre(a);
    const target = centre(b);
    for (let k = ra + 1; k < rb; k += 1) {
      const straight = current + (target - current) / (rb - k + 1);
      let best = 0;
      let bestCost = Infinity;
      passages[k].forEach((gap, g) => {
        const cost = Math.abs(gap.centre - current) + Math.abs(gap.centre - target) + Math.abs(gap.centre - straight) / 2;
        if (cost < bestCost - 1e-9) { best = g; bestCost = cost; }
      });
      current = passages[k][best].centre;
      steps.push({ passage: k, gap: best, x: current }, { channel: k + 1 });
    }
    steps.push({ port: b, side: 'top', x: target });
    return { edge, reversed, a, b, steps };
  });

  // 2. Ports and lanes, ordered by where their edges go (estimated with box and passage centres).
  const groups = new Map();
  for (const route of routes) {
    if (route.side) continue;
    route.steps.forEach((step, i) => {
      if (step.channel !== undefined) return;
      const name = step.port !== undefined ? `port ${step.port} ${step.side}` : `passage ${step.passage} ${step.gap}`;
      const around = [route.steps[i - 2], route.steps[i + 2]].filter(Boolean).map((s) => s.x);
      const key = around.reduce((sum, x) => sum + x, 0) / around.length;
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push({ step, key, order: route.edge.index });
    });
  }
  for (const members of groups.values()) {
    members.sort(byKey);
    const first = members[0].step;
    let middle;
    let spacing;
    if (first.port !== undefined) {
      const box = boxes.get(first.port);
      middle = box.x + box.width / 2;
      spacing = Math.min(PORT, (box.width - 16) / Math.max(1, members.length - 1));
    } else {
      const gap = passages[first.passage][first.gap];
      middle = gap.centre;
      spacing = Math.min(LANE, (gap.right - gap.left - 12) / Math.max(1, members.length - 1));
    }
    members.forEach((member, i) => { member.step.x = middle + (i - (members.length - 1) / 2) * spacing; });
  }

  // 3. Horizontal runs on tracks, channel by channel.
  const runs = new Map();
  for (const route of routes) {
    if (route.side) continue;
    route.steps.forEach((step, i) => {
      if (step.channel === undefined) return;
      const before = route.steps[i - 1];
      const after = route.steps[i + 1];
      // The run's two vertical ends: the step before always comes from above; the one after goes down, unless it
      // is the bottom of a box in the same row (an edge between two boxes of one row runs below them).
      const ends = [{ x: before.x, up: true }, { x: after.x, up: after.side === 'bottom' }];
      const run = { step, ends, low: Math.min(before.x, after.x), high: Math.max(before.x, after.x), order: route.edge.index };
      if (!runs.has(step.channel)) runs.set(step.channel, []);
      runs.get(step.channel).push(run);
    });
  }
  const channels = new Array(rows.length + 1).fill(0);
  for (const [channel, members] of runs) {
    const flat = members.filter((run) => run.high - run.low < 0.5);
    const real = members.filter((run) => run.high - run.low >= 0.5).sort((p, q) => p.low - q.low || p.order - q.order);
    const inside = (x, run) => x > run.low + 0.25 && x < run.high - 0.25;
    // Crossings if `upper` runs above `lower`: lower's ends going up cut through upper, upper's going down through
    // lower; and, worse, upper going down where lower comes down at the same x would draw the two on one line.
    const cost = (upper, lower) => lower.ends.filter((end) => end.up && inside(end.x, upper)).length
      + upper.ends.filter((end) => !end.up && inside(end.x, lower)).length
      + 100 * upper.ends.filter((end) => !end.up && lower.ends.some((other) => other.up && Math.abs(other.x - end.x) < 0.5)).length;
    const order = [];
    for (const run of real) {
      let best = 0;
      let bestCost = Infinity;
      for (let p = 0; p <= order.length; p += 1) {
        let total = 0;
        for (let i = 0; i < order.length; i += 1) total += i < p ? cost(order[i], run) : cost(run, order[i]);
        if (total < bestCost) { best = p; bestCost = total; }
      }
      order.splice(best, 0, run);
    }
    let tracks = 0;
    order.forEach((run, j) => {
      run.track = 0;
      for (let i = 0; i < j; i += 1) {
        const other = order[i];
        if (other.low < run.high + TRACK && run.low < other.high + TRACK) run.track = Math.max(run.track, other.track + 1);
      }
      tracks = Math.max(tracks, run.track + 1);
    });
    for (const run of real) run.step.tracks = tracks;
    for (const run of flat) { run.track = 0; run.step.tracks = 1; }
    channels[channel] = tracks ? PAD * 2 + (tracks - 1) * TRACK : 0;
    for (const run of members) run.step.track = run.track;
  }

  function route(rowTops, channelTops) {
    const result = new Map();
    const sides = new Map();
    for (const r of routes) {
      if (!r.side) continue;
      const pair = `${r.a}\u0000${r.b}`;
      if (!sides.has(pair)) sides.set(pair, []);
      sides.get(pair).push(r);
    }
    for (const parallel of sides.values()) {
      parallel.forEach((r, i) => {
        const a = boxes.get(r.a);
        const b = boxes.get(r.b);
        const y = rowTops[rowOf.get(r.a)] + Math.min(a.height, b.height) / 2 + (i - (parallel.length - 1) / 2) * SIDE;
        const points = [{ x: a.x + a.width, y }, { x: b.x, y }];
        result.set(r.edge.index, r.reversed ? points.reverse() : points);
      });
    }
    for (const r of routes) {
      if (r.side) continue;
      const trackY = (step) => {
        const used = step.tracks || 1;
        // Centred in the channel as drawn (often taller than its tracks need): the stretches from a box to the
        // first turn are then long enough to carry the labels at the edges' ends on both rows.
        const drawnHeight = step.channel < rows.length ? rowTops[step.channel] - channelTops[step.channel] : channels[step.channel];
        const height = Math.max(drawnHeight, PAD * 2);
        return channelTops[step.channel] + (height - (used - 1) * TRACK) / 2 + step.track * TRACK;
      };
      const points = [];
      const first = r.steps[0];
      points.push({ x: first.x, y: rowTops[rowOf.get(first.port)] + boxes.get(first.port).height });
      r.steps.forEach((step, i) => {
        if (step.channel === undefined) return;
        const y = trackY(step);
        points.push({ x: r.steps[i - 1].x, y }, { x: r.steps[i + 1].x, y });
      });
      const last = r.steps[r.steps.length - 1];
      points.push({ x: last.x, y: rowTops[rowOf.get(last.port)] + (last.side === 'top' ? 0 : boxes.get(last.port).height) });
      const simple = simplify(points);
      result.set(r.edge.index, r.reversed ? simple.reverse() : simple);
    }
    return result;
  }

  return { channels, route };
}

/** Drops repeated points and points in the middle of a straight stretch. */
function simplify(points) {
  const result = [];
  for (const point of points) {
    const last = result[result.length - 1];
    if (last && Math.abs(last.x - point.x) < 0.01 && Math.abs(last.y - point.y) < 0.01) continue;
    const before = result[result.length - 2];
    if (before && last && ((Math.abs(before.x - last.x) < 0.01 && Math.abs(last.x - point.x) < 0.01)
      || (Math.abs(before.y - last.y) < 0.01 && Math.abs(last.y - point.y) < 0.01))) result.pop();
    result.push(point);
  }
  return result;
}

export { plan };
