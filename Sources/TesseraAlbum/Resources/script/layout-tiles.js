// The tiles style: a social-post cell per section (Styles/Tiles.swift).
/* exported tiles */
/* global isCrop, roundHalfUp, rows */
// Tiles: one social-post cell per section, six photos at most, the last telling how many more.
// Tiles.specSlots: the specification's slots, {x, y, width, height, last}, in slot order.
const specSlots = (shown, first, width, c) => {
  const half = width / 2, sub = (size) => Math.max(0, Math.min(size, width)), t = c.tilesSub;
  let columns;
  if (shown === 1) {
    const height = Math.min(width / first, width * 1.25);
    columns = [[false, Math.min(width, height * first), height]];
  } else if (shown === 2) {
    columns = [[false, half, half], [true, half, half]];
  } else if (shown === 3) {
    const s = sub(t.three);
    columns = [[false, s, s], [true, width - s, 2 * s], [false, s, s]];
  } else if (shown === 4) {
    const s = sub(t.four);
    columns = [[false, width - s, s], [true, s, s], [false, s, s], [true, width - s, s]];
  } else if (shown === 5) {
    const s = sub(t.five), main = t.fiveMain;
    columns = [[false, s, s], [true, width - s, main], [false, s, s], [true, width - s, main], [false, s, s]];
  } else {
    const s = sub(t.six);
    columns = [
      [false, s, s], [true, width - s, s], [false, half, half], [true, half, half], [false, width - s, s],
      [true, s, s],
    ];
  }
  const heights = [0, 0];
  return columns.map(([right, w, h], slot) => {
    const column = right ? 1 : 0;
    const frame = {x: right ? width - w : 0, y: heights[column], width: w, height: h, last: slot === 5};
    heights[column] += h;
    return frame;
  });
};
// Tiles.alternatives: halves, thirds and a wide top.
const alternatives = (shown, a) => {
  const [h, t] = [a / 2, a / 3], sq = (x, y, size) => ({x, y, width: size, height: size, last: false});
  const wide = {x: 0, y: 0, width: a, height: h, last: false};
  if (shown === 2) return [[wide, {x: 0, y: h, width: a, height: h, last: false}]];
  if (shown === 3) return [[wide, sq(0, h, h), sq(h, h, h)]];
  if (shown === 4) {
    return [[sq(0, 0, h), sq(h, 0, h), sq(0, h, h), sq(h, h, h)], [wide, sq(0, h, t), sq(t, h, t), sq(2 * t, h, t)]];
  }
  if (shown === 5) return [[sq(0, 0, h), sq(h, 0, h), sq(0, h, t), sq(t, h, t), sq(2 * t, h, t)]];
  return [[sq(0, 0, t), sq(t, 0, t), sq(2 * t, 0, t), sq(0, t, t), sq(t, t, t), sq(2 * t, t, t)]];
};
const mismatch = (slot, aspect) => {
  const shape = slot.height > 0 ? slot.width / slot.height : 1;
  return Math.max(shape / aspect, aspect / shape);
};
const nextPermutation = (order) => {
  let i = order.length - 2;
  while (i >= 0 && order[i] >= order[i + 1]) i--;
  if (i < 0) return false;
  let j = order.length - 1;
  while (order[j] <= order[i]) j--;
  [order[i], order[j]] = [order[j], order[i]];
  order.splice(i + 1, order.length, ...order.slice(i + 1).reverse());
  return true;
};
// Tiles.rows: justified rows at half the width's height, no gaps.
const tileRows = (photoAspects, width) => {
  const aspects = photoAspects.map((a) => Math.min(Math.max(Math.min(Math.max(a, 0.5), 2), a / 2), a * 2));
  const cells = [];
  let y = 0;
  for (const row of rows(aspects, width, 0, width / 2) || []) {
    const height = Math.min(row.height, width * 1.25);
    let x = 0;
    for (let photo = row.start; photo < row.end; photo++) {
      const w = Math.min(width, aspects[photo] * height);
      cells.push({photo, frame: {x, y, width: w, height, last: false}});
      x += w;
    }
    y += height;
  }
  if (cells.length === 6) cells[5].frame.last = true;
  return cells;
};
// Tiles.fitted: the pattern and order keeping every photo closest to its aspect.
const fittedTiles = (aspects, spec, width) => {
  const n = aspects.length, patterns = [spec, ...alternatives(n, width)];
  if (n === 6) for (const pattern of patterns) pattern[5] = {...pattern[5], last: true};
  /** @type {{worst: number, sum: number, pattern: number, order: number[]} | null} */
  let best = null;
  patterns.forEach((pattern, number) => {
    const order = [...Array(n).keys()];
    do {
      let worst = 0, sum = 0;
      order.forEach((photo, slot) => {
        const off = mismatch(pattern[slot], aspects[photo]);
        worst = Math.max(worst, off);
        sum += off;
      });
      if (!best || worst < best.worst - 1e-9 || (Math.abs(worst - best.worst) <= 1e-9 && sum < best.sum - 1e-9)) {
        best = {worst, sum, pattern: number, order: [...order]};
      }
    } while (nextPermutation(order));
  });
  if (!best || !(best.worst <= 2)) return tileRows(aspects, width);
  return best.order.map((photo, slot) => ({photo, frame: patterns[best.pattern][slot]}));
};
const tiles = (aspects, width, c) => {
  const body = {items: [], height: 0};
  if (!(width > 0)) return body;
  const shown = Math.min(aspects.length, c.tilesMaxShown, 6);
  const spec = specSlots(shown, aspects[0], width, c);
  let cells = spec.map((frame, photo) => ({photo, frame}));
  if (c.tilesFitOrientation && shown > 1) cells = fittedTiles(aspects.slice(0, shown), spec, width);
  cells.sort((p, q) => p.photo - q.photo);
  for (const {photo, frame} of cells) {
    const item = {photo, x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                  crop: isCrop(frame.width, frame.height, aspects[photo])};
    if (frame.last && aspects.length > 6) item.more = aspects.length - 6;
    body.items.push(item);
    body.height = Math.max(body.height, frame.y + frame.height);
  }
  return body;
};
