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
      masonryColumns: narrow ? 2 : Math.max(3, Math.floor((width - 2 * side) / 280 + 0.5)), masonrySpacing: 10, stripHeight: narrow ? 160 : wide ? 320 : 240,
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
      for (let index = row.start; index < row.end; index++) heights.push(Math.min(free, 2 * c.targetRowHeight, c.noEnlarge ? limits[index] : Infinity));
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
        body.items.push({photo: index, x: shelf.x + shelf.used + gap, y: shelf.top, width: imageWidth, height, crop: false});
        shelf.used += gap + imageWidth;
        shelf.height = Math.max(shelf.height, height);
        for (let k = shelf.first; k < body.items.length; k++) body.items[k].y = shelf.top + (shelf.height - body.items[k].height) / 2;
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
      columns = [[false, s, s], [true, width - s, s], [false, half, half], [true, half, half], [false, width - s, s], [true, s, s]];
    }
    const heights = [0, 0];
    return columns.map(([right, w, h], slot) => {
      const column = right ? 1 : 0, frame = {x: right ? width - w : 0, y: heights[column], width: w, height: h, last: slot === 5};
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
    if (shown === 4) return [[sq(0, 0, h), sq(h, 0, h), sq(0, h, h), sq(h, h, h)], [wide, sq(0, h, t), sq(t, h, t), sq(2 * t, h, t)]];
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
    if (!(best.worst <= 2)) return tileRows(aspects, width);
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

  const styles = {justified, masonry, grid, strip, tiles};

  // FlowRows.place: the pieces' photos through one set of optimal rows, so small sections
  // share rows; a piece that fits one row at the target height is never split, and a row
  // where pieces begin has a band for their labels. Items in piece order, and the height.
  const flow = (pieces, width, c, left, top) => {
    const aspects = [], owner = [], atomic = [], starts = [], limits = [];
    pieces.forEach((piece, number) => {
      const sum = piece.photos.reduce((a, b) => a + b, 0), count = piece.photos.length;
      atomic.push(sum * c.targetRowHeight + (count - 1) * c.spacing <= width);
      starts.push(aspects.length);
      piece.photos.forEach((aspect, index) => {
        aspects.push(aspect);
        owner.push(number);
        limits.push(c.noEnlarge && piece.limits ? piece.limits[index] : Infinity);
      });
    });
    const n = aspects.length;
    if (!n || !(width > 0)) return {items: [], height: 0};
    const gapAt = (k) => (owner[k - 1] === owner[k] ? c.spacing : c.sectionSpacing);
    const breakable = (j) => j === 0 || j === n || owner[j - 1] !== owner[j] || !atomic[owner[j]];
    // FlowRows.midRowStart: a large piece beginning mid-row costs half a squared target height.
    const largeStarts = [0];
    for (let k = 0; k < n; k++) largeStarts.push(largeStarts[k] + (!atomic[owner[k]] && (k === 0 || owner[k - 1] !== owner[k]) ? 1 : 0));
    const midStarts = (i, j) => (j - i < 2 ? 0 : largeStarts[j] - largeStarts[i + 1]);
    // One begun mid-row has two photos in that row at least.
    const lastLargeStart = [-1];
    for (let k = 0; k < n; k++) lastLargeStart.push(!atomic[owner[k]] && (k === 0 || owner[k - 1] !== owner[k]) ? k : lastLargeStart[k]);
    const roomy = (i, j) => lastLargeStart[j] <= i || j - lastLargeStart[j] >= 2;
    const prefix = [0], gaps = [0];
    for (let k = 0; k < n; k++) {
      prefix.push(prefix[k] + aspects[k]);
      if (k > 0) gaps.push(gaps[k - 1] + gapAt(k));
    }
    const available = (i, j) => width - (gaps[j - 1] - gaps[i]);
    const height = (i, j) => available(i, j) / (prefix[j] - prefix[i]);
    const target = c.targetRowHeight;
    let longest = 0;
    pieces.forEach((piece, number) => { if (atomic[number]) longest = Math.max(longest, piece.photos.length); });
    const maximum = Math.max(1, whole(roundHalfUp(width / target / Math.min(...aspects) + 2 ** -52) + 2), longest);
    const cost = new Array(n + 1).fill(Infinity), previous = new Array(n + 1).fill(-1);
    cost[0] = 0;
    for (let j = 1; j <= n; j++) {
      if (!breakable(j)) continue;
      for (let i = j - 1; i >= Math.max(0, j - maximum); i--) {
        if (!breakable(i) || !Number.isFinite(cost[i]) || !roomy(i, j)) continue;
        const h = height(i, j);
        if (!(h > 0)) break;
        // (a ragged last row, taller than the target, is drawn at the target: it costs nothing)
        const candidate = cost[i] + (c.raggedLast && j === n && h > target ? 0 : (j - i) * (h - target) * (h - target))
          + midStarts(i, j) * (0.5 * target * target);
        if (!Number.isFinite(cost[j]) || (candidate < cost[j] && (candidate === 0 || cost[j] / candidate > 1.005))) {
          cost[j] = candidate;
          previous[j] = i;
        }
      }
    }
    const found = [];
    for (let end = n; end > 0;) {
      let start = previous[end];
      if (start < 0) for (start = end - 1; !breakable(start);) start--;
      found.push([start, end]);
      end = start;
    }
    found.reverse();
    const headers = pieces.map(() => []), photos = pieces.map(() => []);
    let y = top;
    found.forEach(([start, end], number) => {
      const ragged = c.raggedLast && end === n && height(start, end) > target;
      const free = ragged ? target : c.noEnlarge ? fitted(start, end, aspects, limits, available(start, end)) : height(start, end);
      const heights = [];
      for (let k = start; k < end; k++) heights.push(Math.min(free, 2 * target, limits[k]));
      const h = Math.max(...heights);
      const begins = [];
      for (let k = start; k < end; k++) if (pieces[owner[k]].header && (k === 0 || owner[k - 1] !== owner[k])) begins.push(k);
      if (number > 0) y += begins.length ? c.sectionSpacing : c.spacing;
      const band = y;
      if (begins.length) y += c.headerHeight;
      let x = left;
      const runs = new Map();
      for (let k = start; k < end; k++) {
        if (k > start) x += gapAt(k);
        const own = heights[k - start], w = aspects[k] * own, piece = owner[k];
        photos[piece].push({piece, photo: k - starts[piece], x, y: y + (h - own) / 2, width: w, height: own, crop: false});
        runs.set(piece, [runs.has(piece) ? runs.get(piece)[0] : x, x + w]);
        x += w;
      }
      for (const k of begins) {
        const [from, to] = runs.get(owner[k]);
        headers[owner[k]] = [{header: true, piece: owner[k], x: from, y: band, width: to - from, height: c.headerHeight}];
      }
      y += h;
    });
    return {items: pieces.flatMap((_, number) => [...headers[number], ...photos[number]]), height: y - top};
  };

  // One page: its pieces ({header, photos: [aspect…]}), each a section's photos on this page
  // under its header when it has one, from the top; returns the items (headers and photos, in
  // order, photos naming their piece and index) and the page's height, snapped to device pixels.
  // `overrides`: settings for a page only script lays out (the timeline's stream).
  const page = (pieces, style, width, overrides = {}) => {
    const c = {...settings(style, width), ...overrides};
    const content = width - c.insets.left - c.insets.right;
    const dx = style === 'strip' ? 0 : c.insets.left;
    const items = [];
    let y = c.insets.top;
    if (c.coalesce && style === 'justified') {
      const flowed = flow(pieces, content, c, c.insets.left, y);
      items.push(...flowed.items);
      y += flowed.height;
    } else if (style === 'tiles' && c.tilesColumns > 1) {
      // SectionColumns.place: each section's cell in the shortest column.
      const gap = c.sectionSpacing;
      let columns = c.tilesColumns, w = (content - (columns - 1) * gap) / columns;
      while (w <= 0 && columns > 1) {
        columns -= 1;
        w = (content - (columns - 1) * gap) / columns;
      }
      const bottoms = new Array(columns).fill(y), used = new Array(columns).fill(false);
      pieces.forEach((piece, number) => {
        let column = 0;
        for (let other = 1; other < columns; other++) if (bottoms[other] < bottoms[column] - 1e-6) column = other;
        const left = c.insets.left + column * (w + gap);
        let top = bottoms[column] + (used[column] ? gap : 0);
        if (piece.header) items.push({header: true, piece: number, x: left, y: top, width: w, height: c.headerHeight});
        if (piece.header) top += c.headerHeight;
        const body = styles[style](piece.photos, w, c);
        for (const item of body.items) items.push({...item, piece: number, x: item.x + left, y: item.y + top});
        bottoms[column] = top + body.height;
        used[column] = true;
      });
      y += Math.max(...bottoms) - y;
    } else pieces.forEach((piece, number) => {
      const top = y + (piece.header ? c.headerHeight : 0);
      if (piece.header) items.push({header: true, piece: number, x: c.insets.left, y, width: content, height: c.headerHeight});
      const body = styles[style](piece.photos, content, c, piece.limits || []);
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
