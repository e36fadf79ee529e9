// A page of pieces laid out in a style (AlbumLayout's place, counted paging and pixel rounding),
// and the engine as the album's script reads it: `window.tesseraLayout`.
/* global fitted, grid, justified, masonry, roundHalfUp, rows, settings, strip, tiles, whole */
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
  const startsLarge = (k) => !atomic[owner[k]] && (k === 0 || owner[k - 1] !== owner[k]);
  for (let k = 0; k < n; k++) largeStarts.push(largeStarts[k] + (startsLarge(k) ? 1 : 0));
  const midStarts = (i, j) => (j - i < 2 ? 0 : largeStarts[j] - largeStarts[i + 1]);
  // One begun mid-row has two photos in that row at least.
  const lastLargeStart = [-1];
  for (let k = 0; k < n; k++) lastLargeStart.push(startsLarge(k) ? k : lastLargeStart[k]);
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
    const free = ragged
      ? target : c.noEnlarge ? fitted(start, end, aspects, limits, available(start, end)) : height(start, end);
    const heights = [];
    for (let k = start; k < end; k++) heights.push(Math.min(free, 2 * target, limits[k]));
    const h = Math.max(...heights);
    const begins = [];
    for (let k = start; k < end; k++) {
      if (pieces[owner[k]].header && (k === 0 || owner[k - 1] !== owner[k])) begins.push(k);
    }
    if (number > 0) y += begins.length ? c.sectionSpacing : c.spacing;
    const band = y;
    if (begins.length) y += c.headerHeight;
    let x = left;
    const runs = new Map();
    for (let k = start; k < end; k++) {
      if (k > start) x += gapAt(k);
      const own = heights[k - start], w = aspects[k] * own, piece = owner[k];
      const item = {piece, photo: k - starts[piece], x, y: y + (h - own) / 2, width: w, height: own, crop: false};
      photos[piece].push(item);
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
    if (piece.header) {
      items.push({header: true, piece: number, x: c.insets.left, y, width: content, height: c.headerHeight});
    }
    const body = styles[style](piece.photos, content, c, piece.limits || []);
    for (const item of body.items) items.push({...item, piece: number, x: item.x + dx, y: item.y + top});
    y = top + body.height + (number < pieces.length - 1 ? c.sectionSpacing : 0);
  });
  const snap = (value) => roundHalfUp(value * c.outputScale) / c.outputScale;
  for (const item of items) {
    const [x, top] = [snap(item.x), snap(item.y)];
    [item.width, item.height] = [snap(item.x + item.width) - x, snap(item.y + item.height) - top];
    [item.x, item.y] = [x, top];
  }
  return {items, height: y + c.insets.bottom, settings: c};
};

/** @type {any} */ (window).tesseraLayout = {settings, page};
