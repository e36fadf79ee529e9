// An album page laid out at any width in the browser: the layout engine's rules (docs/LAYOUT.md)
// for the styles album pages use, as TesseraLayout computes them (AlbumLayout's place, counted
// paging and pixel rounding; Styles/*.swift), with the settings TesseraAlbum's CollectionPages
// gives each width. scripts/check-layout-js.py holds it to the engine's own geometry.
window.tesseraLayout = (() => {
  'use strict';
  const roundHalfUp = (value) => Math.floor(value + 0.5);
  // Int(saturating:): toward zero; NaN is 0.
  const whole = (value) => (Number.isNaN(value) ? 0 : Math.trunc(value));
  const isCrop = (width, height, aspect) => height <= 0 || Math.abs(width / height - aspect) / aspect > 1e-9;

  // CollectionPages.layoutConfig(width:): sizes that suit the width, content at most 1,072 wide.
  const settings = (style, width) => {
    const narrow = width < 600, wide = width >= 1000;
    const side = Math.max(narrow ? 8 : 16, (width - 1072) / 2);
    const right = style === 'tiles' ? Math.max(side, width - side - 538) : side;
    const item = narrow ? 112 : 176;
    return {
      style, width, insets: {top: 8, left: side, bottom: 8, right}, headerHeight: 32, sectionSpacing: 16,
      masonryColumns: narrow ? 2 : wide ? 4 : 3, masonrySpacing: 10, stripHeight: narrow ? 160 : wide ? 320 : 240,
      stripCellScale: 0.8, stripSpacing: 10, gridItemWidth: item, gridItemHeight: item, gridMinimumColumnGap: 5,
      targetRowHeight: narrow ? 140 : 220, spacing: 4, tilesMargin: 0, tilesMaxShown: 6,
      tilesSub: {three: 100, four: 140, five: 100, fiveMain: 150, six: 140}, outputScale: 2,
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

  // Each style's body: items {photo, x, y, width, height, crop, scale?, contentX?, overlay?} and its height.
  const justified = (aspects, width, c) => {
    const body = {items: [], height: 0};
    const found = rows(aspects, width, c.spacing, c.targetRowHeight);
    if (!found) return body;
    let y = 0;
    for (const row of found) {
      const height = Math.min(row.height, 2 * c.targetRowHeight);
      let x = 0;
      for (let index = row.start; index < row.end; index++) {
        const w = aspects[index] * height;
        body.items.push({photo: index, x, y, width: w, height, crop: false});
        x += w + c.spacing;
      }
      y += height + c.spacing;
    }
    body.height = y - c.spacing;
    return body;
  };

  const masonry = (aspects, width, c) => {
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
    aspects.forEach((aspect, index) => {
      const height = cell / aspect;
      let best = 0;
      for (let column = 1; column < columns; column++) if (next[column] < next[best] - 1e-6) best = column;
      body.items.push({photo: index, x: best * (cell + gap), y: next[best], width: cell, height, crop: false});
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
      body.items.push({photo: index, x: gap + (iw + gap) * (index % columns), y: gap + (ih + gap) * Math.floor(index / columns),
                       width: iw, height: ih, crop: isCrop(iw, ih, aspect)});
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
    const frames = widths.map((w, i) => ({x: xs[i], y: (c.stripHeight - cellHeight) / 2, width: w, height: cellHeight, scale: 1}));
    const centre = width / 2;
    const zoomed = widths.findIndex((w, i) => Math.abs(xs[i] + w / 2 - centre) < w / 2);
    if (zoomed >= 0) {
      const sigma = 1 + (c.stripHeight / cellHeight - 1) * (1 - Math.abs(xs[zoomed] + widths[zoomed] / 2 - centre) / (widths[zoomed] / 2));
      const delta = widths[zoomed] * (sigma - 1);
      frames[zoomed] = {x: xs[zoomed] - delta / 2, y: (c.stripHeight - cellHeight * sigma) / 2, width: widths[zoomed] * sigma,
                        height: cellHeight * sigma, scale: sigma};
      frames.forEach((frame, index) => { if (index !== zoomed) frame.x += index < zoomed ? -delta / 2 : delta / 2; });
    }
    frames.forEach((frame, index) => {
      body.items.push({photo: index, x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                       crop: isCrop(frame.width, frame.height, aspects[index]), scale: frame.scale, contentX: frame.x});
    });
    return body;
  };

  // Tiles: one social-post cell per section, six photos at most, the sixth telling how many more.
  const tiles = (aspects, width, c) => {
    const body = {items: [], height: 0};
    if (!(width > 0)) return body;
    const shown = Math.min(aspects.length, c.tilesMaxShown, 6), half = width / 2;
    const sub = (size) => Math.max(0, Math.min(size, width)), t = c.tilesSub;
    let slots;
    if (shown === 1) {
      const height = Math.min(width / aspects[0], width * 1.25);
      slots = [[false, Math.min(width, height * aspects[0]), height]];
    } else if (shown === 2) {
      slots = [[false, half, half], [true, half, half]];
    } else if (shown === 3) {
      const s = sub(t.three);
      slots = [[false, s, s], [true, width - s, 2 * s], [false, s, s]];
    } else if (shown === 4) {
      const s = sub(t.four);
      slots = [[false, width - s, s], [true, s, s], [false, s, s], [true, width - s, s]];
    } else if (shown === 5) {
      const s = sub(t.five), main = t.fiveMain;
      slots = [[false, s, s], [true, width - s, main], [false, s, s], [true, width - s, main], [false, s, s]];
    } else {
      const s = sub(t.six);
      slots = [[false, s, s], [true, width - s, s], [false, half, half], [true, half, half], [false, width - s, s], [true, s, s]];
    }
    const columns = [0, 0];
    slots.forEach(([right, w, h], slot) => {
      const column = right ? 1 : 0;
      const item = {photo: slot, x: right ? width - w : 0, y: columns[column], width: w, height: h, crop: isCrop(w, h, aspects[slot])};
      if (slot === 5 && aspects.length > 6) item.more = aspects.length - 6;
      body.items.push(item);
      columns[column] += h;
    });
    body.height = Math.max(...columns);
    return body;
  };

  const styles = {justified, masonry, grid, strip, tiles};

  // One page: its pieces ({header, photos: [aspect…]}), each a section's photos on this page
  // under its header when it has one, from the top; returns the items (headers and photos, in
  // order, photos naming their piece and index) and the page's height, snapped to device pixels.
  const page = (pieces, style, width) => {
    const c = settings(style, width);
    const content = width - c.insets.left - c.insets.right;
    const dx = style === 'strip' ? 0 : c.insets.left;
    const items = [];
    let y = c.insets.top;
    pieces.forEach((piece, number) => {
      const top = y + (piece.header ? c.headerHeight : 0);
      if (piece.header) items.push({header: true, piece: number, x: c.insets.left, y, width: content, height: c.headerHeight});
      const body = styles[style](piece.photos, content, c);
      for (const item of body.items) items.push({...item, piece: number, x: item.x + dx, y: item.y + top});
      y = top + body.height + (number < pieces.length - 1 ? c.sectionSpacing : 0);
    });
    const snap = (value) => roundHalfUp(value * c.outputScale) / c.outputScale;
    for (const item of items) {
      const [x, top] = [snap(item.x), snap(item.y)];
      [item.width, item.height, item.x, item.y] = [snap(item.x + item.width) - x, snap(item.y + item.height) - top, x, top];
    }
    return {items, height: y + c.insets.bottom, settings: c};
  };

  return {settings, page};
})();
