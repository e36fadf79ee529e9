// The photos the viewer goes through: an album's or month's photos.js, read once; where the
// viewer is in them, and the address that names the photo open.
/* exported address, current, expanded, fragment, here, load, month, monthViewer, openedFrom, photoInAddress,
   photos, read, savedScroll, script */
/* global site */
let photos = null, loading = null, current = -1, savedScroll = 0, openedFrom = null;
// On the timeline the lightbox shows a month at a time, and goes on into the months beside
// it; the address names the month too (#2023-07/photo-12), so that it reopens without
// reading every month. `monthViewer` is set once the timeline's stream is made.
let monthViewer = null, month = null;
const fragment = (id) => (monthViewer ? `#${month}/photo-${id}` : `#photo-${id}`);
const address = () => location.hash.match(/^#(?:(\d{4}-\d{2}|undated)\/)?photo-(\d+)$/) || [];
const photoInAddress = () => address()[2];
// The photos: an album's or month's photos.js (docs/ALBUM.md, "The lightbox's data"): its
// paths lead from the file's own folder, which `base` leads from to the site's.
const script = (src) => new Promise((resolve, reject) => {
  document.head.appendChild(Object.assign(document.createElement('script'), {src, onload: resolve, onerror: reject}));
});
// One file at a time: each sets window.tesseraPhotos as it runs.
let reading = Promise.resolve();
// (`wanted`: asked again when its turn comes; a month the stream has scrolled past is not read)
const read = (file, wanted = () => true) => {
  const next = () => (wanted() ? readNow(file) : null);
  return (reading = reading.then(next, next));
};
// A private album's page reads its files through private.js: sealed, named from where its page
// would be (`here`).
const sealedPage = site.tesseraSealedPage;
const here = () => (sealedPage ? sealedPage.here : location.href);
const readNow = async (file) => {
  await (sealedPage ? sealedPage.script(new URL(file, here()).href) : script(file));
  const data = site.tesseraPhotos || {photos: []};
  const root = new URL(data.base, new URL(file, here()));
  const at = (path) => new URL(path, root).href;
  const word = (value) => (typeof value === 'number' ? data.words[value] : value);
  const photo = (entry) => {
    // A rendition is its folder under media/, then `media` where the photo's share one name.
    const media = (path) => at(`media/${entry.media ? `${path}/${entry.media}` : path}`);
    const sources = entry.sources.map(([path, width]) => ({url: media(path), width}));
    const album = data.albums[entry.album];
    const original = entry.original && at(`originals/${album.slice(album.indexOf('/') + 1)}/${entry.original}`);
    return {
      id: entry.id, name: entry.name, title: entry.title, caption: entry.caption,
      width: entry.width, height: entry.height, sources, original,
      view: at(`${album}/index.html#photo-${entry.id}`),
      thumb: entry.thumb && media(entry.thumb),
      zoom: entry.zoom === 'original'
        ? original : entry.zoom === 'largest' && sources.length ? sources[sources.length - 1].url : null,
      // Where it was taken, when the site shows it: [latitude, longitude], linked to the site's map.
      position: entry.at,
      facts: [...entry.facts.map(([label, value, guess]) =>
        ({label: word(label), value: word(value), guess: guess === 1})),
              ...(entry.at ? [{label: 'Position', value: entry.at.join(', '),
                               link: at(`map.html#14/${entry.at.join('/')}`)}] : []),
              {label: 'File', value: entry.name}],
      video: entry.video
        && {url: at(`media/${entry.video[0]}`), live: entry.video[1] === 1, playable: entry.video[2] === 1},
      find: Object.assign(
        {keywords: []}, entry.find, {format: word(entry.find.format), camera: word(entry.find.camera),
                                     people: (entry.find.people || []).map(word)}),
      // A stack's face: its other members, which the viewer shows after it.
      stack: entry.stack && {title: entry.stack.title, photos: entry.stack.photos.map(photo)},
    };
  };
  return data.photos.map(photo);
};
// A list with the members of the stack at `index` after it (once): the viewer's list as it
// expands a stack; the same list when there is none to add.
const expanded = (list, index) => {
  const stack = list[index] && list[index].stack;
  if (!stack || !stack.photos.length || list.includes(stack.photos[0])) return list;
  stack.photos.forEach((member) => { member.memberOf = list[index].id; });
  return [...list.slice(0, index + 1), ...stack.photos, ...list.slice(index + 1)];
};
const load = () => loading || (loading = (async () => {
  const list = [];
  for (const file of (document.body.dataset.photos || '').split(' ').filter(Boolean)) list.push(...await read(file));
  return (photos = list);
})());
