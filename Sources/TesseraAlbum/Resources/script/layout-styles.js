// An album page laid out at any width in the browser: the layout engine's rules (docs/LAYOUT.md)
// for the styles album pages use, as TesseraLayout computes them (AlbumLayout's place, counted
// paging and pixel rounding; Styles/*.swift), with the settings TesseraAlbum's CollectionPages
// gives each width. scripts/check-layout-js.py holds it to the engine's own geometry.
//
// This file: the settings and the styles but tiles (layout-tiles.js); layout-page.js assembles a page.
/* exported fitted, grid, isCrop, justified, masonry, roundHalfUp, rows, settings, strip, whole */
const roundHalfUp = (value) => Math.floor(value + 0.5);
// Int(saturating:): toward zero; NaN is 0.
const whole = (value) => (Number.isNaN(value) ? 0 : Math.trunc(value));
const isCrop = (width, height, aspect) => height <= 0 || Math.abs(width / height - aspect) / aspect > 1e-9;

// CollectionPages.layoutConfig(width:): sizes that suit the width, content at most 2,528 wide.
const settings = (style, width) => {
  const narrow = width < 600, wide = width >= 1000;
  const side = Math.max(narrow ? 8 : 16, (width - 2528) / 2);
  // Grid squares near 112 or 176 px, sized so that whole columns span the width.
  const square = narrow ? 112 : 176, content = width - 2 * side;
  const columns = Math.max(1, Math.floor((content - 5) / (square + 5) + 0.5));
  const item = Math.max(1, Math.floor((content - 5 * (columns + 1)) / columns));
  return {
    style, width, insets: {top: 8, left: side, bottom: 8, right: side}, headerHeight: 32, sectionSpacing: 16,
    tilesColumns: style === 'tiles' ? Math.max(1, Math.ceil((width - 2 * side + 16) / (538 + 16))) : 1,
    masonryColumns: narrow ? 2 : Math.max(3, Math.floor((width - 2 * side) / 280 + 0.5)), masonrySpacing: 10,
    stripHeight: narrow ? 160 : wide ? 320 : 240,
    stripCellScale: 0.8, stripSpacing: 10, gridItemWidth: item, gridItemHeight: item, gridMinimumColumnGap: 5,
    targetRowHeight: narrow ? 140 : 220, spacing: 4, tilesMargin: 0, tilesMaxShown: 6,
    tilesSub: {three: 100, four: 140, five: 100, fiveMain: 150, six: 140}, outputScale: 2, coalesce: true,
    noEnlarge: true, tilesFitOrientation: true,
  };
};

// OptimalRows.rows: minimum-cost row breaking.
const rows = (aspects, width, spacing, target) => {
  const n = aspects.length;
  const prefix = [0];
  for (const aspect of aspects) prefix.push(prefix[prefix.length - 1] + aspect);
  const height = (i, j) => (width - (j - i - 1) * spacing) / (prefix[j] - prefix[i]);
  const maximum = Math.max(1, whole(roundHalfUp(width / target / Math.min(...aspects) + 2 ** -52) + 2));
  const cost = new Array(n + 1).fill(Infinity), previous = new Array(n + 1).fill(-1);
  cost[0] = 0;
  for (let j = 1; j <= n; j++) {
    for (let i = j - 1; i >= Math.max(0, j - maximum); i--) {
      if (!Number.isFinite(cost[i])) continue;
      const h = height(i, j);
      if (!(h > 0)) break;
      const candidate = cost[i] + (j - i) * (h - target) * (h - target);
      if (!Number.isFinite(cost[j]) || (candidate < cost[j] && (candidate === 0 || cost[j] / candidate > 1.005))) {
        cost[j] = candidate;
        previous[j] = i;
      }
    }
  }
  if (!Number.isFinite(cost[n])) return null;
  const found = [];
  for (let end = n; end > 0; end = previous[end]) {
    const start = previous[end];
    let sum = 0;
    for (let k = start; k < end; k++) sum += aspects[k];
    found.push({start, end, height: (width - (end - start - 1) * spacing) / sum});
  }
  return found.reverse();
};

// OptimalRows.fitted: the height of a row's photos not held at their own size (`limits`),
// when `available` is the width left for photos.
const fitted = (start, end, aspects, limits, available) => {
  const held = new Array(end - start).fill(false);
  for (;;) {
    let fixed = 0, free = 0;
    for (let k = start; k < end; k++) {
      if (held[k - start]) fixed += aspects[k] * limits[k];
      else free += aspects[k];
    }
    if (!(free > 0)) return Infinity;
    const height = (available - fixed) / free;
    let more = false;
    for (let k = start; k < end; k++) {
      if (!held[k - start] && limits[k] < height) [held[k - start], more] = [true, true];
    }
    if (!more) return height;
  }
};

// Each style's body: items {photo, x, y, width, height, crop, scale?, contentX?, overlay?} and its height.
const justified = (aspects, width, c, limits) => {
  const body = {items: [], height: 0};
  const found = rows(aspects, width, c.spacing, c.targetRowHeight);
  if (!found) return body;
  let y = 0;
  for (const row of found) {
    const free = c.noEnlarge
      ? fitted(row.start, row.end, aspects, limits, width - (row.end - row.start - 1) * c.spacing) : row.height;
    const heights = [];
    for (let index = row.start; index < row.end; index++) {
      heights.push(Math.min(free, 2 * c.targetRowHeight, c.noEnlarge ? limits[index] : Infinity));
    }
    const rowHeight = Math.max(...heights);
    let x = 0;
    for (let index = row.start; index < row.end; index++) {
      const height = heights[index - row.start], w = aspects[index] * height;
      body.items.push({photo: index, x, y: y + (rowHeight - height) / 2, width: w, height, crop: false});
      x += w + c.spacing;
    }
    y += rowHeight + c.spacing;
  }
  body.height = y - c.spacing;
  return body;
};

// Masonry.layout, shelves of small photos included.
const masonry = (aspects, width, c, limits) => {
  const body = {items: [], height: 0};
  let columns = Math.min(c.masonryColumns, aspects.length);
  const gap = c.masonrySpacing;
  let cell = (width - gap * (columns - 1)) / columns;
  while (cell <= 0 && columns > 1) {
    columns -= 1;
    cell = (width - gap * (columns - 1)) / columns;
  }
  if (!(cell > 0)) return body;
  const next = new Array(columns).fill(0), used = new Array(columns).fill(false);
  let shelf = null;
  aspects.forEach((aspect, index) => {
    let [imageWidth, height] = [cell, cell / aspect];
    const pixelWidth = (limits[index] ?? Infinity) * aspect;
    if (c.noEnlarge && imageWidth > pixelWidth) [imageWidth, height] = [pixelWidth, height * pixelWidth / imageWidth];
    const small = imageWidth < cell - 1e-9;
    if (small && shelf && shelf.used + gap + imageWidth <= cell + 1e-9) {
      const x = shelf.x + shelf.used + gap;
      body.items.push({photo: index, x, y: shelf.top, width: imageWidth, height, crop: false});
      shelf.used += gap + imageWidth;
      shelf.height = Math.max(shelf.height, height);
      for (let k = shelf.first; k < body.items.length; k++) {
        body.items[k].y = shelf.top + (shelf.height - body.items[k].height) / 2;
      }
      next[shelf.column] = shelf.top + shelf.height + gap;
      return;
    }
    let best = 0;
    for (let column = 1; column < columns; column++) if (next[column] < next[best] - 1e-6) best = column;
    const x = best * (cell + gap);
    body.items.push({photo: index, x, y: next[best], width: imageWidth, height, crop: false});
    shelf = small ? {column: best, x, top: next[best], used: imageWidth, height, first: body.items.length - 1} : null;
    next[best] += height + gap;
    used[best] = true;
  });
  body.height = Math.max(0, ...next.filter((_, column) => used[column]).map((y) => y - gap));
  return body;
};

const grid = (aspects, width, c) => {
  const body = {items: [], height: 0};
  const [iw, ih, minimum] = [c.gridItemWidth, c.gridItemHeight, c.gridMinimumColumnGap];
  let columns = Math.min(whole(Math.floor(width / iw)), whole(Math.floor((width - minimum) / (iw + minimum)) + 1));
  let gap = 0;
  for (;;) {
    if (columns < 1) {
      columns = 1;
      gap = Math.max(0, (width - iw) / 2);
      break;
    }
    gap = (width - iw * columns) / (columns + 1);
    if (gap >= minimum) break;
    columns -= 1;
  }
  aspects.forEach((aspect, index) => {
    const [x, y] = [gap + (iw + gap) * (index % columns), gap + (ih + gap) * Math.floor(index / columns)];
    body.items.push({photo: index, x, y, width: iw, height: ih, crop: isCrop(iw, ih, aspect)});
  });
  const lines = Math.ceil(aspects.length / columns);
  body.height = ih * lines + gap * (lines - 1) + 2 * gap;
  return body;
};

// Strip at its first offset: the first cell zoomed, its neighbours moved aside.
const strip = (aspects, width, c) => {
  const body = {items: [], height: c.stripHeight};
  if (!(width > 0)) return body;
  const cellHeight = c.stripCellScale * c.stripHeight;
  const widths = aspects.map((aspect) => Math.min(cellHeight * aspect, width));
  const xs = [];
  let x = (width - widths[0]) / 2;
  for (const w of widths) {
    xs.push(x);
    x += w + c.stripSpacing;
  }
  const frames = widths.map((w, i) => ({
    x: xs[i], y: (c.stripHeight - cellHeight) / 2, width: w, height: cellHeight, scale: 1,
  }));
  const centre = width / 2;
  const zoomed = widths.findIndex((w, i) => Math.abs(xs[i] + w / 2 - centre) < w / 2);
  if (zoomed >= 0) {
    const off = Math.abs(xs[zoomed] + widths[zoomed] / 2 - centre) / (widths[zoomed] / 2);
    const sigma = 1 + (c.stripHeight / cellHeight - 1) * (1 - off);
    const delta = widths[zoomed] * (sigma - 1);
    frames[zoomed] = {
      x: xs[zoomed] - delta / 2, y: (c.stripHeight - cellHeight * sigma) / 2, width: widths[zoomed] * sigma,
      height: cellHeight * sigma, scale: sigma,
    };
    frames.forEach((frame, index) => { if (index !== zoomed) frame.x += index < zoomed ? -delta / 2 : delta / 2; });
  }
  frames.forEach((frame, index) => {
    body.items.push({photo: index, x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                     crop: isCrop(frame.width, frame.height, aspects[index]), scale: frame.scale, contentX: frame.x});
  });
  return body;
};
