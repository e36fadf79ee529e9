// The timeline as one stream of photos (SitePages.timeline): a block per month of justified
// rows, days side by side, each laid out from the month's photos.js as it nears the window and
// emptied far from it (keeping its height, so nothing moves), sized until then from find.js's
// count; a scrubber by year beside it. Undated photos are the last block.
/* exported streamFrom */
/* global address, badge, eachFrame, element, month:writable, monthViewer:writable, openPhoto, pageWidth,
   photoInAddress, px, read, script, scrubWidth, site, stackBadge */
const streamFrom = document.body.dataset.stream;
const startStream = (index) => {
  const main = document.querySelector('main');
  if (!index || !main || !index.months.length) return;
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  // FriendlyDate.day: "Sat 15 Jul 2023".
  const dayTitle = (day) => {
    const [y, m, d] = day.split('-').map(Number);
    return `${weekdays[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ${d} ${monthNames[m - 1]} ${y}`;
  };
  // The month the scrubber went to, kept in place until the reader scrolls.
  let pinned = null;
  for (const type of ['wheel', 'touchstart', 'keydown']) {
    window.addEventListener(type, () => { pinned = null; }, {passive: true});
  }
  const width = () => Math.max(1, pageWidth() - scrubWidth);
  const stream = element('div', {className: 'stream'});
  const blocks = index.months.map((month) => {
    const layout = element('div', {className: 'layout laid'});
    const title = element('h2', {textContent: month.title});
    const section = element('section', {className: 'month', id: `month-${month.month || 'undated'}`}, title, layout);
    return {month, section, title, layout, list: null, shown: false};
  });
  const byElement = new Map(blocks.map((block) => [block.section, block]));
  // The lightbox's months: the month of the photo opened (its tile's, a found photo's, the
  // address's), and the months beside it, read when they are not.
  const key = (block) => block.month.month || 'undated';
  const listOf = async (block) => {
    const list = block.list || await read(block.month.file).catch(() => []);
    month = key(block);
    return list;
  };
  monthViewer = {
    photosOf: (id, tile) => {
      const section = tile && tile.closest('section.month');
      const named = (tile && tile.dataset.month) || address()[1];
      const block = (section && byElement.get(section)) || blocks.find((b) => key(b) === named);
      return block ? listOf(block) : Promise.resolve([]);
    },
    beside: (at, direction) => {
      const k = blocks.findIndex((b) => key(b) === at);
      return k < 0 ? null : blocks[k + direction] || null;
    },
    title: (at) => (blocks.find((b) => key(b) === at) || {month: {title: ''}}).month.title,
    across: (at, direction) => {
      const block = monthViewer.beside(at, direction);
      return block ? listOf(block) : Promise.resolve(null);
    },
  };
  stream.append(...blocks.map((block) => block.section));
  main.replaceChildren(stream);
  document.documentElement.classList.add('streaming');
  // Until its photos are read, a month is as tall as the layout engine's quick estimate (§4.5).
  const estimate = (block) => {
    const c = site.tesseraLayout.settings('justified', width());
    const content = c.width - c.insets.left - c.insets.right, target = c.targetRowHeight;
    const rows = Math.max(1, Math.ceil(1.5 * (block.month.find.photos || 1) * target * 0.7 / content));
    return c.insets.top + c.headerHeight + rows * target + c.insets.bottom;
  };
  // The most a photo may be drawn at: its size, or its largest rendition's.
  const limit = (photo) => {
    const largest = photo.sources[photo.sources.length - 1];
    return Math.min(photo.height, largest ? largest.width * photo.height / photo.width : photo.height);
  };
  const lay = (block) => {
    const w = width(), pieces = [];
    for (const photo of block.list) {
      const day = (photo.find && photo.find.day) || '';
      let piece = pieces[pieces.length - 1];
      if (!piece || piece.day !== day) {
        pieces.push(piece = {day, header: day !== '', photos: [], limits: [], entries: []});
      }
      piece.photos.push(photo.width / photo.height);
      piece.limits.push(limit(photo));
      piece.entries.push(photo);
    }
    // (a month's last row at the target height: one photo does not take a whole screen)
    const laid = site.tesseraLayout.page(pieces, 'justified', w, {raggedLast: true});
    // What the window shows stays where it is as months above it take their height: the month
    // jumped to, else the first in the window, is moved back to where it was.
    // (the month jumped to, until the reader scrolls it out of the window)
    if (pinned) {
      const box = pinned.section.getBoundingClientRect();
      if (box.bottom < 0 || box.top > window.innerHeight) pinned = null;
    }
    const anchor = pinned || blocks.find((other) => other.section.getBoundingClientRect().bottom > 0) || block;
    const before = anchor.section.getBoundingClientRect().top;
    block.items = laid.items.map((item) => ({item, piece: pieces[item.piece]}));
    block.nodes = new Map();
    block.layout.replaceChildren();
    Object.assign(block.layout.style, {width: px(w), height: px(laid.height)});
    const moved = anchor.section.getBoundingClientRect().top - before;
    if (moved) window.scrollBy(0, moved);
    block.title.style.paddingLeft = px(laid.settings.insets.left);
    fill(block);
  };
  // One item of a month's layout as an element: a day's label, or a photo's link.
  const node = ({item, piece}) => {
    const box = {left: px(item.x), top: px(item.y), width: px(item.width), height: px(item.height)};
    if (item.header) {
      const text = dayTitle(piece.day);
      const header = element('div', {className: 'header', title: text}, element('span', {textContent: text}));
      Object.assign(header.style, box);
      return header;
    }
    const photo = piece.entries[item.photo];
    const link = element('a', {className: 'photo', href: photo.view});
    link.dataset.id = photo.id;
    Object.assign(link.style, box);
    const need = item.width * (window.devicePixelRatio || 1);
    const source = photo.sources.find((s) => s.width >= need) || photo.sources[photo.sources.length - 1];
    const img = element('img', {alt: photo.name, width: Math.round(item.width), height: Math.round(item.height),
                                loading: 'lazy', decoding: 'async'});
    if (photo.sources.length > 1) {
      img.sizes = px(item.width);
      img.srcset = photo.sources.map((s) => `${s.url} ${s.width}w`).join(', ');
    }
    if (source) img.src = source.url;
    link.append(img);
    if (photo.video) link.append(badge(photo.video));
    if (photo.stack) link.append(stackBadge(photo.stack));
    return link;
  };
  // A month's items within a screen of the window are in the page, the others not: a month of
  // thousands of photos holds a few screens of them.
  const fill = (block) => {
    if (!block.items) return;
    const top = block.layout.getBoundingClientRect().top, screen = window.innerHeight;
    const [from, to] = [-top - screen, -top + 2 * screen];
    const near = ({item}) => item.y + item.height >= from && item.y <= to;
    for (const [k, shown] of block.nodes) {
      if (near(block.items[k])) continue;
      shown.remove();
      block.nodes.delete(k);
    }
    block.items.forEach((entry, k) => {
      if (block.nodes.has(k) || !near(entry)) return;
      const made = node(entry);
      block.layout.append(made);
      block.nodes.set(k, made);
    });
  };
  eachFrame('scroll', () => {
    for (const block of blocks) if (block.shown) fill(block);
  });
  const show = async (block) => {
    if (block.shown) return;
    block.shown = true;
    if (!block.list) {
      const list = await read(block.month.file, () => block.shown).catch(() => []);
      if (!block.shown || !list) return;
      block.list = list;
    }
    lay(block);
    placeYears();
  };
  // Far from the window a month lets its photos go, and keeps its height.
  const hide = (block) => {
    if (!block.shown) return;
    block.shown = false;
    [block.list, block.items, block.nodes] = [null, null, null];
    block.layout.replaceChildren();
  };
  const near = new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) show(byElement.get(entry.target));
  }, {rootMargin: '100% 0px'});
  const far = new IntersectionObserver((entries) => {
    for (const entry of entries) if (!entry.isIntersecting) hide(byElement.get(entry.target));
  }, {rootMargin: '500% 0px'});
  for (const block of blocks) {
    Object.assign(block.layout.style, {width: px(width()), height: px(estimate(block))});
    block.title.style.paddingLeft = px(site.tesseraLayout.settings('justified', width()).insets.left);
    near.observe(block.section);
    far.observe(block.section);
  }
  // The scrubber: each year at its first month's place in the stream; a press or a drag
  // anywhere on it goes to that place.
  const scrubber = element('nav', {className: 'scrubber', ariaLabel: 'Years'});
  const years = [];
  for (const block of blocks) {
    const year = block.month.month ? block.month.month.slice(0, 4) : 'Undated';
    if (years.length && years[years.length - 1].year === year) continue;
    const link = element('a', {href: `#${block.section.id}`, textContent: year});
    link.addEventListener('click', (event) => {
      event.preventDefault();
      pinned = block;
      block.section.scrollIntoView();
    });
    years.push({year, block, link});
  }
  scrubber.append(...years.map((entry) => entry.link));
  document.body.append(scrubber);
  let placing = false;
  function placeYears() {
    if (placing) return;
    placing = true;
    requestAnimationFrame(() => {
      placing = false;
      // (inside a margin, so that the first and last years are whole)
      const total = stream.offsetHeight || 1, margin = 12, height = scrubber.clientHeight - 2 * margin;
      // Labels a line apart at least: pushed down from where their year starts, then up from
      // the end; one that still has no room of its own is left out (never the first or last).
      const line = 14;
      const tops = years.map(({block}) => margin + (block.section.offsetTop - stream.offsetTop) / total * height);
      for (let k = 1; k < tops.length; k++) tops[k] = Math.max(tops[k], tops[k - 1] + line);
      tops[tops.length - 1] = Math.min(tops[tops.length - 1], margin + height);
      for (let k = tops.length - 2; k >= 0; k--) tops[k] = Math.min(tops[k], tops[k + 1] - line);
      let last = -Infinity;
      years.forEach(({link}, k) => {
        link.style.top = px(tops[k]);
        link.hidden = k > 0 && k < years.length - 1 && (tops[k] - last < line || tops[k] < margin);
        if (!link.hidden) last = tops[k];
      });
    });
  }
  placeYears();
  const jump = (event) => {
    pinned = null;
    const box = scrubber.getBoundingClientRect();
    const share = Math.min(1, Math.max(0, (event.clientY - box.top) / box.height));
    window.scrollTo(0, stream.offsetTop + share * stream.offsetHeight - box.height * 0.1);
  };
  let scrubbing = false;
  scrubber.addEventListener('pointerdown', (event) => {
    if (event.target.closest('a')) return;
    scrubbing = true;
    scrubber.setPointerCapture(event.pointerId);
    jump(event);
  });
  scrubber.addEventListener('pointermove', (event) => { if (scrubbing) jump(event); });
  scrubber.addEventListener('pointerup', () => { scrubbing = false; });
  window.addEventListener('tessera-relayout', () => {
    for (const block of blocks) {
      if (block.shown && block.list) lay(block);
      else Object.assign(block.layout.style, {width: px(width()), height: px(estimate(block))});
    }
    placeYears();
  });
  if (photoInAddress()) openPhoto(photoInAddress(), null, false);
};
if (streamFrom) script(streamFrom).then(() => startStream(site.tesseraFind), () => {});
