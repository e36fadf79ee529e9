// A page laid out at the window's width: layout.js's geometry for the page's pieces, drawn as
// CollectionPages.render draws it.
/* exported eachFrame, pageWidth, px, scrubWidth, site, unenlarged */
// What the site's scripts set on the window: layout.js's engine, the data files' photos and counts.
const site = /** @type {any} */ (window);
// A page carries its photos laid out at one width (what shows without script); layout.js
// lays them out again at the window's width whenever it changes, and they are drawn as
// CollectionPages.render draws them: a frame that would crop a whole-photo style shows the
// photo whole inside it, no photo larger than its own pixels, and strips as natively scrolling
// rows of unzoomed cells.
const px = (value) => `${Math.round(value * 100) / 100}px`;
const sizeOf = (a, key) => (a.dataset[key] || a.dataset.wh).split(' ').map(Number);
const contained = ([width, height], frame) => {
  const aspect = width / height, inner = {...frame};
  if (!(frame.width > 0 && frame.height > 0)) return inner;
  if (aspect > frame.width / frame.height) {
    inner.height = Math.round(frame.width / aspect);
    inner.y += Math.round((frame.height - inner.height) / 2);
  } else {
    inner.width = Math.round(frame.height * aspect);
    inner.x += Math.round((frame.width - inner.width) / 2);
  }
  return inner;
};
const unenlarged = ([width, height], frame) => {
  const scale = Math.max(frame.width / width, frame.height / height);
  if (!(scale > 1)) return frame;
  const inner = {...frame};
  inner.width = Math.min(width, Math.round(frame.width / scale));
  inner.height = Math.min(height, Math.round(frame.height / scale));
  inner.x += Math.round((frame.width - inner.width) / 2);
  inner.y += Math.round((frame.height - inner.height) / 2);
  return inner;
};
const place = (a, frame, layoutFrame) => {
  const box = (f) => [f.x, f.y, f.width, f.height];
  Object.assign(a.style, {left: px(frame.x), top: px(frame.y), width: px(frame.width), height: px(frame.height)});
  // The layout's own frame, where the photo is drawn smaller inside it.
  if (box(frame).some((v, i) => v !== box(layoutFrame)[i])) {
    a.dataset.frame = box(layoutFrame).map((v) => parseFloat(px(v))).join(' ');
  }
  else delete a.dataset.frame;
  const img = a.querySelector('img');
  Object.assign(img, {width: Math.round(frame.width), height: Math.round(frame.height)});
  if (img.srcset) img.sizes = px(frame.width);
};
// (whatever happens, the page is shown: at worst as it came, at the narrowest width)
const relayout = (layout) => {
  try {
    layOut(layout);
  } finally {
    layout.classList.add('laid');
  }
};
// The width pages are laid out at: the window's, less a scroll bar.
const pageWidth = () => Math.max(1, document.documentElement.clientWidth);
const layOut = (layout) => {
  const width = pageWidth();
  if (!layout.classList.contains(`w${width}`)) {
    // The page's pieces: each section's photos on it, under its header when it has one (a
    // "+N" tile stands for the photos it hides).
    const pieces = [];
    let current = null;
    for (const child of layout.children) {
      if (child.classList.contains('header')) {
        pieces.push(current = {header: child, photos: [], limits: [], anchors: [], strip: null, hidden: 0});
        continue;
      }
      if (!current) pieces.push(current = {header: null, photos: [], limits: [], anchors: [], strip: null, hidden: 0});
      if (child.classList.contains('strip')) current.strip = child;
      for (const a of current.strip === child ? child.querySelectorAll('a.photo') : [child]) {
        const [w, h] = sizeOf(a, 'wh');
        current.anchors.push(a);
        current.photos.push(w / h);
        // The engine's heightLimit, from the pixels served (a RAW may have only a small
        // preview): a size of 1 × 1 is an unknown one.
        current.limits.push(h > 1 ? sizeOf(a, 'px')[1] : Infinity);
        const more = a.querySelector('span.more');
        current.hidden += (parseInt(more ? more.textContent.slice(1) : '0', 10) || 0);
      }
    }
    // The photos a "+N" tile stands for come after the section's shown ones, as in the engine.
    for (const piece of pieces) {
      for (let k = piece.hidden; k > 0; k--) {
        piece.photos.push(1);
        piece.limits.push(Infinity);
      }
    }
    const style = layout.dataset.style;
    const given = pieces.map((p) => ({header: !!p.header, photos: p.photos, limits: p.limits}));
    const laid = site.tesseraLayout.page(given, style, width);
    const c = laid.settings, whole = ['justified', 'masonry', 'strip'].includes(style), rows = new Map();
    for (const item of laid.items) {
      const piece = pieces[item.piece];
      if (item.header) {
        Object.assign(piece.header.style, {
          left: px(item.x), top: px(item.y), width: px(item.width), height: px(item.height),
        });
        continue;
      }
      const a = piece.anchors[item.photo];
      if (!a) continue;
      const photo = sizeOf(a, 'px');
      let frame = {x: item.x, y: item.y, width: item.width, height: item.height};
      if (item.contentX !== undefined && item.scale > 0) {
        if (!rows.has(item.piece)) {
          rows.set(item.piece, {top: item.y - (c.stripHeight - item.height) / 2, next: c.insets.left});
        }
        const row = rows.get(item.piece), [w, h] = [item.width / item.scale, item.height / item.scale];
        frame = {x: row.next, y: (c.stripHeight - h) / 2, width: w, height: h};
        row.next = frame.x + w + c.stripSpacing;
      }
      if (whole && item.crop) frame = contained(photo, frame);
      place(a, unenlarged(photo, frame), frame);
    }
    for (const [number, row] of rows) {
      const strip = pieces[number].strip;
      Object.assign(strip.style, {top: px(row.top), height: px(c.stripHeight), scrollPaddingInline: px(c.insets.left)});
      Object.assign(strip.firstElementChild.style, {
        width: px(row.next - c.stripSpacing + c.insets.left), height: px(c.stripHeight),
      });
    }
    layout.className = `layout w${width}`;
    Object.assign(layout.style, {width: px(width), height: px(laid.height)});
  }
};
// Titles, cards and Find take the photos' content width, so that they start where the photos do.
// (the timeline's stream leaves its scrubber's width at the right: its text starts and ends
// with the stream, not centred in the window)
const scrubWidth = 44, streaming = !!document.body.dataset.stream;
const fitText = () => {
  const c = site.tesseraLayout.settings('justified', pageWidth() - (streaming ? scrubWidth : 0));
  document.documentElement.style.setProperty('--content', px(c.width - c.insets.left - c.insets.right));
  document.documentElement.style.setProperty('--side', px(c.insets.left));
};
const layouts = document.querySelectorAll('.layout[data-style]');
fitText();
layouts.forEach(relayout);
// `work` once in the next frame after any number of `type` events (a resize or a scroll
// sends many).
const eachFrame = (type, work) => {
  let pending = false;
  window.addEventListener(type, () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      work();
    });
  }, {passive: true});
};
// Laid out again once a frame after the window's width changes.
eachFrame('resize', () => {
  fitText();
  layouts.forEach(relayout);
  window.dispatchEvent(new Event('tessera-relayout'));
});
