// Vega's "voronoi" transform without d3-delaunay (19 KB of the bundle for one chart): Vega-Lite's
// nearest-point hover (sa_training_progress) gives each point the region of the plot nearer to it
// than to any other point, as a path the pointer can hover. Each cell is the plot's rectangle cut by
// the perpendicular bisector to every other point (O(n²); our charts have a few dozen points), which is
// exactly the Voronoi cell d3-delaunay computes. As there, a point repeated at the same place gets no
// cell after its first occurrence. tests/test_vega_bundle.py compares the cells with d3-delaunay's.
import {Transform} from 'vega-dataflow';
import {inherits} from 'vega-util';

export function Voronoi(params) {
  Transform.call(this, null, params);
}

// the parameters of vega-voronoi's transform (node_modules/vega-voronoi/src/Voronoi.js), unchanged
Voronoi.Definition = {
  'type': 'Voronoi',
  'metadata': {'modifies': true},
  'params': [
    { 'name': 'x', 'type': 'field', 'required': true },
    { 'name': 'y', 'type': 'field', 'required': true },
    { 'name': 'size', 'type': 'number', 'array': true, 'length': 2 },
    { 'name': 'extent', 'type': 'array', 'array': true, 'length': 2,
      'default': [[-1e5, -1e5], [1e5, 1e5]],
      'content': {'type': 'number', 'array': true, 'length': 2} },
    { 'name': 'as', 'type': 'string', 'default': 'path' }
  ]
};

// the part of a convex polygon where a·p <= c
function clip(poly, ax, ay, c) {
  const out = [];
  for (let k = 0, n = poly.length; k < n; ++k) {
    const p = poly[k], q = poly[(k + 1) % n];
    const dp = ax * p[0] + ay * p[1] - c, dq = ax * q[0] + ay * q[1] - c;
    if (dp <= 0) out.push(p);
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
      const t = dp / (dp - dq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out;
}

export function cells(xs, ys, [x0, y0, x1, y1]) {
  const first = new Map(), unique = [];
  xs.forEach((x, i) => {
    const key = x + ',' + ys[i];
    if (!first.has(key)) { first.set(key, i); unique.push(i); }
  });
  return xs.map((x, i) => {
    if (first.get(x + ',' + ys[i]) !== i) return null;
    const y = ys[i];
    let cell = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    for (const j of unique) {
      if (j === i || !cell.length) continue;
      const ax = xs[j] - x, ay = ys[j] - y;
      cell = clip(cell, ax, ay, ax * (x + xs[j]) / 2 + ay * (y + ys[j]) / 2);
    }
    return cell.length > 2 ? 'M' + cell.join('L') + 'Z' : null;
  });
}

inherits(Voronoi, Transform, {
  transform(_, pulse) {
    const as = _.as || 'path', data = pulse.source;
    if (!data || !data.length) return pulse;
    let s = _.size;
    s = s ? [0, 0, s[0], s[1]]
      : (s = _.extent) ? [s[0][0], s[0][1], s[1][0], s[1][1]]
      : [-1e5, -1e5, 1e5, 1e5];
    const paths = cells(data.map(_.x), data.map(_.y), s);
    data.forEach((d, i) => { d[as] = paths[i]; });
    return pulse.reflow(_.modified()).modifies(as);
  }
});
