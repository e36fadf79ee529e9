(() => {
  'use strict';
  // A Live Photo or motion photo plays its motion, muted, while pressed or hovered.
  const liven = (figure) => {
    const video = figure.querySelector('video');
    if (!video) return;
    const start = () => { figure.classList.add('playing'); video.play().catch(() => {}); };
    const stop = () => { figure.classList.remove('playing'); video.pause(); video.currentTime = 0; };
    figure.addEventListener('pointerenter', start);
    figure.addEventListener('pointerdown', start);
    for (const type of ['pointerleave', 'pointerup', 'pointercancel']) figure.addEventListener(type, stop);
  };
  if (document.body.classList.contains('viewer-page')) {
    document.querySelectorAll('figure.live').forEach(liven);
    // The plain viewer pages: keys follow the page's own links.
    document.addEventListener('keydown', (event) => {
      const rel = {ArrowLeft: 'prev', ArrowRight: 'next', Escape: 'up'}[event.key];
      const link = rel && document.querySelector(`a[rel="${rel}"]`);
      if (link) location.href = link.href;
    });
    return;
  }
  let photos = null, loading = null, current = -1, savedScroll = 0, opener = null;
  const load = () => loading || (loading = new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = document.body.dataset.photos;
    script.onload = () => resolve(photos = window.tesseraPhotos || []);
    script.onerror = reject;
    document.head.appendChild(script);
  }));
  const element = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const image = element('img', {alt: '', decoding: 'async'});
  const figure = element('figure', {}, image);
  let motion = null;
  figure.addEventListener('pointerenter', () => motion && motion.start());
  figure.addEventListener('pointerdown', () => motion && motion.start());
  for (const type of ['pointerleave', 'pointerup', 'pointercancel']) figure.addEventListener(type, () => motion && motion.stop());
  const prev = element('button', {className: 'prev', type: 'button', textContent: '‹', title: 'Previous (←)'});
  const next = element('button', {className: 'next', type: 'button', textContent: '›', title: 'Next (→)'});
  const close = element('button', {className: 'close', type: 'button', textContent: '×', title: 'Close (Esc)'});
  const counter = element('div', {className: 'counter'});
  const facts = element('aside', {className: 'facts'});
  const viewer = element('div', {className: 'lightbox', hidden: true}, figure, facts, prev, next, close, counter);
  viewer.setAttribute('role', 'dialog');
  viewer.setAttribute('aria-modal', 'true');
  document.body.append(viewer);

  const show = (index) => {
    if (index < 0 || index >= photos.length) return;
    current = index;
    const photo = photos[index];
    image.removeAttribute('srcset');
    image.removeAttribute('src');
    image.width = photo.width;
    image.height = photo.height;
    // As the CSS lays it out (beside the details from 768 px), never past its own pixels.
    const aspect = photo.width / photo.height;
    image.sizes = `(min-width: 768px) min(100vw - 320px, ${(85 * aspect).toFixed(2)}vh, ${photo.width}px), `
      + `min(100vw, ${(85 * aspect).toFixed(2)}vh, ${photo.width}px)`;
    image.srcset = photo.sources.map((source) => `${source.url} ${source.width}w`).join(', ');
    if (photo.sources.length) image.src = photo.sources[photo.sources.length - 1].url;
    image.alt = photo.name;
    // A video plays with controls in place of its poster; a Live Photo's motion over the still.
    figure.querySelectorAll('video').forEach((old) => { old.pause(); old.remove(); });
    figure.classList.remove('live', 'playing');
    image.hidden = false;
    motion = null;
    const clip = photo.video && photo.video.playable ? photo.video : null;
    if (clip && !clip.live) {
      const poster = photo.sources.length ? photo.sources[photo.sources.length - 1].url : '';
      figure.append(element('video', {controls: true, playsInline: true, preload: 'metadata', poster, src: clip.url,
                                      width: photo.width, height: photo.height}));
      image.hidden = true;
    } else if (clip) {
      const video = element('video', {muted: true, loop: true, playsInline: true, preload: 'none', src: clip.url});
      figure.classList.add('live');
      figure.append(video);
      motion = {
        start: () => { figure.classList.add('playing'); video.play().catch(() => {}); },
        stop: () => { figure.classList.remove('playing'); video.pause(); video.currentTime = 0; },
      };
    }
    const list = element('dl');
    for (const fact of photo.facts) {
      const value = fact.link ? element('a', {href: fact.link, textContent: fact.value, rel: 'noopener'})
                              : document.createTextNode(fact.value);
      list.append(element('dt', {textContent: fact.label}), element('dd', {className: fact.guess ? 'guess' : ''}, value));
    }
    const links = element('p');
    links.append(element('a', {href: photo.view, textContent: 'Photo page'}));
    if (photo.original) links.append(' · ', element('a', {href: photo.original, textContent: 'Download original', download: photo.name}));
    if (photo.video && !photo.video.playable) {
      links.append(' · ', element('a', {href: photo.video.url, textContent: photo.video.live ? 'Motion' : 'Video', download: ''}));
    }
    facts.replaceChildren(element('h2', {textContent: photo.name}), list, links);
    counter.textContent = `${index + 1} / ${photos.length}`;
    prev.disabled = index === 0;
    next.disabled = index === photos.length - 1;
    viewer.dataset.id = photo.id;
    for (const neighbour of [photos[index + 1], photos[index - 1]]) {
      if (neighbour && neighbour.sources.length) {
        const preload = new Image();
        preload.sizes = image.sizes;
        preload.srcset = neighbour.sources.map((source) => `${source.url} ${source.width}w`).join(', ');
      }
    }
  };
  const open = (link) => load().then((list) => {
    const index = list.findIndex((photo) => photo.id === link.dataset.id);
    if (index < 0) { location.href = link.href; return; }
    opener = link;
    savedScroll = window.scrollY;
    document.documentElement.classList.add('viewing');
    viewer.hidden = false;
    show(index);
    // An entry of its own in the history: Back (or a phone's back gesture) closes the photo.
    history.pushState({lightbox: true}, '');
    close.focus({preventScroll: true});
  }, () => { location.href = link.href; });
  // Closing by the button or Esc goes back too, so the entry does not linger.
  const leave = () => { if (history.state && history.state.lightbox) history.back(); else dismiss(); };
  window.addEventListener('popstate', () => { if (!viewer.hidden) dismiss(); });
  const dismiss = () => {
    figure.querySelectorAll('video').forEach((video) => video.pause());
    viewer.hidden = true;
    document.documentElement.classList.remove('viewing');
    window.scrollTo(0, savedScroll);
    if (opener) opener.focus({preventScroll: true});
  };
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a.photo');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open(link);
  });
  prev.addEventListener('click', () => show(current - 1));
  next.addEventListener('click', () => show(current + 1));
  close.addEventListener('click', leave);
  document.addEventListener('keydown', (event) => {
    if (viewer.hidden) return;
    if (event.key === 'ArrowLeft') show(current - 1);
    else if (event.key === 'ArrowRight') show(current + 1);
    else if (event.key === 'Escape') leave();
    else return;
    event.preventDefault();
  });
  let touch = null;
  figure.addEventListener('touchstart', (event) => {
    touch = event.touches.length === 1 ? [event.touches[0].clientX, event.touches[0].clientY] : null;
  }, {passive: true});
  figure.addEventListener('touchend', (event) => {
    if (!touch) return;
    const dx = event.changedTouches[0].clientX - touch[0], dy = event.changedTouches[0].clientY - touch[1];
    touch = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(dy)) show(current + (dx < 0 ? 1 : -1));
  });
})();
