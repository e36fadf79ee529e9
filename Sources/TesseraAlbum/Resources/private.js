// A private album's page (docs/PRIVATE.md): the passphrase, or the key in the link's address,
// unwraps the album's key (keys.js, PBKDF2-SHA256 then AES-GCM, with WebCrypto); that key opens
// the album's sealed files, each a script handing its ciphertext to tesseraSealed (a page opened
// from disk cannot fetch). The album's pages are drawn in this page by album.js, as any album's:
// their links lead through this page's address (#<sealed name>), their files become blob URLs.
// The key is kept for the tab only (sessionStorage), never written anywhere else. A long video,
// sealed in parts, plays through a MediaSource as its parts come.
(() => {
  'use strict';
  const site = /** @type {any} */ (window);
  const encoder = new TextEncoder();
  /** @type {{album: string, rounds: number, passphrases: {salt: string, key: string}[],
   *   links: {id: string, key: string}[]}} */
  let wraps = {album: '', rounds: 0, passphrases: [], links: []};
  site.tesseraKeys = (given) => { wraps = given; };
  const bytes = (base64) => {
    const text = atob(base64), out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  };
  const base64 = (data) => btoa(Array.from(new Uint8Array(data), (b) => String.fromCharCode(b)).join(''));
  // A sealed file: its script adds the ciphertext, by name, to what is waiting for it.
  const waiting = new Map();
  site.tesseraSealed = (name, text) => {
    const wait = waiting.get(name);
    if (wait) wait.resolve(text);
  };
  const here = new URL('./', location.href);
  const fetchSealed = (name) => new Promise((resolve, reject) => {
    const script = document.createElement('script');
    const done = () => { waiting.delete(name); script.remove(); };
    waiting.set(name, {resolve: (text) => { done(); resolve(text); }});
    script.onerror = () => { done(); reject(new Error('missing')); };
    script.onload = () => { if (waiting.has(name)) { done(); reject(new Error('damaged')); } };
    script.src = new URL(`${name}.js`, here).href;
    document.head.append(script);
  });
  const aesOpen = async (key, sealed, binding) => new Uint8Array(await crypto.subtle.decrypt(
    {name: 'AES-GCM', iv: sealed.subarray(0, 12), additionalData: encoder.encode(binding)}, key, sealed.subarray(12)));
  /** @type {CryptoKey | null} */
  let albumKey = null;
  // A file's plaintext: padded with 0x80 then zeros (AlbumKey.seal).
  const open = async (name) => {
    const plain = await aesOpen(albumKey, bytes(await fetchSealed(name)), `tessera-file|${wraps.album}|${name}`);
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    if (end < 0 || plain[end] !== 0x80) throw new Error('damaged');
    return plain.subarray(0, end);
  };
  const useKey = async (raw) => {
    albumKey = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
    sessionStorage.setItem(`tessera-private-${wraps.album}`, base64(raw));
  };
  const unwrap = (wrapping, wrapped, id) => aesOpen(wrapping, bytes(wrapped), `tessera-key|${wraps.album}|${id}`);
  const byPassphrase = async (passphrase) => {
    const material = await crypto.subtle.importKey('raw', encoder.encode(passphrase), 'PBKDF2', false, ['deriveKey']);
    for (const wrap of wraps.passphrases) {
      const wrapping = await crypto.subtle.deriveKey(
        {name: 'PBKDF2', hash: 'SHA-256', salt: bytes(wrap.salt), iterations: wraps.rounds}, material,
        {name: 'AES-GCM', length: 256}, false, ['decrypt']);
      try {
        return await unwrap(wrapping, wrap.key, wrap.salt);
      } catch {
        // another passphrase's wrap
      }
    }
    return null;
  };
  // A link's address ends in #key=<id>.<secret, base64url>.
  const byLink = async (fragment) => {
    const [id, secret] = fragment.split('.');
    const link = wraps.links.find((l) => l.id === id);
    if (!link || !secret) return null;
    const raw = bytes(secret.replace(/-/g, '+').replace(/_/g, '/'));
    const wrapping = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
    try {
      return await unwrap(wrapping, link.key, id);
    } catch {
      return null;
    }
  };

  // The album's files by their path in the site (albums/…, media/…), from the manifest: a file
  // sealed in parts names the others; a video in fragments has its type and length too.
  /** @typedef {{name: string, parts?: {name: string, time?: number}[], type?: string, seconds?: number}} Entry */
  /** @type {{start: string, files: Object<string, Entry>}} */
  let manifest = {start: '', files: {}};
  const root = new URL('../../', location.href);
  // Where a path of a page at `page` leads: a sealed file of the album, or a file of the site.
  const resolve = (value, base) => {
    const url = new URL(value, base);
    if (url.protocol !== 'sealed:') return {url: url.href};
    const path = decodeURIComponent(url.pathname.slice(1));
    const file = manifest.files[path];
    if (file) return {path, name: file.name, hash: url.hash, entry: file};
    // (a private photo's file that was not sealed is never asked of the server)
    if (/^(media|originals|private)\//.test(path)) return {};
    return {url: new URL(path + url.search + url.hash, root).href};
  };
  const shown = new Map();
  const damaged = () => {
    let note = document.querySelector('.sealed-status');
    if (!note) {
      note = Object.assign(document.createElement('p'), {className: 'sealed-status', role: 'alert'});
      document.body.append(note);
    }
    note.textContent = 'A file of this album is damaged: it does not decrypt.';
  };
  // A sealed file's plaintext, every part of it.
  const whole = async (/** @type {Entry} */ entry) => {
    const parts = [await open(entry.name)];
    for (const part of entry.parts || []) parts.push(await open(part.name));
    return parts;
  };
  // A sealed file as a blob URL, opened once however often it is asked for.
  const blob = (file) => {
    if (!shown.has(file.path)) {
      const type = /\.(jpe?g)$/i.test(file.path) ? 'image/jpeg' : /\.webp$/i.test(file.path) ? 'image/webp'
        : /\.png$/i.test(file.path) ? 'image/png' : /\.(mp4|m4v|mov)$/i.test(file.path) ? 'video/mp4'
          : /\.js$/.test(file.path) ? 'text/javascript' : '';
      shown.set(file.path, whole(file.entry).then((parts) => URL.createObjectURL(new Blob(parts, {type}))));
    }
    return shown.get(file.path);
  };
  const streams = (/** @type {Entry} */ entry) => Boolean(entry.type && entry.parts && window.MediaSource
    && MediaSource.isTypeSupported(entry.type));
  // A video sealed in parts, an MP4 in fragments (its header first), played through a
  // MediaSource: parts are opened while less than `ahead` seconds wait past where it plays, and
  // what played more than `behind` seconds ago is let go, so it starts after its first parts and
  // the page never holds all of it; a seek where nothing waits begins at the part before the
  // last one starting by then (a part's time is its first picture's, which may show a little
  // after the time the part's first frames decode at).
  const stream = (/** @type {Entry} */ entry, /** @type {HTMLVideoElement} */ video) => {
    const [ahead, behind] = [20, 30];
    const parts = entry.parts || [];
    let next = 0;
    /** @type {(value?: any) => void} */
    let wake = () => {};
    const waiting = () => {
      const now = video.currentTime, buffered = video.buffered;
      for (let i = 0; i < buffered.length; i++) {
        if (buffered.start(i) <= now + 0.5 && now < buffered.end(i)) return buffered.end(i) - now;
      }
      return 0;
    };
    video.addEventListener('timeupdate', () => wake());
    video.addEventListener('seeking', () => {
      if (waiting() > 0) return;
      let from = 0;
      parts.forEach((part, i) => { if (typeof part.time === 'number' && part.time <= video.currentTime) from = i; });
      next = Math.max(0, from - 1);
      wake();
    });
    const source = new MediaSource();
    video.src = URL.createObjectURL(source);
    source.addEventListener('sourceopen', async () => {
      URL.revokeObjectURL(video.src);
      const buffer = source.addSourceBuffer(/** @type {string} */ (entry.type));
      if (entry.seconds) source.duration = entry.seconds;
      const done = (change) => new Promise((resolve, reject) => {
        buffer.onupdateend = resolve;
        buffer.onerror = reject;
        change();
      });
      // What played more than `behind` seconds ago, and what waits past three times `ahead` (left
      // by an earlier seek), is let go: the page holds a bounded stretch of the video.
      const trim = async (keep) => {
        const now = video.currentTime, ranges = buffer.buffered;
        if (ranges.length && ranges.start(0) < now - keep) await done(() => buffer.remove(0, now - keep));
        if (ranges.length && ranges.end(ranges.length - 1) > now + 3 * ahead + 1) {
          await done(() => buffer.remove(now + 3 * ahead, Infinity));
        }
      };
      const append = async (data) => {
        await trim(behind);
        try {
          await done(() => buffer.appendBuffer(data));
        } catch (error) {
          // (the browser's room for this video is full: all but where it plays goes first)
          if (/** @type {Error} */ (error).name !== 'QuotaExceededError') throw error;
          await trim(1);
          await done(() => buffer.appendBuffer(data));
        }
      };
      // Whether part `i` is already there (from before a seek back): its first and next part's times buffered.
      const there = (i) => {
        const [start, end] = [parts[i].time, i + 1 < parts.length ? parts[i + 1].time : entry.seconds];
        if (typeof start !== 'number' || typeof end !== 'number') return false;
        const ranges = buffer.buffered;
        for (let r = 0; r < ranges.length; r++) if (ranges.start(r) <= start + 0.5 && end <= ranges.end(r)) return true;
        return false;
      };
      try {
        await append(await open(entry.name));
        for (;;) {
          while (next < parts.length && there(next)) next++;
          if (next >= parts.length || waiting() > ahead) {
            if (next >= parts.length && source.readyState === 'open') source.endOfStream();
            await new Promise((resolve) => { wake = resolve; });
            continue;
          }
          await append(await open(parts[next++].name));
        }
      } catch {
        video.setAttribute('data-damaged', '');
        damaged();
      }
    }, {once: true});
  };
  // The candidate of a srcset the window needs: the smallest as wide as the window's pixels, or the widest.
  const candidate = (srcset, element) => {
    const list = srcset.split(',').map((c) => c.trim().split(/\s+/)).map(([u, w]) => ({u, w: parseInt(w, 10) || 0}))
      .sort((a, b) => a.w - b.w);
    const want = Math.max(element.clientWidth || 0, Number(element.getAttribute('width')) || 0, 320)
      * (window.devicePixelRatio || 1) * (element.closest('.layout') ? 1 : 2);
    return (list.find((c) => c.w >= want) || list[list.length - 1] || {u: ''}).u;
  };
  // Each attribute naming a sealed file gets the file's blob URL; a page of the album, its
  // address through this page.
  const rewrite = (element, base) => {
    if (element.hasAttribute('srcset')) {
      const chosen = candidate(element.getAttribute('srcset'), element);
      element.removeAttribute('srcset');
      element.removeAttribute('sizes');
      element.setAttribute('src', chosen);
    }
    for (const attribute of ['src', 'href', 'poster']) {
      const value = element.getAttribute(attribute);
      if (value === null || /^(#|blob:|data:)/.test(value)) continue;
      const target = resolve(value, base);
      if (target.url) {
        element.setAttribute(attribute, target.url);
      } else if (!target.path) {
        element.removeAttribute(attribute);
      } else if (target.path.endsWith('.html')) {
        element.setAttribute(attribute, `#${target.name}${target.hash ? target.hash.replace('#', '/') : ''}`);
      } else if (attribute === 'src' && element instanceof HTMLVideoElement && streams(target.entry)) {
        element.removeAttribute(attribute);
        stream(target.entry, element);
      } else if (attribute === 'href') {
        // (a link to a file is decrypted when followed, not when shown: a page of tiles, each
        // a link to its photo's largest rendition or to its video, would decrypt them all)
        element.setAttribute(attribute, location.href);
        followed.set(element, target);
      } else {
        element.removeAttribute(attribute);
        blob(target).then((url) => element.setAttribute(attribute, url), () => {
          element.setAttribute('data-damaged', '');
          damaged();
        });
      }
    }
  };
  // A link to a sealed file that no script of the page followed first (the viewer opens a
  // tile's photo itself): the file's blob URL, then the link followed to it.
  const followed = new WeakMap();
  window.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    const target = link && followed.get(link);
    if (!target || event.defaultPrevented) return;
    event.preventDefault();
    followed.delete(link);
    blob(target).then((url) => {
      link.setAttribute('href', url);
      link.click();
    }, damaged);
  });
  const attributes = ['src', 'srcset', 'href', 'poster'];
  const watch = () => new MutationObserver((changes) => {
    for (const change of changes) {
      const nodes = change.type === 'attributes' ? [change.target] : [...change.addedNodes];
      const elements = /** @type {Element[]} */ (nodes.filter((n) => n instanceof Element))
        .flatMap((n) => [n, ...(change.type === 'attributes' ? [] : n.querySelectorAll('*'))]);
      for (const element of elements) {
        if (attributes.some((a) => (element.getAttribute(a) || '').includes('sealed:'))) rewrite(element, 'sealed:/');
      }
    }
  }).observe(document.documentElement, {subtree: true, childList: true, attributes: true, attributeFilter: attributes});

  // The page shown: named by the address (#<its sealed name>, then /photo-N), else the last one
  // of this tab, else the album's first.
  const pageKey = () => `tessera-private-page-${wraps.album}`;
  const pageInAddress = () => {
    const name = location.hash.slice(1).split('/')[0];
    return Object.keys(manifest.files).find((path) => manifest.files[path].name === name);
  };
  const show = async () => {
    manifest = JSON.parse(new TextDecoder().decode(await open('manifest')));
    // (a private folder that holds no photo yet has no page)
    if (!manifest.start) throw new Error('empty');
    const path = pageInAddress() || sessionStorage.getItem(pageKey()) || manifest.start;
    const file = manifest.files[path] || manifest.files[manifest.start];
    const page = manifest.files[path] ? path : manifest.start;
    sessionStorage.setItem(pageKey(), page);
    const html = new TextDecoder().decode(await open(file.name));
    const parsed = new DOMParser().parseFromString(html, 'text/html');
    for (const element of parsed.body.querySelectorAll('[src], [srcset], [href], [poster]')) {
      rewrite(element, `sealed:/${page}`);
    }
    // The viewer's address of a photo (#photo-N) after the page's name.
    const photo = location.hash.match(/\/(photo-\d+)$/);
    if (photo) history.replaceState(null, '', `#${photo[1]}`);
    document.title = parsed.title;
    document.body.replaceWith(document.adoptNode(parsed.body));
    // The viewer's files: where its script reads photos.js and what it names.
    site.tesseraSealedPage.here = `sealed:/${page}`;
    watch();
    // Another page of the album is another load of this one, so album.js draws it afresh.
    window.addEventListener('hashchange', () => {
      const next = pageInAddress();
      if (next && next !== page) {
        sessionStorage.setItem(pageKey(), next);
        location.reload();
      }
    });
  };
  // photos.js of a sealed page, run as the script it is.
  const script = (url) => {
    const target = resolve(url, 'sealed:/');
    if (!target.path) return Promise.reject(new Error('missing'));
    return blob(target).then((src) => new Promise((done, fail) => {
      document.head.append(Object.assign(document.createElement('script'), {src, onload: done, onerror: fail}));
    }));
  };
  /** @type {(value?: any) => void} */
  let started = () => {};
  site.tesseraSealedPage = {here: '', script, ready: new Promise((done) => { started = done; })};

  const unlock = async () => {
    const form = /** @type {HTMLFormElement} */ (document.querySelector('form.unlock'));
    const status = form.querySelector('.status');
    if (!window.crypto || !crypto.subtle) {
      form.hidden = false;
      status.textContent = 'This browser decrypts only pages opened over HTTPS, from localhost or from disk.';
      return;
    }
    const say = (text) => { status.textContent = text; };
    const opened = async (raw) => {
      await useKey(raw);
      try {
        await show();
      } catch (error) {
        form.hidden = false;
        say(/** @type {Error} */ (error).message === 'empty' ? 'This album holds no photos yet.'
          : 'This album is damaged: its pages do not decrypt.');
        return;
      }
      started();
    };
    const kept = sessionStorage.getItem(`tessera-private-${wraps.album}`);
    const link = location.hash.match(/^#key=(.+)$/);
    if (link) {
      // (the key leaves the address: it is not kept in the tab's history)
      history.replaceState(null, '', location.pathname + location.search);
      const raw = await byLink(link[1]);
      if (raw) return opened(raw);
      form.hidden = false;
      return say('This link does not open this album: it was revoked, or is not whole.');
    }
    if (kept) return opened(bytes(kept));
    form.hidden = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      say('Opening…');
      const raw = await byPassphrase(/** @type {HTMLInputElement} */ (form.elements.namedItem('passphrase')).value);
      if (raw) return opened(raw);
      say('Wrong passphrase.');
    });
  };
  document.addEventListener('DOMContentLoaded', unlock);
})();
