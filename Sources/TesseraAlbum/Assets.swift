/// The album folder's shared files: one style sheet and one script under `assets/`.
enum Assets {
    static let files: [(name: String, text: String)] = [("album.css", style), ("album.js", script)]

    static let style = """
        :root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        body{margin:0;background:Canvas;color:CanvasText}
        header{padding:16px 16px 4px;max-width:1072px;margin:0 auto}
        header h1{margin:4px 0;font-size:1.5rem;overflow-wrap:anywhere}
        header p{margin:0;opacity:.7}
        nav.crumbs{display:flex;gap:16px;font-size:.95rem}
        a{color:inherit}
        .layout{position:relative;margin:0 auto;display:none}
        .layout a.photo,.layout .header{position:absolute;overflow:hidden;box-sizing:border-box}
        .layout img{width:100%;height:100%;object-fit:cover;display:block;background:#8883 center/100% 100% no-repeat}
        .layout .header{font-weight:600;font-size:.95rem;display:flex;align-items:flex-end;padding:0 4px 6px}
        .more{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;
          background:#0008;color:#fff;font-size:2rem;font-weight:600}
        .strip{overflow-x:auto;scroll-snap-type:x proximity}
        .strip .cells{position:relative}
        .strip a.photo{scroll-snap-align:start}
        .w375{display:block}
        @media (min-width:768px){.w375{display:none}.w768{display:block}}
        @media (min-width:1280px){.w768{display:none}.w1280{display:block}}
        nav.pager{display:flex;gap:12px;justify-content:center;align-items:center;padding:24px;flex-wrap:wrap}
        nav.pager .current{font-weight:700}
        nav.pager .disabled{opacity:.4}
        .albums{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:16px;padding:16px;
          max-width:1072px;margin:0 auto}
        .albums a{text-decoration:none}
        .albums img{width:100%;height:auto;aspect-ratio:1;object-fit:cover;border-radius:6px;display:block;background:#8883}
        .albums .name{font-weight:600;margin-top:6px;overflow-wrap:anywhere}
        .albums .meta{opacity:.7;font-size:.85rem}
        .year{max-width:1104px;margin:0 auto;padding:0 0 8px}
        .year h2{margin:16px 16px 0}
        .year .albums{padding-top:8px}
        .viewer-page{display:grid;grid-template-rows:auto 1fr auto;min-height:100vh}
        .viewer-page figure{margin:0;display:flex;align-items:center;justify-content:center;padding:8px}
        .viewer-page figure img,.lightbox figure img{max-width:100%;max-height:85vh;width:auto;height:auto;
          object-fit:contain;background:#8883 center/100% 100% no-repeat}
        .viewer-page nav.steps{display:flex;gap:16px;justify-content:center;padding:8px}
        .facts{max-width:720px;margin:0 auto;padding:8px 16px 24px}
        .facts dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
        .facts dt{opacity:.7}
        .facts dd{margin:0;overflow-wrap:anywhere}
        .facts .guess{font-style:italic}
        .facts .guess::after{content:" (guessed)";opacity:.7}
        html.viewing{overflow:hidden}
        .lightbox{position:fixed;inset:0;z-index:10;background:#000e;color:#fff;display:grid;
          grid-template-columns:1fr minmax(0,320px);overflow:auto}
        .lightbox[hidden]{display:none}
        .lightbox figure{margin:0;display:flex;align-items:center;justify-content:center;min-height:100vh;touch-action:pan-y}
        .lightbox .facts{background:#111;align-self:stretch;padding-top:56px}
        .lightbox button{position:fixed;background:#0008;color:#fff;border:0;font-size:2rem;width:48px;height:64px;cursor:pointer}
        .lightbox button:disabled{opacity:.2}
        .lightbox .prev{left:8px;top:calc(50% - 32px)}
        .lightbox .next{right:336px;top:calc(50% - 32px)}
        .lightbox .close{right:8px;top:8px;height:48px}
        .lightbox .counter{position:fixed;left:12px;top:12px;opacity:.8}
        @media (max-width:767px){.lightbox{grid-template-columns:1fr}.lightbox .next{right:8px}
          .lightbox figure{min-height:85vh}.lightbox .facts{padding-top:8px}}
        """

    /// The lightbox. Without it every photo link opens the photo's own viewer page; with it
    /// the same links open in place, so the album keeps its scroll position.
    static let script = #"""
        (() => {
          'use strict';
          if (document.body.classList.contains('viewer-page')) {
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
            image.sizes = `min(100vw, ${(85 * photo.width / photo.height).toFixed(2)}vh)`;
            image.srcset = photo.sources.map((source) => `${source.url} ${source.width}w`).join(', ');
            if (photo.sources.length) image.src = photo.sources[photo.sources.length - 1].url;
            image.alt = photo.name;
            const list = element('dl');
            for (const fact of photo.facts) {
              const value = fact.link ? element('a', {href: fact.link, textContent: fact.value, rel: 'noopener'})
                                      : document.createTextNode(fact.value);
              list.append(element('dt', {textContent: fact.label}), element('dd', {className: fact.guess ? 'guess' : ''}, value));
            }
            const links = element('p');
            links.append(element('a', {href: photo.view, textContent: 'Photo page'}));
            if (photo.original) links.append(' · ', element('a', {href: photo.original, textContent: 'Original', download: photo.name}));
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
            close.focus({preventScroll: true});
          }, () => { location.href = link.href; });
          const dismiss = () => {
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
          close.addEventListener('click', dismiss);
          document.addEventListener('keydown', (event) => {
            if (viewer.hidden) return;
            if (event.key === 'ArrowLeft') show(current - 1);
            else if (event.key === 'ArrowRight') show(current + 1);
            else if (event.key === 'Escape') dismiss();
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
        """#
}
