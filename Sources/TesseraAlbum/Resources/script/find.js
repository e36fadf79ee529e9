// Find: on an album or month page, its photos that match, across all its pages, from its
// photos.js; on the timeline, find.js says how many photos of each month match each filter,
// and only the months that can hold matches are loaded, newest first, as results are shown.
/* global badge, element, load, pageWidth, px, read, script, site, stackBadge, unenlarged */
const form = /** @type {HTMLFormElement | null} */ (document.querySelector('form.find'));
if (form) {
  form.hidden = false;
  // A field of the form, by name.
  const field = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  const findOpener = /** @type {HTMLButtonElement | null} */ (document.querySelector('button.find-open'));
  if (findOpener) {
    findOpener.hidden = false;
    findOpener.addEventListener('click', () => {
      const open = form.classList.toggle('open');
      findOpener.setAttribute('aria-expanded', String(open));
      if (open) field('text').focus();
    });
  }
  const found = element('section', {className: 'found', hidden: true});
  document.querySelector('main').before(found);
  const plural = (n, noun) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
  const timeline = document.body.dataset.find;
  let index = null;
  const indexed = () => index || (index = script(timeline).then(() => site.tesseraFind));
  // What there is to choose from: from the index on the timeline, else the photos.
  const values = () => timeline
    ? indexed().then((i) => ({
      cameras: i.months.flatMap((m) => Object.keys(m.find.cameras)),
      formats: i.months.flatMap((m) => Object.keys(m.find.formats)),
      keywords: i.months.flatMap((m) => Object.keys(m.find.keywords)),
      people: i.months.flatMap((m) => Object.keys(m.find.people || {})),
      dated: i.months.length > 0, rated: i.months.some((m) => m.find.ratings[0] > 0)}))
    : load().then((list) => ({
      cameras: list.map((p) => p.find.camera), formats: list.map((p) => p.find.format),
      keywords: list.flatMap((p) => p.find.keywords), people: list.flatMap((p) => p.find.people),
      dated: list.some((p) => p.find.day),
      rated: list.some((p) => p.find.rating > 0)}));
  const facets = /** @type {HTMLElement} */ (form.querySelector('.facets'));
  const filters = /** @type {HTMLButtonElement} */ (form.querySelector('button.filters'));
  // Choices are filled once, and a filter is offered only when the photos give a choice.
  const fill = () => values().then((all) => {
    if (form.dataset.filled) return;
    form.dataset.filled = '1';
    const sorted = (list) => [...new Set(list.filter((v) => typeof v === 'string' && v))].sort();
    const cameras = sorted(all.cameras), formats = sorted(all.formats), people = sorted(all.people);
    field('camera').append(...cameras.map((value) => element('option', {value, textContent: value})));
    field('format').append(...formats.map((value) => element('option', {value, textContent: value})));
    field('person').append(...people.map((value) => element('option', {value, textContent: value})));
    const words = sorted([...all.keywords, ...cameras, ...people]);
    form.querySelector('datalist').append(...words.map((word) => element('option', {value: word})));
    const offered = {day: all.dated, camera: cameras.length > 0, format: formats.length > 1, rating: all.rated,
                     person: people.length > 0};
    for (const label of facets.querySelectorAll('label')) label.hidden = !offered[label.dataset.facet];
    filters.hidden = !Object.values(offered).some(Boolean);
  });
  form.addEventListener('focusin', fill);
  filters.addEventListener('click', () => fill().then(() => {
    facets.hidden = !facets.hidden;
    filters.setAttribute('aria-expanded', String(!facets.hidden));
  }));
  form.addEventListener('submit', (event) => event.preventDefault());
  const asked = () => {
    const value = (name) => field(name).value.trim();
    return {from: value('from'), to: value('to'), camera: value('camera'), format: value('format'),
            text: value('text').toLowerCase(), rating: value('rating'), person: value('person')};
  };
  // The words a photo is found by: camera, lens, title, caption, keywords, people and file
  // name; on the timeline, what find.js counts by month (camera, keywords and people), so that
  // a word loads only the months that hold it.
  if (timeline) field('text').placeholder = 'Camera, keyword or person';
  const words = (photo) => photo.words || (photo.words = (timeline
    ? [photo.find.camera, ...photo.find.keywords, ...photo.find.people]
    : [photo.name, photo.title, photo.caption, photo.find.camera,
       ...photo.facts.filter((f) => f.label === 'Lens').map((f) => f.value), ...photo.find.keywords,
       ...photo.find.people])
    .filter((w) => typeof w === 'string').join('\n').toLowerCase());
  const matches = (photo, q) => {
    const f = photo.find;
    return (!q.from || (f.day && f.day >= q.from)) && (!q.to || (f.day && f.day <= q.to))
      && (!q.camera || f.camera === q.camera) && (!q.format || f.format === q.format)
      && (!q.rating || (f.rating || 0) >= +q.rating) && (!q.person || f.people.includes(q.person))
      && (!q.text || q.text.split(/\s+/).every((word) => words(photo).includes(word)));
  };
  const isVideo = (photo) => !!photo.video && !photo.video.live;
  // "3 photos, 1 video".
  const counted = (list) => {
    const videos = list.filter(isVideo).length, stills = list.length - videos;
    return [stills || !videos ? plural(stills, 'photo') : '', videos ? plural(videos, 'video') : '']
      .filter(Boolean).join(', ');
  };
  // The results in justified rows at the page's width, as an album lays its photos out.
  let shownLast = null;
  window.addEventListener('tessera-relayout', () => { if (shownLast) lay(...shownLast); });
  const lay = (list, container) => {
    shownLast = [list, container];
    const width = pageWidth();
    const laid = site.tesseraLayout.page([{header: false, photos: list.map((p) => p.width / p.height),
                                             limits: list.map((p) => p.height)}], 'justified', width);
    const layout = element('div', {className: `layout w${width} laid`});
    Object.assign(layout.style, {width: px(width), height: px(laid.height)});
    for (const item of laid.items) {
      const photo = list[item.photo];
      if (!photo) continue;
      const box = {x: item.x, y: item.y, width: item.width, height: item.height};
      const frame = unenlarged([photo.width, photo.height], box);
      const need = frame.width * (window.devicePixelRatio || 1);
      const source = photo.sources.find((s) => s.width >= need) || photo.sources[photo.sources.length - 1];
      const link = element('a', {className: 'photo', href: photo.view});
      link.dataset.id = photo.id;
      // (on the timeline, the month whose photos the viewer goes through)
      link.dataset.month = (photo.find.day || '').slice(0, 7) || 'undated';
      Object.assign(link.style, {left: px(frame.x), top: px(frame.y), width: px(frame.width),
                                 height: px(frame.height)});
      link.append(element('img', {src: source ? source.url : '', alt: photo.name, width: Math.round(frame.width),
                                  height: Math.round(frame.height), loading: 'lazy', decoding: 'async'}));
      if (photo.video) link.append(badge(photo.video));
      if (photo.stack) link.append(stackBadge(photo.stack));
      layout.append(link);
    }
    container.replaceChildren(layout);
  };
  // How many of a month's photos can match: exact for one filter, at most that for several
  // (a word, at most the photos whose camera, keywords or people hold it).
  const atMost = (month, q) => {
    // (the photos of the month: an undated one counts its photos, having no days to count them by)
    const f = month.find, counts = [f.photos];
    const sum = (table, keep) => Object.entries(table).reduce((n, [key, count]) => n + (keep(key) ? count : 0), 0);
    for (const word of q.text ? q.text.split(/\s+/) : []) {
      const holds = (key) => key.toLowerCase().includes(word);
      counts.push(sum(f.cameras, holds) + sum(f.keywords, holds) + sum(f.people || {}, holds));
    }
    if (q.from || q.to) counts.push(sum(f.days, (day) => (!q.from || day >= q.from) && (!q.to || day <= q.to)));
    if (q.camera) counts.push(f.cameras[q.camera] || 0);
    if (q.format) counts.push(f.formats[q.format] || 0);
    if (q.rating) counts.push(f.ratings[+q.rating - 1] || 0);
    if (q.person) counts.push((f.people || {})[q.person] || 0);
    return Math.min(...counts);
  };
  let search = 0;
  const apply = async () => {
    const q = asked(), active = Object.values(q).some(Boolean), mine = ++search;
    const others = /** @type {NodeListOf<HTMLElement>} */ (
      document.querySelectorAll('main, nav.pager, section.children'));
    for (const hidden of others) {
      if (hidden) hidden.hidden = active;
    }
    found.hidden = !active;
    const output = form.querySelector('output');
    output.textContent = '';
    found.replaceChildren();
    if (!active) return;
    const results = element('div');
    if (!timeline) {
      const list = await load();
      if (mine !== search) return;
      const shown = list.filter((photo) => matches(photo, q));
      output.textContent = `${counted(shown)} of ${list.length.toLocaleString('en')}`;
      found.replaceChildren(results);
      lay(shown, results);
      return;
    }
    const { photos: total, months } = await indexed();
    const candidates = months.map((month) => [month, atMost(month, q)]).filter(([, n]) => n > 0);
    const bound = candidates.reduce((n, [, count]) => n + count, 0);
    const exact = !q.text && [q.from || q.to, q.camera, q.format, q.rating, q.person].filter(Boolean).length === 1;
    // Months read so far, matches found in them (counted), shown, and not shown yet (pending).
    let next = 0, count = [], shown = [], pending = [];
    const more = element('button', {type: 'button', className: 'more', textContent: 'More'});
    const say = () => {
      const done = next === candidates.length;
      output.textContent = done ? `${counted(count)} of ${total.toLocaleString('en')}`
        : exact ? `${plural(bound, 'photo')} of ${total.toLocaleString('en')}`
        : `up to ${plural(bound, 'photo')} of ${total.toLocaleString('en')}`;
      more.hidden = done && !pending.length;
    };
    // The next 120 matches, reading the next months as they are needed.
    const show = async () => {
      while (pending.length < 120 && next < candidates.length) {
        const list = await read(candidates[next][0].file);
        if (mine !== search) return;
        next += 1;
        const hits = list.filter((photo) => matches(photo, q));
        count = count.concat(hits);
        pending.push(...hits);
      }
      shown = shown.concat(pending.slice(0, 120));
      pending = pending.slice(120);
      lay(shown, results);
      say();
    };
    more.addEventListener('click', show);
    found.replaceChildren(results, more);
    say();
    await show();
  };
  form.addEventListener('input', apply);
}
